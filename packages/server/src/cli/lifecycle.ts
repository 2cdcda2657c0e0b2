import { type Logger, logFatal, scrub } from '../observability/logger.js';

/** What running a command leaves: an exit code, or a process that keeps running (serve, worker). */
export type Outcome = number | 'running';
/** A command whose flags passed: the work, run only then (config, database, listening). */
export type Launch = () => Promise<Outcome>;

/**
 * Runs a command whose every line is a log line (serve, worker, migrate): a failure, at start-up or
 * later (an error nothing caught), is one JSON line at level fatal on `fd`, then exit 1.
 */
export function logged(fd: number, start: Launch): Launch {
  const crash = (error: unknown): never => {
    logFatal(fd, error, process.env);
    process.exit(1);
  };
  return async () => {
    process.once('uncaughtException', crash);
    process.once('unhandledRejection', crash);
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
