import { hash, verify } from '@node-rs/argon2';

// `Algorithm` is an ambient const enum in the package's types; 2 is its Argon2id.
const ARGON2ID = 2;

// OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane.
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** A fixed hash to verify against when the account does not exist, so both paths cost the same. */
let decoy: Promise<string> | undefined;

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (stored === null) {
    decoy ??= hashPassword('decoy password for unknown accounts');
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
