import { loadConfig } from '../config/config.js';
import { LogoutWorker } from '../delivery/logout-worker.js';
import { allowPrivateWarnings } from '../delivery/private-addresses.js';
import { DeliveryWorker } from '../delivery/worker.js';
import { createLogger } from '../observability/logger.js';
import { logMigrations } from '../observability/migration-log.js';
import { openRuntime } from '../runtime.js';
import { type Values, wholeNumber } from './args.js';
import { type Launch, logged, stopOnSignals } from './lifecycle.js';
import type { USAGES } from './usage.js';

/**
 * `tessera worker [--concurrency N]`: migrates, then delivers webhooks until SIGINT/SIGTERM, with no
 * HTTP server. Run as many as you like beside `tessera serve` on one database (each serve process
 * delivers too). Every line it writes is JSON on stdout, like serve's, at TESSERA_LOG_LEVEL.
 */
export function workerCommand(f: Values<typeof USAGES.worker.flags>): Launch {
  const concurrency = f.concurrency === undefined ? 32 : wholeNumber(f.concurrency, 'concurrency', 1, 1000);
  return logged(1, async () => {
    const config = loadConfig();
    const log = createLogger(config.logLevel, 1).child({ process: 'tessera-worker' });
    for (const warning of allowPrivateWarnings(config)) log.warn(warning);
    const runtime = await openRuntime(config, (line) => log.warn(line), {
      onMigrated: (migrations) => logMigrations(log, migrations),
    });
    const worker = new DeliveryWorker(runtime.deps, { concurrency, log }).start();
    const logouts = new LogoutWorker(runtime.deps, { log }).start();
    log.info({ concurrency }, 'webhook delivery worker started');
    stopOnSignals(log, async () => {
      await worker.stop();
      await logouts.stop();
      await runtime.close();
    });
    return 'running';
  });
}
