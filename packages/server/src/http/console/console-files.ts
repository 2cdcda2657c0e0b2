import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';

/** One file of the console's build, ready to send. */
export interface ConsoleFile {
  body: Buffer;
  type: string;
  /** Vite's content-hashed assets never change under their name: cached for a year. */
  immutable: boolean;
}

export interface ConsoleFiles {
  /** The file at `path` (relative to /console/), or null. */
  file(path: string): ConsoleFile | null;
  /** index.html: the answer for every page of the app. */
  index: ConsoleFile;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The console's build (`packages/console/dist`, made by `npm run build`), read into memory once:
 * a few small files, served without touching the disk again. Null when there is no build.
 */
export function loadConsoleFiles(dir: string): ConsoleFiles | null {
  if (!existsSync(join(dir, 'index.html'))) return null;
  const files = new Map<string, ConsoleFile>();
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else {
        const key = relative(dir, path).split(sep).join('/');
        files.set(key, {
          body: readFileSync(path),
          type: TYPES[extname(name)] ?? 'application/octet-stream',
          immutable: key.startsWith('assets/'),
        });
      }
    }
  };
  walk(dir);
  const index = files.get('index.html') as ConsoleFile;
  return { file: (path) => files.get(path) ?? null, index };
}
