import { readFileSync } from 'node:fs';
import { ConfigError, loadConfig } from '../config/config.js';
import { ServiceError } from '../domain/errors.js';
import { openRuntime } from '../runtime.js';
import { serve } from '../server.js';
import { MigrationError, migrate } from '../storage/migrate.js';
import { flags, UsageError } from './args.js';
import { COMMANDS } from './commands.js';
import { startWorker } from './worker.js';

const USAGE = `usage: tessera <command>
  serve [--port N]                 migrate, then serve
  migrate                          bring the database schema up to date
  worker [--concurrency N]         migrate, then deliver webhooks (no HTTP)
  org create --slug S [--name N] --owner-email E [--owner-password P]
  org update --org S --require-mfa true|false
  user create --org S --email E --password P [--first-name F] [--last-name L]
  client create --org S --name N (--confidential | --public) [--redirect-uri U]... [--grant G]...
                [--promote-from CLIENT_ID]...
  member add --org S --email E --role owner|member [--password P]
  keys rotate --org S`;

const warn = (line: string) => process.stderr.write(`warning: ${line}\n`);

async function run(argv: string[]): Promise<number> {
  const [first, second, ...rest] = argv;
  if (first === undefined || first === '--help' || first === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return first === undefined ? 2 : 0;
  }
  if (first === '--version') {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    process.stdout.write(`${pkg.version}\n`);
    return 0;
  }
  if (first === 'serve') {
    const f = flags(argv.slice(1), { port: { type: 'string' } });
    const config = loadConfig(f.port === undefined ? process.env : { ...process.env, PORT: f.port });
    const server = await serve(config);
    const stop = () => {
      server.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return -1;
  }
  const config = loadConfig();
  if (first === 'worker') {
    await startWorker(config, argv.slice(1));
    return -1;
  }
  if (first === 'migrate') {
    flags(argv.slice(1), {});
    const runtime = await openRuntime(config, warn);
    const applied = await migrate(runtime.deps.db);
    await runtime.close();
    process.stdout.write(`${JSON.stringify({ applied })}\n`);
    return 0;
  }
  const command = COMMANDS[`${first} ${second ?? ''}`];
  if (!command) throw new UsageError(`unknown command: ${[first, second].filter(Boolean).join(' ')}`);
  const runtime = await openRuntime(config, warn);
  try {
    const result = await command(runtime.deps, rest);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } finally {
    await runtime.close();
  }
}

run(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`error: ${error.message}\n${USAGE}\n`);
      process.exitCode = 2;
    } else if (error instanceof ServiceError) {
      process.stderr.write(`error: ${error.detail ?? error.code}\n`);
      process.exitCode = 1;
    } else if (error instanceof ConfigError || error instanceof MigrationError) {
      process.stderr.write(`error: ${error.message}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`error: ${(error as Error).message ?? String(error)}\n`);
      process.exitCode = 1;
    }
  },
);
