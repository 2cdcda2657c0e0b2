import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as validator from '@authenio/samlify-node-xmllint';
import * as samlify from 'samlify';

// node-xmllint (an emscripten build under the validator) ends every validation by adding a process
// 'uncaughtException' listener and a once('drain') listener on stdout that calls process.exit, and never
// removes them: past ten Node warns of a leak, and were stdout ever to emit 'drain' (Node writes pipes
// synchronously on Linux, so it does not today) the test process would exit in the middle of its run. The
// validation runs synchronously, so what it added is known when it returns, and is taken off.
const LEFT_BEHIND: [NodeJS.EventEmitter, string][] = [
  [process, 'uncaughtException'],
  [process.stdout, 'drain'],
];
samlify.setSchemaValidator({
  validate: (xml: string) => {
    const before = LEFT_BEHIND.map(([emitter, event]) => new Set(emitter.listeners(event)));
    try {
      return validator.validate(xml);
    } finally {
      LEFT_BEHIND.forEach(([emitter, event], i) => {
        for (const listener of emitter.listeners(event)) {
          if (!before[i]?.has(listener))
            emitter.removeListener(event, listener as (...args: unknown[]) => void);
        }
      });
    }
  },
});
// Exported through a getter, which Node's CommonJS interop leaves off the namespace: read it off the module.
const SamlLib = (samlify as unknown as { default?: typeof samlify }).default?.SamlLib ?? samlify.SamlLib;

/** A key pair and self-signed certificate made for this run with the openssl command (Node has no X.509 writer). */
export function makeSigningCertificate(name: string): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-saml-idp-'));
  try {
    const keyPath = join(dir, 'key.pem');
    const certPath = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        keyPath,
        '-out',
        certPath,
        '-days',
        '2',
        '-subj',
        `/CN=${name}`,
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(keyPath, 'utf8'), cert: readFileSync(certPath, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Overrides = Partial<Record<string, string>>;

/**
 * A real SAML IdP (samlify) on 127.0.0.1: `GET /sso` takes an HTTP-Redirect AuthnRequest and shows
 * a small login page; posting it answers with the HTTP-POST binding: a page that posts the signed
 * response to the SP's ACS by itself as it loads (a button without JavaScript), as real IdPs do, so
 * the browser's POST to the ACS is cross-site and carries none of the SP's SameSite cookies. `respond` builds a response for a request directly (fetch
 * tests), with any template value overridden (an expired one, another audience).
 */
export class SamlIdp {
  readonly origin: string;
  readonly entityId: string;
  readonly cert: string;
  readonly #idp: ReturnType<typeof samlify.IdentityProvider>;
  #sp: ReturnType<typeof samlify.ServiceProvider> | null = null;
  readonly #server: Server;

  private constructor(server: Server, port: number, keys: { key: string; cert: string }, entityId?: string) {
    this.#server = server;
    this.origin = `http://127.0.0.1:${port}`;
    this.entityId = entityId ?? `${this.origin}/metadata`;
    this.cert = keys.cert;
    this.#idp = samlify.IdentityProvider({
      entityID: this.entityId,
      signingCert: keys.cert,
      privateKey: keys.key,
      isAssertionEncrypted: false,
      wantAuthnRequestsSigned: false,
      nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
      singleSignOnService: [
        { Binding: samlify.Constants.namespace.binding.redirect, Location: `${this.origin}/sso` },
      ],
    });
  }

  /** Starts on a free port; `entityId` and `keys` let a forger pose as another IdP. */
  static async start(
    options: { keys?: { key: string; cert: string }; entityId?: string } = {},
  ): Promise<SamlIdp> {
    const keys = options.keys ?? makeSigningCertificate('tessera test idp');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const idp = new SamlIdp(server, port, keys, options.entityId);
    server.on('request', (req, res) => {
      idp.#handle(req.url ?? '/', req.method ?? 'GET', req).then(
        ({ status, body }) =>
          res
            .writeHead(status, {
              'content-type': 'text/html; charset=utf-8',
              'content-length': Buffer.byteLength(body),
              connection: 'close',
            })
            .end(body),
        (error: unknown) => res.writeHead(500).end(String(error)),
      );
    });
    return idp;
  }

  /** The IdP's metadata XML (what an owner pastes into the connection). */
  metadata(): string {
    return this.#idp.getMetadata();
  }

  /** Trusts the SP whose metadata this is (what the owner hands the IdP). */
  trustSp(metadataXml: string) {
    this.#sp = samlify.ServiceProvider({ metadata: metadataXml });
  }

  /** The request behind an HTTP-Redirect URL (the SP's start link's target). */
  async parseRequest(url: string) {
    const u = new URL(url);
    const query = Object.fromEntries(u.searchParams);
    const sp = this.#sp ?? fail('trustSp first');
    const { extract } = await this.#idp.parseLoginRequest(sp, 'redirect', {
      query,
      octetString: u.search.slice(1),
    });
    return { extract };
  }

  /**
   * A signed response (base64) for `request` naming `email`, with template values overridden and,
   * given `attributes`, an AttributeStatement of those (name → one string value).
   */
  async respond(
    request: { extract: unknown },
    email: string,
    overrides: Overrides = {},
    attributes: Record<string, string> = {},
  ): Promise<string> {
    const sp = this.#sp ?? fail('trustSp first');
    const custom = Object.keys(overrides).length + Object.keys(attributes).length > 0;
    const replace = custom
      ? (template: string) => {
          const now = new Date();
          const later = new Date(now.getTime() + 5 * 60_000).toISOString();
          const id = `_${randomBytes(16).toString('hex')}`;
          const acs = sp.entityMeta.getAssertionConsumerService('post') as string;
          const values: Record<string, string> = {
            ID: id,
            AssertionID: `_${randomBytes(16).toString('hex')}`,
            Destination: acs,
            Audience: sp.entityMeta.getEntityID(),
            EntityID: sp.entityMeta.getEntityID(),
            SubjectRecipient: acs,
            Issuer: this.entityId,
            IssueInstant: now.toISOString(),
            AssertionConsumerServiceURL: acs,
            StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
            ConditionsNotBefore: now.toISOString(),
            ConditionsNotOnOrAfter: later,
            SubjectConfirmationDataNotOnOrAfter: later,
            NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
            NameID: email,
            InResponseTo: (request.extract as { request: { id: string } }).request.id,
            AuthnStatement: '',
            AttributeStatement: '',
            ...overrides,
          };
          // samlify escapes every value it puts in, so the statement (XML) goes in after.
          const statement = Object.keys(attributes).length
            ? `<saml:AttributeStatement>${Object.entries(attributes)
                .map(
                  ([name, value]) =>
                    `<saml:Attribute Name="${escapeHtml(name)}"><saml:AttributeValue xsi:type="xs:string">${escapeHtml(value)}</saml:AttributeValue></saml:Attribute>`,
                )
                .join('')}</saml:AttributeStatement>`
            : '';
          const context = SamlLib.replaceTagsByValue(template, values).replace(
            '</saml:Assertion>',
            `${statement}</saml:Assertion>`,
          );
          return { id, context };
        }
      : undefined;
    const result = await this.#idp.createLoginResponse(
      sp,
      request as never,
      'post',
      { email },
      replace ? { customTagReplacement: replace } : undefined,
    );
    return result.context;
  }

  async #handle(
    url: string,
    method: string,
    req: NodeJS.ReadableStream,
  ): Promise<{ status: number; body: string }> {
    const u = new URL(url, this.origin);
    if (method === 'GET' && u.pathname === '/sso') {
      return {
        status: 200,
        body: `<!doctype html><title>Test IdP</title><h1>Test IdP sign-in</h1>
<form method="post" action="/sso/login"><input type="hidden" name="request" value="${escapeHtml(u.href)}">
<label>Email <input name="email" type="email" required></label><button type="submit">Sign in to the IdP</button></form>`,
      };
    }
    if (method === 'POST' && u.pathname === '/sso/login') {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      const form = new URLSearchParams(raw);
      const request = await this.parseRequest(form.get('request') ?? '');
      const response = await this.respond(request, form.get('email') ?? '');
      const sp = this.#sp ?? fail('trustSp first');
      const acs = sp.entityMeta.getAssertionConsumerService('post') as string;
      return {
        status: 200,
        body: `<!doctype html><title>Test IdP</title><form method="post" action="${escapeHtml(acs)}">
<input type="hidden" name="SAMLResponse" value="${escapeHtml(response)}"><noscript><button type="submit">Continue to the service</button></noscript></form>
<script>document.forms[0].submit()</script>`,
      };
    }
    return { status: 404, body: 'not found' };
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

const escapeHtml = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function fail(message: string): never {
  throw new Error(message);
}
