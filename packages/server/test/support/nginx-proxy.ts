import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Debian's nginx in front of Tessera nodes, configured by the repository's deploy/nginx.conf (TLS
 * with a wildcard certificate of a test CA, upstream keep-alive), and an HTTPS client for it. The
 * hosts are under DOMAIN (a name reserved for tests, never resolved): every request goes to
 * 127.0.0.1 with the host as SNI and Host header, as a browser would send it.
 */
export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const DOMAIN = 'tessera.test';

export function opensslSkip(): false | string {
  if (spawnSync('openssl', ['version']).status === 0) return false;
  process.stderr.write('SKIPPED: openssl not found (apt-get install -y openssl)\n');
  return 'SKIPPED: openssl not found';
}

/** A test CA and a certificate for DOMAIN and *.DOMAIN it signed, as PEM files in `dir`. */
export function makeCertificates(dir: string): { ca: string; cert: string; key: string } {
  const run = (args: string[]) => {
    const r = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  };
  writeFileSync(
    join(dir, 'site.ext'),
    `subjectAltName=DNS:${DOMAIN},DNS:*.${DOMAIN}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`,
  );
  run(
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=Tessera test CA'].concat([
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
    ]),
  );
  run([
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    `/CN=${DOMAIN}`,
    '-keyout',
    'site.key',
    '-out',
    'site.csr',
  ]);
  run(
    [
      'x509',
      '-req',
      '-in',
      'site.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '2',
    ].concat(['-extfile', 'site.ext', '-out', 'site.pem']),
  );
  return { ca: join(dir, 'ca.pem'), cert: join(dir, 'site.pem'), key: join(dir, 'site.key') };
}

/** deploy/nginx.conf with this test's names, ports and files; wrapped in a main config of its own. */
export function writeNginxConfig(
  dir: string,
  ports: { tls: number; http: number; nodes: number[] },
  tls: { cert: string; key: string },
) {
  const site = readFileSync(join(ROOT, 'deploy', 'nginx.conf'), 'utf8')
    .replaceAll('id.example.com', DOMAIN)
    .replace(/^\s*listen \[::\]:.*$/gm, '')
    .replace('listen 80;', `listen 127.0.0.1:${ports.http};`)
    .replace('listen 443 ssl;', `listen 127.0.0.1:${ports.tls} ssl;`)
    .replace('/etc/ssl/tessera/fullchain.pem', tls.cert)
    .replace('/etc/ssl/tessera/privkey.pem', tls.key)
    .replace('127.0.0.1:4000', `127.0.0.1:${ports.nodes[0]}`)
    .replace('127.0.0.1:4001', `127.0.0.1:${ports.nodes[1]}`);
  writeFileSync(join(dir, 'site.conf'), site);
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, temp));
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      process.getuid?.() === 0 ? 'user root;' : '',
      'daemon off;',
      'worker_processes 1;',
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'error.log')} warn;`,
      'events { worker_connections 1024; }',
      'http {',
      `  log_format upstream '$status $upstream_addr $upstream_status $request';`,
      `  access_log ${join(dir, 'access.log')} upstream;`,
      ...['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (t) => `  ${t === 'body' ? 'client_body' : t}_temp_path ${join(dir, t)};`,
      ),
      `  include ${join(dir, 'site.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
  return join(dir, 'nginx.conf');
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  start: number;
  end: number;
}

/** HTTPS to the proxy on 127.0.0.1, for `host` (SNI and Host), over kept-alive connections. */
export class ProxyClient {
  readonly agent: https.Agent;

  constructor(
    readonly port: number,
    ca: string,
  ) {
    this.agent = new https.Agent({ keepAlive: true, ca: readFileSync(ca), maxSockets: 64 });
  }

  send(
    host: string,
    method: string,
    path: string,
    options: { headers?: Record<string, string>; body?: string; localAddress?: string } = {},
  ): Promise<Answer> {
    const start = Date.now();
    return new Promise((resolve) => {
      const request = https.request(
        {
          host: '127.0.0.1',
          port: this.port,
          servername: host,
          method,
          path,
          agent: this.agent,
          headers: {
            host: `${host}:${this.port}`,
            ...(options.body === undefined ? {} : { 'content-length': Buffer.byteLength(options.body) }),
            ...options.headers,
          },
          ...(options.localAddress ? { localAddress: options.localAddress } : {}),
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk) => {
            text += chunk;
          });
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              text,
              start,
              end: Date.now(),
            }),
          );
          response.on('error', () => resolve({ status: 0, headers: {}, text: '', start, end: Date.now() }));
        },
      );
      // A connection error is status 0: the proxy itself did not answer (never expected).
      request.on('error', (error) =>
        resolve({ status: 0, headers: {}, text: String(error), start, end: Date.now() }),
      );
      request.end(options.body);
    });
  }

  form(host: string, path: string, fields: Record<string, string>, localAddress?: string) {
    return this.send(host, 'POST', path, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
      ...(localAddress ? { localAddress } : {}),
    });
  }

  /** A fetch for FormBrowser: the hosted pages through the proxy. */
  readonly fetch = (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const answer = await this.send(url.hostname, init.method ?? 'GET', url.pathname + url.search, {
      headers,
      ...(typeof init.body === 'string' ? { body: init.body } : {}),
    });
    if (answer.status === 0) throw new TypeError(`fetch failed: ${answer.text}`);
    const out = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) out.append(name, v);
    }
    const empty = [204, 304].includes(answer.status) || answer.text === '';
    return new Response(empty ? null : answer.text, { status: answer.status, headers: out });
  }) as typeof fetch;
}
