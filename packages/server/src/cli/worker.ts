import pino from 'pino';
import type { Config } from '../config/config.js';
import { openRuntime } from '../runtime.js';
import { DeliveryWorker } from '../webhooks/worker.js';
import { flags, UsageError } from './args.js';

/**
 * `tessera worker [--concurrency N]`: migrates, then delivers webhooks until SIGINT/SIGTERM, with no
 * HTTP server. Run as many as you like beside `tessera serve` on one database (each serve process
 * delivers too). Logs are pino JSON lines on stdout, like serve's, at TESSERA_LOG_LEVEL.
 */
export async function startWorker(config: Config, argv: string[]): Promise<void> {
  const f = flags(argv, { concurrency: { type: 'string' } });
  const concurrency = f.concurrency === undefined ? 32 : Number(f.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 1000) {
    throw new UsageError('--concurrency must be a whole number from 1 to 1000');
  }
  const log = pino({ level: config.logLevel, base: { process: 'tessera-worker' } });
  const runtime = await openRuntime(config, (line) => log.warn(line));
  const worker = new DeliveryWorker(runtime.deps, { concurrency, log }).start();
  log.info({ concurrency }, 'webhook delivery worker started');
  const stop = () => {
    log.info({}, 'webhook delivery worker stopping');
    worker
      .stop()
      .then(() => runtime.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
