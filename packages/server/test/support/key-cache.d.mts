import type { KeyObject } from 'node:crypto';

/** Where the test keys are kept. */
export const KEY_CACHE: string;
/** The PEM (PKCS #8) of the n-th key, or null when it is not in the cache yet. */
export function cachedKey(n: number): string | null;
/** Generates a key pair and keeps it as the n-th (when the cache can be written): its private key. */
export function generateKey(n: number): Promise<KeyObject>;
