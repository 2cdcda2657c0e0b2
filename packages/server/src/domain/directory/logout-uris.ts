import type { Config } from '../../config/config.js';
import { fail } from '../errors.js';
import type { LogoutEndpoint } from '../types.js';
import { redirectUriProblem } from './redirect-uris.js';

/** Which logout a URI is for: the names its fields and refusals carry. */
export type LogoutChannel = 'backchannel' | 'frontchannel';

/**
 * Whether `url` is on a host this service answers at: the base URL's host, or an org host under the
 * issuer domain, port included (`localhost:8080` is this service in development, `localhost:3000`
 * an app beside it). A logout URI there would have this service post to (or frame) itself, another
 * org's pages included.
 */
function isServiceHost(config: Pick<Config, 'baseUrl' | 'issuerDomain'>, url: URL): boolean {
  // The DNS root's trailing dot names the same host.
  const host = url.host.toLowerCase().replace(/\.(?=(:\d+)?$)/, '');
  const base = new URL(config.baseUrl).host.toLowerCase();
  const domain = config.issuerDomain.toLowerCase();
  return host === base || host === domain || host.endsWith(`.${domain}`);
}

/**
 * A client's back- or front-channel logout URI (OIDC Back-Channel Logout 1.0 §2.2, Front-Channel
 * Logout 1.0 §2): the rule of redirect URIs (absolute; https, or http on localhost, 127.0.0.1 or
 * [::1]; no fragment, no credentials; at most 2,000 characters), and not on a host of this service
 * (its own pages, another org's included, are no client's). Where a back-channel URI may be posted
 * to is decided again at each delivery, by the outbound address policy on the address dialled.
 */
export function checkLogoutUri(
  config: Pick<Config, 'baseUrl' | 'issuerDomain'>,
  channel: LogoutChannel,
  uri: string,
): string {
  const back = channel === 'backchannel';
  const field = `${channel}_logout_uri`;
  const problem = redirectUriProblem(uri);
  if (problem !== null)
    fail(
      back ? 'client.backchannel_logout_uri.invalid' : 'client.frontchannel_logout_uri.invalid',
      `${field} ${problem.rule}`,
    );
  if (isServiceHost(config, new URL(uri)))
    fail(
      back ? 'client.backchannel_logout_uri.service_host' : 'client.frontchannel_logout_uri.service_host',
      `${field} must not be on a host of this service`,
    );
  return uri;
}

/** A logout endpoint as registered: the URI checked, `session_required` false when not given. */
export function checkLogoutEndpoint(
  config: Pick<Config, 'baseUrl' | 'issuerDomain'>,
  channel: LogoutChannel,
  uri: string,
  sessionRequired: boolean | undefined,
): LogoutEndpoint {
  return { uri: checkLogoutUri(config, channel, uri), sessionRequired: sessionRequired === true };
}
