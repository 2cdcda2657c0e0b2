import { readFileSync } from 'node:fs';
import { ServiceError } from '../domain/errors.js';
import { scrub } from '../observability/logger.js';
import { parseFlags, type Spec, UsageError, type Values, wantsHelp } from './args.js';
import { ADMIN_COMMANDS } from './commands.js';
import type { Launch, Outcome } from './lifecycle.js';
import { migrateCommand } from './migrate.js';
import { serveCommand } from './serve.js';
import { type CommandName, commandOf, commandUsage, globalUsage, USAGES } from './usage.js';
import { workerCommand } from './worker.js';

/**
 * Each command's flags become its launch, or a usage error. Nothing here reads the configuration,
 * touches the data dir or opens the database: that happens in the launch, after the flags passed.
 */
const PREPARE: { [N in CommandName]: (f: Values<(typeof USAGES)[N]['flags']>) => Launch } = {
  serve: serveCommand,
  migrate: migrateCommand,
  worker: workerCommand,
  ...ADMIN_COMMANDS,
};

/** The server package's version, read beside the running file (src/ through tsx, or dist/). */
function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  return String(pkg.version);
}

/** Help, version and usage errors are settled here, before any command runs. */
async function run(argv: string[]): Promise<Outcome> {
  const [first] = argv;
  if (first === undefined) throw new UsageError('a command is required');
  if (first === '--help' || first === '-h' || first === 'help') {
    const topic = argv.length > 1 ? commandOf(argv.slice(1)) : null;
    if (argv.length > 1 && topic === null) throw new UsageError(`unknown command: ${words(argv.slice(1))}`);
    process.stdout.write(topic ? commandUsage(topic) : globalUsage());
    return 0;
  }
  if (first === '--version' || first === '-v') {
    if (argv.length > 1) throw new UsageError(`unexpected argument: ${argv[1]}`);
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  const name = commandOf(argv);
  if (name === null) throw new UsageError(`unknown command: ${words(argv)}`);
  const rest = argv.slice(name.split(' ').length);
  if (wantsHelp(rest)) {
    process.stdout.write(commandUsage(name));
    return 0;
  }
  let launch: Launch;
  try {
    const prepare = PREPARE[name] as (f: Values<Spec>) => Launch;
    launch = prepare(parseFlags(rest, USAGES[name].flags));
  } catch (error) {
    if (error instanceof UsageError) throw new CommandUsageError(name, error.message);
    throw error;
  }
  return launch();
}

class CommandUsageError extends UsageError {
  constructor(
    readonly command: CommandName,
    message: string,
  ) {
    super(message);
  }
}

/** The leading words of `argv` (not its flags), to name an unknown command. */
const words = (argv: string[]) =>
  argv
    .slice(0, 2)
    .filter((a) => !a.startsWith('-'))
    .join(' ') || argv[0];

run(process.argv.slice(2)).then(
  (outcome) => {
    if (outcome !== 'running') process.exitCode = outcome;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      const usage = error instanceof CommandUsageError ? commandUsage(error.command) : globalUsage();
      process.stderr.write(`error: ${error.message}\n\n${usage}`);
      process.exitCode = 2;
    } else if (error instanceof ServiceError) {
      process.stderr.write(`error: ${error.detail ?? error.code}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`error: ${scrub(String((error as Error)?.message ?? error), process.env)}\n`);
      process.exitCode = 1;
    }
  },
);
