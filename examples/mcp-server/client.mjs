// An MCP client (the MCP SDK's) that reaches the notes server as any MCP host would: the server's 401 leads it
// to the resource metadata, that to Tessera, where it registers itself and sends you to sign in; it gets the
// code back on a loopback callback and then calls the tools. See README.md.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const server = new URL(process.env.MCP_SERVER ?? 'http://localhost:3002/mcp');
const callbackPort = Number(process.env.CALLBACK_PORT ?? 33418);
const redirectUrl = `http://127.0.0.1:${callbackPort}/callback`;

/** What the SDK asks its host to keep: here in memory, for one run. */
class MemoryProvider {
  #client;
  #tokens;
  #verifier;
  #state = randomBytes(16).toString('base64url');
  redirectUrl = redirectUrl;
  clientMetadata = {
    client_name: 'Notes MCP client',
    redirect_uris: [redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  state() {
    return this.#state;
  }
  clientInformation() {
    return this.#client;
  }
  saveClientInformation(client) {
    this.#client = client;
  }
  tokens() {
    return this.#tokens;
  }
  saveTokens(tokens) {
    this.#tokens = tokens;
  }
  saveCodeVerifier(verifier) {
    this.#verifier = verifier;
  }
  codeVerifier() {
    return this.#verifier;
  }
  redirectToAuthorization(url) {
    // A desktop host would open the browser here; this one prints the address (no secret in it).
    console.log(`open this address to sign in: ${url.href}`);
  }
  /** The code of the one callback that carries this run's state. */
  receiveCode() {
    return new Promise((resolve, reject) => {
      const callbacks = createServer((req, res) => {
        const url = new URL(req.url ?? '/', redirectUrl);
        if (url.pathname !== '/callback') return void res.writeHead(404).end();
        const code = url.searchParams.get('code');
        if (url.searchParams.get('state') !== this.#state || !code) {
          res
            .writeHead(400, { 'content-type': 'text/plain' })
            .end('This sign-in is not the one this client started.');
          return;
        }
        res.writeHead(200, { 'content-type': 'text/plain' }).end('Signed in: you may close this page.');
        callbacks.close();
        resolve(code);
      });
      callbacks.once('error', reject);
      callbacks.listen(callbackPort, '127.0.0.1');
    });
  }
}

const provider = new MemoryProvider();
const transport = () => new StreamableHTTPClientTransport(server, { authProvider: provider });
const client = new Client({ name: 'notes-client', version: '1.0.0' });

const first = transport();
const code = provider.receiveCode();
try {
  await client.connect(first);
} catch (error) {
  if (!(error instanceof UnauthorizedError)) throw error;
  await first.finishAuth(await code); // the code and the PKCE verifier for tokens, at Tessera
  await client.connect(transport());
}

const added = await client.callTool({ name: 'add_note', arguments: { text: 'buy milk' } });
console.log(`add_note: ${added.content[0].text}`);
const listed = await client.callTool({ name: 'list_notes' });
console.log(`list_notes: ${listed.content[0].text}`);
await client.close();
process.exit(0);
