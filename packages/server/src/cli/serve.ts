import { loadConfig } from '../config/config.js';
import { createLogger } from '../observability/logger.js';
import { serve } from '../server.js';
import { type Values, wholeNumber } from './args.js';
import { type Launch, logged, stopOnSignals } from './lifecycle.js';
import type { USAGES } from './usage.js';

/**
 * `tessera serve [--port N]`: migrates, then serves until SIGINT/SIGTERM. Every line it writes is
 * JSON on stdout: start-up, warnings, requests, shutdown, and the fatal line of a crash.
 */
export function serveCommand(f: Values<typeof USAGES.serve.flags>): Launch {
  const port = f.port === undefined ? undefined : wholeNumber(f.port, 'port', 0, 65535);
  return logged(1, async () => {
    const config = loadConfig(port === undefined ? process.env : { ...process.env, PORT: String(port) });
    const log = createLogger(config.logLevel, 1);
    // The handlers are in place before the server starts: a SIGTERM while it starts (an orchestrator
    // stopping a pod that just became healthy) waits for the start, then closes it cleanly, where the
    // default action would kill it halfway.
    const starting = serve(config, { log });
    stopOnSignals(log, async () => (await starting).close());
    await starting;
    return 'running';
  });
}
