import { isDatabaseUnavailable, ServiceError } from '../domain/errors.js';
import { type Logger, logEscaped, logFatal } from '../observability/logger.js';
import { scrub } from '../observability/scrub.js';

/** What running a command leaves: an exit code, or a process that keeps running (serve, worker). */
export type Outcome = number | 'running';
/** A command whose flags passed: the work, run only then (config, database, listening). */
export type Launch = () => Promise<Outcome>;

/**
 * Runs a command whose every line is a log line (serve, worker, migrate): a failure, at start-up or
 * later (an error nothing caught), is one JSON line at level fatal on `fd`, then exit 1.
 *
 * But a domain error (a ServiceError: a conflict, a refusal) or a lost database that escapes after
 * the start never ends the process: it is an answer some caller did not wait for, not a broken
 * process, and one node exiting for it takes its share of the service down (and, behind a proxy,
 * sends the load to the nodes left). It is one line at level error, and the process carries on.
 */
export function logged(fd: number, start: Launch): Launch {
  const crash = (error: unknown): never => {
    logFatal(fd, error, process.env);
    process.exit(1);
  };
  const escaped = (error: unknown) => {
    if (error instanceof ServiceError || isDatabaseUnavailable(error)) logEscaped(fd, error, process.env);
    else crash(error);
  };
  return async () => {
    process.on('uncaughtException', escaped);
    process.on('unhandledRejection', escaped);
    try {
      return await start();
    } catch (error) {
      return crash(error);
    }
  };
}

/**
 * SIGINT and SIGTERM stop a long-running command: a line says so, `close` lets work in flight
 * finish, a last line says it stopped, and the process exits 0 (1 if closing failed). A signal that
 * comes again while stopping is ignored: Ctrl-C under `npm start` reaches the process twice (from
 * the terminal and forwarded by npm). SIGKILL remains for a shutdown that hangs.
 */
export function stopOnSignals(log: Logger, close: () => Promise<void>): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    close().then(
      () => {
        log.info({}, 'stopped');
        process.exit(0);
      },
      (error: unknown) => {
        log.error(
          { err: { message: scrub(String((error as Error)?.message ?? error), process.env) } },
          'shutdown failed',
        );
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
