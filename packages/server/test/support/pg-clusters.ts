import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './server.js';
import { spawnGroup } from './tessera-process.js';

/**
 * PostgreSQL clusters, PgBouncer and HAProxy started by a test itself (issue 48), from Debian's
 * packages: PostgreSQL's own binaries (/usr/lib/postgresql/<version>/bin: initdb, pg_basebackup,
 * postgres), /usr/sbin/pgbouncer and /usr/sbin/haproxy. Each runs in a process group of its own
 * (support/tessera-process.ts), killed whole at the end of the file or by the test. The suites that
 * need them run when they are found and say plainly when they are skipped; CI requires them
 * (TESSERA_TEST_REQUIRE=clusters) and .ci/run installs PgBouncer and HAProxy.
 *
 * Running as root (CI), the clusters and PgBouncer run as the `postgres` user, which PostgreSQL and
 * PgBouncer require; their directories are made its own.
 */
const required = new Set((process.env.TESSERA_TEST_REQUIRE ?? '').split(',').map((s) => s.trim()));

/** The newest PostgreSQL server binaries installed, or null. */
export function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

export const PGBOUNCER_PATH = '/usr/sbin/pgbouncer';
export const HAPROXY_PATH = '/usr/sbin/haproxy';

/** The user the clusters run as: `postgres` when this process is root, else this process's own. */
function runAs(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const uid = id('-u');
  const gid = id('-g');
  if (uid.status !== 0 || gid.status !== 0) return null;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

function installWhenMissing(path: string, debianPackage: string): void {
  if (existsSync(path) || process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) return;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['install', '-y', '-q', debianPackage], { env, stdio: 'ignore' });
}

/**
 * `false` = run; a string = why not. Needs PostgreSQL's server binaries and, as `needs` says,
 * PgBouncer and HAProxy (installed here when missing and apt-get can). Throws when CI requires them.
 */
export function clustersSkip(needs: { pgbouncer?: boolean; haproxy?: boolean } = {}): false | string {
  if (needs.pgbouncer) installWhenMissing(PGBOUNCER_PATH, 'pgbouncer');
  if (needs.haproxy) installWhenMissing(HAPROXY_PATH, 'haproxy');
  const missing = [
    postgresBin() === null ? 'PostgreSQL server binaries (/usr/lib/postgresql/*/bin)' : null,
    process.getuid?.() === 0 && runAs() === null ? 'the postgres user' : null,
    needs.pgbouncer && !existsSync(PGBOUNCER_PATH) ? PGBOUNCER_PATH : null,
    needs.haproxy && !existsSync(HAPROXY_PATH) ? HAPROXY_PATH : null,
  ].filter((m) => m !== null);
  if (missing.length === 0) return false;
  const reason = `SKIPPED: ${missing.join(', ')} not found (apt-get install -y postgresql pgbouncer haproxy)`;
  if (required.has('clusters')) throw new Error(`${reason}, and TESSERA_TEST_REQUIRE demands it`);
  process.stderr.write(`${reason}\n`);
  return reason;
}

/** A directory the clusters' user owns. */
export function clusterDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  own(dir);
  return dir;
}

function own(path: string): void {
  const user = runAs();
  if (user) chownSync(path, user.uid, user.gid);
}

function run(command: string, args: string[]): void {
  const user = runAs();
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
    env: { PATH: process.env.PATH ?? '', LC_ALL: 'C.UTF-8' },
  });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stdout}${result.stderr}`);
}

export interface ClusterOptions {
  /** fsync off: for suites whose claims are not about durability (quicker, less I/O). */
  fsync: boolean;
  /** Standbys that must confirm each commit (`synchronous_standby_names`), by application_name. */
  synchronousStandby?: string;
}

/** One PostgreSQL server (a primary, or a standby of one), in a process group of its own. */
export class Cluster {
  #process: ChildProcess | null = null;
  #log = '';

  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  /** `postgres://postgres@127.0.0.1:<port>/<database>` */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** A new primary in `parent`: initdb, tiny settings, started. */
  static async primary(parent: string, name: string, options: ClusterOptions): Promise<Cluster> {
    const bin = postgresBin() as string;
    const dir = join(parent, name);
    run(join(bin, 'initdb'), ['-D', dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    const cluster = new Cluster(dir, await freePort());
    appendFileSync(
      join(dir, 'postgresql.conf'),
      [
        `port = ${cluster.port}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dir}'`,
        'max_connections = 60',
        'shared_buffers = 16MB',
        'wal_level = replica',
        'max_wal_senders = 4',
        'hot_standby = on',
        `fsync = ${options.fsync ? 'on' : 'off'}`,
        'full_page_writes = off',
        'synchronous_commit = on',
        options.synchronousStandby ? `synchronous_standby_names = '${options.synchronousStandby}'` : '',
        '',
      ].join('\n'),
    );
    appendFileSync(join(dir, 'pg_hba.conf'), 'host replication all 127.0.0.1/32 trust\n');
    await cluster.start();
    return cluster;
  }

  /** A streaming standby of `primary` in `parent` (pg_basebackup -R), started; `name` is its application_name. */
  static async standby(parent: string, name: string, primary: Cluster): Promise<Cluster> {
    const bin = postgresBin() as string;
    const dir = join(parent, name);
    run(join(bin, 'pg_basebackup'), [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      dir,
      '-R',
      '-X',
      'stream',
      '--no-sync',
      '-c',
      'fast',
    ]);
    const cluster = new Cluster(dir, await freePort());
    appendFileSync(
      join(dir, 'postgresql.conf'),
      [
        `port = ${cluster.port}`,
        `unix_socket_directories = '${dir}'`,
        // A standby has no standby of its own until it is promoted.
        "synchronous_standby_names = ''",
        '',
      ].join('\n'),
    );
    // -R wrote a primary_conninfo without the application_name a primary's synchronous_standby_names
    // names, in postgresql.auto.conf, which is read after postgresql.conf: the last one there wins.
    appendFileSync(
      join(dir, 'postgresql.auto.conf'),
      `primary_conninfo = 'host=127.0.0.1 port=${primary.port} user=postgres application_name=${name}'\n`,
    );
    await cluster.start();
    return cluster;
  }

  /** Starts the postmaster in a process group of its own and waits until it accepts connections. */
  async start(): Promise<void> {
    const user = runAs();
    const child = spawnGroup(join(postgresBin() as string, 'postgres'), ['-D', this.dir], {
      env: { PATH: process.env.PATH ?? '', LC_ALL: 'C.UTF-8' },
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
    });
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      this.#log = (this.#log + text).slice(-20_000);
    });
    this.#process = child;
    for (let i = 0; ; i++) {
      const client = new pg.Client({ connectionString: this.url(), connectionTimeoutMillis: 2_000 });
      try {
        await client.connect();
        await client.query('select 1');
        return;
      } catch (error) {
        if (child.exitCode !== null || i > 300) {
          throw new Error(`postgres in ${this.dir} did not start: ${(error as Error).message}\n${this.#log}`);
        }
        await new Promise((r) => setTimeout(r, 100));
      } finally {
        await client.end().catch(() => {});
      }
    }
  }

  get log(): string {
    return this.#log;
  }

  get running(): boolean {
    return this.#process !== null && this.#process.exitCode === null && this.#process.signalCode === null;
  }

  /** Stopped hard: SIGKILL to the postmaster's whole group (every backend with it), as a crash would. */
  async kill(): Promise<void> {
    const child = this.#process;
    if (!child?.pid || !this.running) return;
    const exited = new Promise((r) => child.once('exit', r));
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
    await exited;
  }

  /** One statement on a connection of its own. */
  async query<R extends pg.QueryResultRow>(text: string, values: unknown[] = [], database = 'postgres') {
    const client = new pg.Client({ connectionString: this.url(database) });
    await client.connect();
    try {
      return await client.query<R>(text, values);
    } finally {
      await client.end();
    }
  }
}

/** PgBouncer in front of `target` (every database), in `poolMode`, in a process group of its own. */
export async function startPgBouncer(
  dir: string,
  target: { port: number },
  poolMode: 'transaction' | 'session' = 'transaction',
): Promise<{ port: number; url(database: string): string; log(): string }> {
  const port = await freePort();
  const users = join(dir, 'userlist.txt');
  writeFileSync(users, '"postgres" ""\n');
  const ini = join(dir, 'pgbouncer.ini');
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=127.0.0.1 port=${target.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${users}`,
      `pool_mode = ${poolMode}`,
      'max_client_conn = 200',
      'default_pool_size = 20',
      'server_reset_query =',
      '',
    ].join('\n'),
  );
  for (const file of [users, ini]) {
    own(file);
    chmodSync(file, 0o644);
  }
  const user = runAs();
  let said = '';
  const child = spawnGroup(PGBOUNCER_PATH, [ini], {
    env: { PATH: process.env.PATH ?? '' },
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
  });
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    said = (said + text).slice(-50_000);
  });
  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  await untilAccepting(
    url('postgres'),
    () => child.exitCode !== null,
    () => said,
  );
  return { port, url, log: () => said };
}

/**
 * HAProxy in TCP mode in front of `servers` (the first one active, the others `backup`), each
 * health-checked with `option pgsql-check` every 300 ms; connections to a server marked down are
 * shut, so clients reconnect to the next. In a process group of its own.
 */
export async function startHaproxy(
  dir: string,
  servers: { port: number }[],
): Promise<{ port: number; url(database: string): string }> {
  const port = await freePort();
  const cfg = join(dir, 'haproxy.cfg');
  writeFileSync(
    cfg,
    [
      'global',
      '  maxconn 400',
      'defaults',
      '  mode tcp',
      '  timeout connect 1s',
      '  timeout client 30m',
      '  timeout server 30m',
      '  timeout check 1s',
      'listen postgres',
      `  bind 127.0.0.1:${port}`,
      '  option pgsql-check user postgres',
      '  default-server inter 300ms fall 2 rise 1 on-marked-down shutdown-sessions',
      ...servers.map((s, i) => `  server pg${i} 127.0.0.1:${s.port} check${i === 0 ? '' : ' backup'}`),
      '',
    ].join('\n'),
  );
  let said = '';
  const child = spawnGroup(HAPROXY_PATH, ['-db', '-f', cfg], { env: { PATH: process.env.PATH ?? '' } });
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    said = (said + text).slice(-50_000);
  });
  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  await untilAccepting(
    url('postgres'),
    () => child.exitCode !== null,
    () => said,
  );
  return { port, url };
}

async function untilAccepting(url: string, exited: () => boolean, said: () => string): Promise<void> {
  for (let i = 0; ; i++) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (error) {
      if (exited() || i > 200)
        throw new Error(`${url} does not answer: ${(error as Error).message}\n${said()}`);
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await client.end().catch(() => {});
    }
  }
}

/** Removes a clusters' directory (after every process in it was killed). */
export function removeClusterDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
