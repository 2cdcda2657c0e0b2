import { type DpopSigner, isBound, resourceAsksForNonce, tokenEndpointAsksForNonce } from './dpop.js';
import { type Call, send, type Target } from './http.js';

/**
 * The SDK's own calls with DPoP: where Tessera is, as its proofs name it, and the signer. Tessera
 * checks `htu` against the org's issuer (its own address, whatever `api` or `hostOverride` say).
 */
export interface DpopContext {
  readonly signer: DpopSigner;
  /** The issuer without its trailing slash: `htu` is this followed by the call's path. */
  readonly origin: string;
}

/**
 * Sends a call of the SDK: plainly without DPoP; with it, carrying a proof for the call (`ath` when
 * it sends a DPoP-bound access token, which then goes as `Authorization: DPoP`), once more with the
 * server's nonce when the answer is `use_dpop_nonce` — a token endpoint's 400 or an API's 401.
 * A bearer token without `cnf` goes as Bearer, with no proof, as Tessera takes it.
 */
export async function sendCall(target: Target, call: Call, dpop: DpopContext | undefined): Promise<Response> {
  if (dpop === undefined) return send(target, call);
  const bound = call.bearer !== undefined && isBound(call.bearer);
  if (call.bearer !== undefined && !bound) return send(target, call);
  const htu = `${dpop.origin}${call.path.split('?', 1)[0]}`;
  const server = dpop.origin;
  let response: Response | null = null;
  for (let attempt = 0; attempt < 2; attempt++) {
    const proof = await dpop.signer.proofFor(server, call.method, htu, bound ? call.bearer : undefined);
    response = await send(target, { ...call, proof, ...(bound ? { scheme: 'DPoP' as const } : {}) });
    dpop.signer.remember(server, response);
    if (attempt > 0) break;
    const again = bound ? resourceAsksForNonce(response) : await tokenEndpointAsksForNonce(response);
    if (!again) break;
    await response.body?.cancel();
  }
  return response as Response;
}
