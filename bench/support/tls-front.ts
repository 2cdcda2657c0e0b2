// TLS in front of bench servers, as deploy/nginx.conf puts it in front of Tessera: one nginx process
// (no master, one worker's work in one process, so its CPU is read from one pid) terminating TLS
// for each server on a port of its own, with kept-alive connections to the server. No session cache
// and no tickets: every new connection is a full handshake. The certificate is made for the run
// (RSA-2048, the common web certificate) with the openssl command; cleaned up with the bench.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { freePort, onCleanup, stop } from './children.js';

export const NGINX = '/usr/sbin/nginx';

export interface TlsFront {
  /** The nginx process, for its CPU time. */
  pid: number;
  /** The certificate (PEM), for clients to trust. */
  ca: string;
  /** `https://127.0.0.1:<port>` in front of each upstream port given, in the same order. */
  origins: string[];
  /** What terminates TLS, for the report. */
  describe: string;
}

/** Why TLS cannot be put in front here, or null when it can. */
export function tlsFrontSkip(): string | null {
  if (!existsSync(NGINX)) return `no ${NGINX} (apt-get install nginx-light)`;
  return null;
}

/** Starts nginx in front of `upstreams` (ports on 127.0.0.1); resolves once every front accepts TLS. */
export async function startTlsFront(upstreams: readonly number[]): Promise<TlsFront> {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-bench-tls-'));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  const ports = await Promise.all(upstreams.map(() => freePort()));
  const servers = upstreams.map(
    (upstream, i) => `
    upstream u${i} { server 127.0.0.1:${upstream}; keepalive 32; }
    server {
      listen 127.0.0.1:${ports[i]} ssl;
      ssl_certificate ${cert};
      ssl_certificate_key ${key};
      ssl_protocols TLSv1.2 TLSv1.3;
      ssl_session_cache off;
      ssl_session_tickets off;
      location / {
        proxy_pass http://u${i};
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
      }
    }`,
  );
  const config = join(dir, 'nginx.conf');
  writeFileSync(
    config,
    `daemon off;
master_process off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  ${servers.join('\n')}
}
`,
  );
  const child = spawn(NGINX, ['-p', dir, '-c', config, '-e', join(dir, 'error.log')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  onCleanup(() => stop(child));
  const ca = readFileSync(cert, 'utf8');
  for (const port of ports) await untilTls(port, ca, () => `${stderr}${readLog(dir)}`, child);
  // nginx -v prints to stderr: "nginx version: nginx/1.22.1".
  const version = spawnSync(NGINX, ['-v'], { encoding: 'utf8' }).stderr.replace(/^nginx version: /, '');
  return {
    pid: child.pid ?? 0,
    ca,
    origins: ports.map((p) => `https://127.0.0.1:${p}`),
    describe: `${version.trim() || 'nginx'} (one process), RSA-2048 certificate, no session resumption`,
  };
}

const readLog = (dir: string) => {
  try {
    return readFileSync(join(dir, 'error.log'), 'utf8');
  } catch {
    return '';
  }
};

async function untilTls(
  port: number,
  ca: string,
  log: () => string,
  child: ReturnType<typeof spawn>,
): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}):\n${log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port, ca, servername: 'localhost' }, () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nginx did not accept TLS on ${port}:\n${log()}`);
}
