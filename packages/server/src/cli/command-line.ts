import { readFileSync } from 'node:fs';
import { ServiceError } from '../domain/errors.js';
import { scrub } from '../observability/scrub.js';
import { parseFlags, type Spec, UsageError, type Values, wantsHelp } from './args.js';
import type { AdminName } from './commands.js';
import type { Launch, Outcome } from './lifecycle.js';
import { closestName } from './suggest.js';
import {
  type CommandName,
  commandNames,
  commandOf,
  commandUsage,
  globalUsage,
  groupOf,
  groupUsage,
  USAGES,
} from './usage.js';

type Prepare<N extends CommandName> = (f: Values<(typeof USAGES)[N]['flags']>, positional?: string) => Launch;

const admin =
  <N extends AdminName>(name: N) =>
  async (): Promise<Prepare<N>> =>
    (await import('./commands.js')).ADMIN_COMMANDS[name];

/**
 * Each command's flags become its launch, or a usage error. The command's module (and with it the
 * server, the domain, the database drivers) is imported only once its flags parsed, so `--help`,
 * `--version` and usage errors load none of it. Nothing here reads the configuration, touches the
 * data dir or opens the database: that happens in the launch.
 */
const PREPARE: { [N in CommandName]: () => Promise<Prepare<N>> } = {
  serve: async () => (await import('./serve.js')).serveCommand,
  migrate: async () => (await import('./migrate.js')).migrateCommand,
  worker: async () => (await import('./worker.js')).workerCommand,
  backup: async () => (await import('./backup.js')).backupCommand,
  'org create': admin('org create'),
  'org update': admin('org update'),
  'user create': admin('user create'),
  'client create': admin('client create'),
  'member add': admin('member add'),
  'service-account create': admin('service-account create'),
  'service-account list': admin('service-account list'),
  'service-account rotate-secret': admin('service-account rotate-secret'),
  'service-account delete': admin('service-account delete'),
  'invitation create': admin('invitation create'),
  'invitation list': admin('invitation list'),
  'invitation revoke': admin('invitation revoke'),
  'keys rotate': admin('keys rotate'),
  'resource list': admin('resource list'),
  'resource create': admin('resource create'),
  'resource show': admin('resource show'),
  'resource update': admin('resource update'),
  'resource delete': admin('resource delete'),
  'role list': admin('role list'),
  'role create': admin('role create'),
  'role show': admin('role show'),
  'role update': admin('role update'),
  'role delete': admin('role delete'),
  'user roles': admin('user roles'),
  'client permissions': admin('client permissions'),
  'connection create': admin('connection create'),
  'connection list': admin('connection list'),
  'connection show': admin('connection show'),
  'connection update': admin('connection update'),
  'connection delete': admin('connection delete'),
  'directory create': admin('directory create'),
  'directory list': admin('directory list'),
  'directory rotate-token': admin('directory rotate-token'),
  'directory delete': admin('directory delete'),
  'log-stream create': admin('log-stream create'),
  'log-stream list': admin('log-stream list'),
  'log-stream show': admin('log-stream show'),
  'log-stream update': admin('log-stream update'),
  'log-stream delete': admin('log-stream delete'),
  'trusted-app list': admin('trusted-app list'),
  'trusted-app create': admin('trusted-app create'),
  'trusted-app show': admin('trusted-app show'),
  'trusted-app update': admin('trusted-app update'),
  'trusted-app delete': admin('trusted-app delete'),
  'domain add': admin('domain add'),
  'domain list': admin('domain list'),
  'domain verify': admin('domain verify'),
  'domain primary': admin('domain primary'),
  'domain delete': admin('domain delete'),
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
    const asked = argv.slice(1);
    const topic = asked.length > 0 ? commandOf(asked) : null;
    const group = asked.length === 1 ? groupOf(asked[0]) : null;
    if (asked.length > 0 && topic === null && group === null) throw unknownCommand(asked);
    process.stdout.write(topic ? commandUsage(topic) : group ? groupUsage(group) : globalUsage());
    return 0;
  }
  if (first === '--version' || first === '-v') {
    if (argv.length > 1) throw new UsageError(`unexpected argument: ${argv[1]}`);
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  const name = commandOf(argv);
  const group = groupOf(first);
  if (name === null && group !== null && (argv[1] === undefined || argv[1].startsWith('-'))) {
    // `tessera org --help` lists the group's commands; `tessera org` alone asks for one of them.
    if (!wantsHelp(argv.slice(1))) throw new GroupUsageError(group, `${group} needs a command`);
    process.stdout.write(groupUsage(group));
    return 0;
  }
  if (name === null) throw unknownCommand(argv);
  const rest = argv.slice(name.split(' ').length);
  if (wantsHelp(rest)) {
    process.stdout.write(commandUsage(name));
    return 0;
  }
  let launch: Launch;
  try {
    const { flags, positional } = withPositional(rest, name);
    const prepare = (await PREPARE[name]()) as (f: Values<Spec>, positional?: string) => Launch;
    launch = prepare(flags, positional);
  } catch (error) {
    if (error instanceof UsageError) throw new CommandUsageError(name, error.message);
    throw error;
  }
  return launch();
}

/** The command's flags, and its one positional word when it takes one (the first that is not a flag). */
function withPositional(rest: string[], name: CommandName): { flags: Values<Spec>; positional?: string } {
  const usage: { flags: Spec; positional?: string } = USAGES[name];
  if (usage.positional === undefined) return { flags: parseFlags(rest, usage.flags) };
  const at = rest.findIndex((a) => !a.startsWith('-'));
  if (at === -1) return { flags: parseFlags(rest, usage.flags) };
  const flags = parseFlags([...rest.slice(0, at), ...rest.slice(at + 1)], usage.flags);
  return { flags, positional: rest[at] as string };
}

class CommandUsageError extends UsageError {
  constructor(
    readonly command: CommandName,
    message: string,
  ) {
    super(message);
  }
}

/** A command that does not exist: one line naming it (and the command it was likely meant to be), then the names. */
class UnknownCommandError extends UsageError {}

function unknownCommand(argv: string[]): UnknownCommandError {
  const typed = words(argv);
  const meant = closestName(typed, Object.keys(USAGES));
  return new UnknownCommandError(
    meant === null ? `unknown command: ${typed}` : `unknown command: ${typed}; did you mean \`${meant}\`?`,
  );
}

class GroupUsageError extends UsageError {
  constructor(
    readonly group: string,
    message: string,
  ) {
    super(message);
  }
}

/** The leading words of `argv` (not its flags), to name an unknown command. */
const words = (argv: string[]): string =>
  argv
    .slice(0, 2)
    .filter((a) => !a.startsWith('-'))
    .join(' ') ||
  argv[0] ||
  '';

/**
 * What `tessera <argv>` does, up to its exit code: the command's outcome, or a usage, domain or other
 * error written to stderr (2 for usage errors, 1 otherwise). main.ts runs it with the process's
 * arguments; nothing here exits the process.
 */
export function runCommandLine(argv: string[]): Promise<Outcome> {
  return run(argv).catch((error: unknown) => {
    if (error instanceof UnknownCommandError) {
      process.stderr.write(`error: ${error.message}\n${commandNames()}`);
      return 2;
    }
    if (error instanceof UsageError) {
      const usage =
        error instanceof CommandUsageError
          ? commandUsage(error.command)
          : error instanceof GroupUsageError
            ? groupUsage(error.group)
            : globalUsage();
      process.stderr.write(`error: ${error.message}\n\n${usage}`);
      return 2;
    }
    if (error instanceof ServiceError) {
      process.stderr.write(`error: ${error.detail ?? error.code}\n`);
      return 1;
    }
    process.stderr.write(`error: ${scrub(String((error as Error)?.message ?? error), process.env)}\n`);
    return 1;
  });
}
