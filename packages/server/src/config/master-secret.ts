import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Config, ConfigError } from './config.js';

/**
 * TESSERA_SECRET, or for development a secret generated once into the data dir. Several nodes
 * sharing PostgreSQL must share the secret, so outside loopback development it is required.
 */
export function loadMasterSecret(config: Config, warn: (line: string) => void): string {
  if (config.secret) return config.secret;
  if (config.databaseUrl && !config.loopback) {
    throw new ConfigError(
      'TESSERA_SECRET is required when DATABASE_URL is set and TESSERA_URL is not loopback',
    );
  }
  const file = join(config.dataDir, 'secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  warn(`TESSERA_SECRET is not set: generated one into ${file} (set TESSERA_SECRET in production)`);
  return secret;
}
