import { loadConfig } from '../config/config.js';
import type { Deps } from '../domain/context.js';
import { mailerFor } from '../mail/mailers.js';
import { createLogger } from '../observability/logger.js';
import { openRuntime } from '../runtime.js';
import type { Launch } from './lifecycle.js';
import { servedConfig } from './served-config.js';

/**
 * Runs an admin command's work, once its flags passed: its output is the one JSON object on stdout; a failure is `error: …` on
 * stderr and exit 1 (that is the command's answer, not a log line). Warnings while opening the
 * database (a generated secret) are JSON log lines on stderr, so stdout stays one object.
 */
export function admin(work: (deps: Deps) => Promise<object>): Launch {
  return async () => {
    const config = loadConfig();
    const log = createLogger(config.logLevel, 2);
    // Mail as `tessera serve` sends it (`invitation create --mail`); its warnings go to stderr.
    const runtime = await openRuntime(config, (line) => log.warn(line), {
      mailer: mailerFor(config, log).mailer,
    });
    try {
      // URLs (issuers, callback URLs, mailed links) are the service's, not this command's environment's.
      const served = await servedConfig(runtime.deps.store, config, process.env);
      if (served.warning !== null) log.warn(served.warning);
      // Mail follows the service's URL too (a loopback service logs its mail instead of sending it).
      const mailer = served.recorded ? mailerFor(served.config, log).mailer : runtime.deps.mailer;
      const deps = { ...runtime.deps, config: served.config, mailer };
      const result = await work(deps);
      process.stdout.write(`${JSON.stringify(result)}\n`);
      return 0;
    } finally {
      await runtime.close();
    }
  };
}
