import type { Config } from '../config/config.js';

/**
 * The start-up warnings of a process that fetches or sends (serve, worker) about the outbound address
 * policy: TESSERA_OUTBOUND_ALLOW_PRIVATE=1 lifts it, and a setting meant for development must not pass
 * unnoticed in production; its old name, TESSERA_WEBHOOKS_ALLOW_PRIVATE, still works but is
 * deprecated. Empty when the policy holds and the new name is used.
 */
export function allowPrivateWarnings(
  config: Pick<Config, 'outboundAllowPrivate' | 'deprecatedAllowPrivate'>,
): string[] {
  const warnings: string[] = [];
  if (config.deprecatedAllowPrivate !== null) {
    warnings.push(
      `${config.deprecatedAllowPrivate} is deprecated: set TESSERA_OUTBOUND_ALLOW_PRIVATE instead ` +
        '(the same setting, for every outbound fetch)',
    );
  }
  if (config.outboundAllowPrivate) {
    warnings.push(
      'TESSERA_OUTBOUND_ALLOW_PRIVATE=1: webhooks, client metadata documents, client key sets and ' +
        "connections' upstream calls may reach loopback and private addresses (the SSRF protection is " +
        'off; for development only)',
    );
  }
  return warnings;
}
