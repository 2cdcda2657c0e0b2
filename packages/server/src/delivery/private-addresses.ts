import type { Config } from '../config/config.js';

/**
 * The start-up warning of a process that sends (serve, worker) when TESSERA_WEBHOOKS_ALLOW_PRIVATE=1
 * lifts the outbound address policy: a setting meant for development must not pass unnoticed in
 * production. Null when the policy holds.
 */
export function allowPrivateWarning(config: Pick<Config, 'webhooksAllowPrivate'>): string | null {
  if (!config.webhooksAllowPrivate) return null;
  return (
    'TESSERA_WEBHOOKS_ALLOW_PRIVATE=1: webhooks and client metadata documents may reach loopback and ' +
    'private addresses (the SSRF protection is off; for development only)'
  );
}
