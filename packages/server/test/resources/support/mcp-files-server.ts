import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { authenticate, createVerifier, principalOf, protectedResource, requireScopes } from '@tessera/koa';
import Koa, { type Middleware } from 'koa';

/** The scope each tool needs: checked by @tessera/koa before the MCP server sees the call. */
export const TOOL_SCOPES = { read_file: 'files:read', write_file: 'files:write' } as const;

/**
 * An MCP server of the kind an org protects with Tessera (DESIGN §15): the MCP SDK's server over
 * Streamable HTTP (stateless), inside a Koa app behind @tessera/koa — RFC 9728 metadata, the 401 that
 * names it, `aud` bound to this resource, and `requireScopes` per tool.
 */
export interface FilesServer {
  /** The resource indicator: `http://127.0.0.1:<port>/mcp`. */
  readonly resource: string;
  /** The same server's other path, registered as another resource, whose tokens /mcp must refuse. */
  readonly other: string;
  /** The tools that ran, with the user they ran for. */
  readonly calls: { tool: string; sub: string }[];
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1; `issuer` is the org issuer whose tokens it accepts. */
export async function startFilesServer(issuer: string): Promise<FilesServer> {
  let handle: ReturnType<Koa['callback']> | undefined;
  const server: Server = createServer((req, res) => (handle ? handle(req, res) : res.writeHead(503).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const resource = `http://127.0.0.1:${port}/mcp`;
  const calls: { tool: string; sub: string }[] = [];

  const metadata = protectedResource({
    resource,
    authorizationServers: [issuer],
    scopesSupported: Object.values(TOOL_SCOPES),
    resourceName: 'Files',
  });
  const app = new Koa();
  app.use(metadata);
  app.use(
    authenticate({
      verify: createVerifier({ issuer, resource }),
      realm: 'files',
      resourceMetadata: metadata.metadataUrl,
    }),
  );
  app.use(readJsonBody);
  app.use(scopePerTool);
  app.use(async (ctx) => {
    const sub = principalOf(ctx).claims.sub;
    const mcp = filesMcpServer((tool) => calls.push({ tool, sub }));
    // Stateless: one transport per request, as the SDK's examples do without sessions.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    ctx.respond = false;
    await mcp.connect(transport);
    ctx.res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await transport.handleRequest(ctx.req, ctx.res, ctx.state.json);
  });
  handle = app.callback();

  return {
    resource,
    other: `http://127.0.0.1:${port}/other`,
    calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function filesMcpServer(ran: (tool: string) => void): McpServer {
  const mcp = new McpServer({ name: 'files', version: '1.0.0' });
  mcp.registerTool('read_file', { description: 'Read a file' }, async () => {
    ran('read_file');
    return { content: [{ type: 'text', text: 'hello from files' }] };
  });
  mcp.registerTool('write_file', { description: 'Write a file' }, async () => {
    ran('write_file');
    return { content: [{ type: 'text', text: 'written' }] };
  });
  return mcp;
}

/** A POST's JSON body at ctx.state.json (the MCP transport takes it parsed). */
const readJsonBody: Middleware = async (ctx, next) => {
  if (ctx.method === 'POST') ctx.state.json = JSON.parse((await readBody(ctx.req)) || 'null');
  return next();
};

/**
 * `tools/call` of a tool needs that tool's scope, inside a JSON-RPC batch too (an array of messages: a
 * check of the first message alone let a batched call through); everything else any token for this resource.
 */
const scopePerTool: Middleware = async (ctx, next) => {
  const messages = [ctx.state.json].flat() as ({ method?: string; params?: { name?: string } } | null)[];
  const needed = new Set<string>();
  for (const message of messages) {
    const name = message?.method === 'tools/call' ? message.params?.name : undefined;
    const scope =
      name !== undefined && Object.hasOwn(TOOL_SCOPES, name)
        ? TOOL_SCOPES[name as keyof typeof TOOL_SCOPES]
        : undefined;
    if (scope !== undefined) needed.add(scope);
  }
  return needed.size === 0 ? next() : requireScopes(...needed)(ctx, next);
};

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
