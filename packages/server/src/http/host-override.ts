import type { FastifyRequest } from 'fastify';
import type { Config } from '../config/config.js';

/**
 * The query parameter that, while TESSERA_URL is a loopback address, names the host a request
 * addresses in place of `Host` (what the SDK's `hostOverride` sends). It is the transport's, not
 * an operation's: links keep it, and query checks leave it out.
 */
export const HOST_OVERRIDE_PARAMETER = 'host';

/** This request's `host` override as sent, or null: none given (once, non-empty), or not loopback. */
export function hostOverride(config: Config, request: FastifyRequest): string | null {
  if (!config.loopback) return null;
  const value = (request.query as Record<string, unknown> | undefined)?.[HOST_OVERRIDE_PARAMETER];
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The query parameters that belong to the transport: the override's, while TESSERA_URL is loopback. */
export const transportParameters = (config: Config): readonly string[] =>
  config.loopback ? [HOST_OVERRIDE_PARAMETER] : [];
