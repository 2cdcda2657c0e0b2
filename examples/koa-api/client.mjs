// A service calling the invoices API with a machine token of its own: the client credentials grant, with
// the API's resource indicator (RFC 8707), so the token's audience names the API and its scope holds
// what the client was permitted there. See README.md.
const issuer = process.env.TESSERA_ISSUER ?? 'http://localhost:4000/o/acme/';
const api = process.env.INVOICES_API ?? 'http://localhost:3001';
const resource = process.env.RESOURCE ?? `${api}/invoices`;
const clientId = process.env.CLIENT_ID;
const clientSecret = process.env.CLIENT_SECRET;
if (!clientId || !clientSecret) throw new Error('set CLIENT_ID and CLIENT_SECRET: see README.md');

/** A machine token for the API, with the scopes asked for (all the client is permitted without `scope`). */
async function machineToken(scope) {
  const discovery = await fetch(new URL('.well-known/openid-configuration', issuer));
  const { token_endpoint } = await discovery.json();
  const response = await fetch(token_endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      // client_secret_basic: the secret goes in a header to the token endpoint, never in a URL.
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', resource, ...(scope ? { scope } : {}) }),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(`token endpoint answered ${response.status} ${body.error}`);
  return body;
}

const { access_token, scope } = await machineToken('invoices:read');
console.log(`granted: ${scope}`);
const call = (method) =>
  fetch(`${api}/invoices`, { method, headers: { authorization: `Bearer ${access_token}` } });

const list = await call('GET');
console.log(`GET /invoices: ${list.status} ${await list.text()}`);
// The token holds invoices:read only: creating an invoice is refused, and the challenge names the scope.
const create = await call('POST');
console.log(`POST /invoices: ${create.status} ${create.headers.get('www-authenticate')}`);
