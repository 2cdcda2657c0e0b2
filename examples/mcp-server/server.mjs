// An MCP server of notes, over the MCP SDK's Streamable HTTP transport, inside a Koa app that @tessera/koa
// guards: it serves the RFC 9728 metadata that leads an MCP client to Tessera, answers 401 without a valid
// token for this resource, and checks each tool's scope. See README.md.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { authenticate, createVerifier, principalOf, protectedResource, requireScopes } from '@tessera/koa';
import Koa from 'koa';
import { z } from 'zod';

const issuer = process.env.TESSERA_ISSUER ?? 'http://localhost:4000/o/acme/';
const port = Number(process.env.PORT ?? 3002);
const resource = process.env.RESOURCE ?? `http://localhost:${port}/mcp`; // as registered in Tessera
const TOOL_SCOPES = { list_notes: 'notes:read', add_note: 'notes:write' };
const MAX_BODY = 64 * 1024;
const MAX_NOTES = 100; // per person: the notes live in this process's memory

/** Each person's notes, by their user id (the token's `sub`). */
const notes = new Map();

function notesServer(userId) {
  const mcp = new McpServer({ name: 'notes', version: '1.0.0' });
  const mine = () => notes.get(userId) ?? [];
  mcp.registerTool('list_notes', { description: 'List your notes' }, async () => ({
    content: [{ type: 'text', text: JSON.stringify(mine()) }],
  }));
  mcp.registerTool(
    'add_note',
    { description: 'Add a note', inputSchema: { text: z.string().min(1).max(1000) } },
    async ({ text }) => {
      if (mine().length >= MAX_NOTES) {
        return { isError: true, content: [{ type: 'text', text: `you have ${MAX_NOTES} notes already` }] };
      }
      notes.set(userId, [...mine(), text]);
      return { content: [{ type: 'text', text: `added; you have ${mine().length} note(s)` }] };
    },
  );
  return mcp;
}

const metadata = protectedResource({
  resource,
  authorizationServers: [issuer],
  scopesSupported: Object.values(TOOL_SCOPES),
  resourceName: 'Notes',
});

const app = new Koa();
app.use(metadata); // before authenticate: a client without a token reads it
app.use(
  authenticate({
    // Only tokens whose audience names this server: a token the issuer minted for another API is refused.
    verify: createVerifier({ issuer, resource }),
    realm: 'notes',
    resourceMetadata: metadata.metadataUrl,
    onRefused: (reason, ctx) => console.warn(`401 ${ctx.method} ${ctx.path}: ${reason.code}`),
  }),
);
app.use(async (ctx, next) => {
  if (ctx.path !== '/mcp') return;
  // The JSON-RPC message, read here (at most 64 KiB) so a tool call's scope is checked before the MCP
  // server sees it.
  if (ctx.method === 'POST') {
    try {
      ctx.state.message = JSON.parse((await readBody(ctx.req)) || 'null');
    } catch {
      ctx.status = 400;
      ctx.body = { error: 'invalid_request', error_detail: 'the body is not JSON of at most 64 KiB' };
      return;
    }
  }
  // Every tool a call names needs its scope, in a batch too (an array of messages).
  const messages = [ctx.state.message].flat();
  const needed = messages
    .filter((m) => m?.method === 'tools/call' && Object.hasOwn(TOOL_SCOPES, m.params?.name))
    .map((m) => TOOL_SCOPES[m.params.name]);
  return needed.length > 0 ? requireScopes(...new Set(needed))(ctx, next) : next();
});
app.use(async (ctx) => {
  const mcp = notesServer(principalOf(ctx).claims.sub);
  // Stateless: one transport per request, so any node can answer any request.
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  ctx.respond = false;
  ctx.res.on('close', () => {
    void transport.close();
    void mcp.close();
  });
  await mcp.connect(transport);
  await transport.handleRequest(ctx.req, ctx.res, ctx.state.message);
});

app.listen(port, '127.0.0.1', () => console.log(`MCP server on ${resource}`));

async function readBody(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Error('too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
