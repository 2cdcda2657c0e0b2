import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type CliResult, tessera, tesseraProcess } from '../support/cli.js';

/**
 * `--help`, `--version` and usage errors (DESIGN §8) answer before anything else happens: no data
 * dir, no generated secret, no database. The data dir below must still not exist afterwards.
 */
const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** Every command with its usage line, as `tessera --help` lists it. */
const COMMANDS: [string, string][] = [
  ['serve', 'tessera serve [--port N]'],
  ['migrate', 'tessera migrate'],
  ['worker', 'tessera worker [--concurrency N]'],
  ['backup', 'tessera backup FILE'],
  ['org create', 'tessera org create --slug S [--name N] --owner-email E [--owner-password P]'],
  [
    'org update',
    'tessera org update --org S [--require-mfa true|false] [--dynamic-registration true|false] [--metadata-documents true|false] [--sign-up open|invite_only|domains] [--sign-up-domain D]... [--id-token-signing-alg RS256|ES256|PS256] [--display-name N] [--primary-colour #hex] [--background-colour #hex] [--terms-url U] [--privacy-url U] [--logo FILE] [--favicon FILE]',
  ],
  ['user create', 'tessera user create --org S --email E --password P [--first-name F] [--last-name L]'],
  [
    'client create',
    'tessera client create --org S --name N (--confidential | --public) [--redirect-uri U]... [--post-logout-redirect-uri U]... [--allowed-origin O]... [--grant G]... [--promote-from CLIENT_ID]... [--jwks-uri U] [--request-object-signing-alg A] [--backchannel-logout-uri U [--backchannel-logout-session-required]] [--frontchannel-logout-uri U [--frontchannel-logout-session-required]]',
  ],
  ['resource list', 'tessera resource list --org S'],
  [
    'resource create',
    'tessera resource create --org S --identifier URI --name N [--scope NAME=DESCRIPTION]... [--ttl SECONDS]',
  ],
  ['resource show', 'tessera resource show --org S --id API_ID'],
  [
    'resource update',
    'tessera resource update --org S --id API_ID [--name N] [--scope NAME=DESCRIPTION]... [--ttl SECONDS]',
  ],
  ['resource delete', 'tessera resource delete --org S --id API_ID'],
  ['role list', 'tessera role list --org S'],
  [
    'role create',
    'tessera role create --org S --name N [--description D] [--permission IDENTIFIER#SCOPE]...',
  ],
  ['role show', 'tessera role show --org S --id ROLE_ID'],
  [
    'role update',
    'tessera role update --org S --id ROLE_ID [--name N] [--description D] [--permission IDENTIFIER#SCOPE]...',
  ],
  ['role delete', 'tessera role delete --org S --id ROLE_ID'],
  ['user roles', 'tessera user roles --org S --user USER_ID [--set ROLE_ID,...]'],
  [
    'client permissions',
    'tessera client permissions --org S --client CLIENT_ID [--set IDENTIFIER#SCOPE,...]',
  ],
  ['member add', 'tessera member add --org S --email E --role owner|member [--password P]'],
  [
    'service-account create',
    'tessera service-account create --org S --name N --scope org:read|events:read|org:write...',
  ],
  ['service-account list', 'tessera service-account list --org S'],
  ['service-account rotate-secret', 'tessera service-account rotate-secret --org S --client-id C'],
  ['service-account delete', 'tessera service-account delete --org S --client-id C'],
  [
    'invitation create',
    'tessera invitation create --org S --email E [--role owner|member] [--role-id rol_…]... [--mail]',
  ],
  [
    'invitation list',
    'tessera invitation list --org S [--kind user|member] [--state pending|accepted|expired]',
  ],
  ['invitation revoke', 'tessera invitation revoke --org S --id inv_…'],
  ['keys rotate', 'tessera keys rotate --org S'],
  [
    'connection create',
    'tessera connection create --org S --type oidc|saml --name N [--domain D]... [--jit | --no-jit] [--jit-any-domain | --no-jit-any-domain] [--default-role ROLE_ID]... [--issuer URL --client-id C [--scope SCOPE]... [--hosted-domain D] [--allowed-endpoint-host HOST]... [--accept-id-jag | --no-accept-id-jag]] [--metadata-file FILE | --entity-id E --sso-url URL --certificate-file FILE]',
  ],
  ['connection list', 'tessera connection list --org S'],
  ['connection show', 'tessera connection show --org S --id CON_ID'],
  [
    'connection update',
    'tessera connection update --org S --id CON_ID [--name N] [--domain D]... [--jit | --no-jit] [--jit-any-domain | --no-jit-any-domain] [--default-role ROLE_ID]... [--issuer URL] [--client-id C] [--new-client-secret] [--scope SCOPE]... [--hosted-domain D] [--allowed-endpoint-host HOST]... [--accept-id-jag | --no-accept-id-jag] [--metadata-file FILE | [--entity-id E] [--sso-url URL] [--certificate-file FILE]]',
  ],
  ['connection delete', 'tessera connection delete --org S --id CON_ID'],
  ['directory create', 'tessera directory create --org S --name N [--connection CON_ID]'],
  ['directory list', 'tessera directory list --org S'],
  ['directory rotate-token', 'tessera directory rotate-token --org S --id DIR_ID'],
  ['directory delete', 'tessera directory delete --org S --id DIR_ID'],
  [
    'log-stream create',
    'tessera log-stream create --org S --type https|splunk_hec|datadog --name N [--url URL] [--backfill-from TIME] [--index I] [--source S] [--sourcetype T] [--service S] [--ddsource S] [--ddtags TAGS] [--gzip]',
  ],
  ['log-stream list', 'tessera log-stream list --org S'],
  ['log-stream show', 'tessera log-stream show --org S --id LST_ID'],
  [
    'log-stream update',
    'tessera log-stream update --org S --id LST_ID [--name N] [--url URL] [--pause | --resume] [--new-secret] [--index I] [--source S] [--sourcetype T] [--service S] [--ddsource S] [--ddtags TAGS] [--gzip | --no-gzip]',
  ],
  ['log-stream delete', 'tessera log-stream delete --org S --id LST_ID'],
  ['trusted-app list', 'tessera trusted-app list --org S'],
  [
    'trusted-app create',
    'tessera trusted-app create --org S --name N --audience ISSUER --target-client-id C --client CLIENT_ID... [--resource URI]... [--scope SCOPE]...',
  ],
  ['trusted-app show', 'tessera trusted-app show --org S --id TAP_ID'],
  [
    'trusted-app update',
    'tessera trusted-app update --org S --id TAP_ID [--name N] [--audience ISSUER] [--target-client-id C] [--client CLIENT_ID]... [--resource URI]... [--scope SCOPE]...',
  ],
  ['trusted-app delete', 'tessera trusted-app delete --org S --id TAP_ID'],
  ['domain add', 'tessera domain add --org S --name HOST'],
  ['domain list', 'tessera domain list --org S'],
  ['domain verify', 'tessera domain verify --org S --id DOM_ID'],
  ['domain primary', 'tessera domain primary --org S --id DOM_ID [--on | --off]'],
  ['domain delete', 'tessera domain delete --org S --id DOM_ID'],
];

describe('tessera --help, --version and usage errors', () => {
  let root: string;
  let dataDir: string;
  let env: Record<string, string>;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'tessera-help-'));
    dataDir = join(root, 'data');
    // No TESSERA_SECRET: a command that went ahead would generate one into the data dir.
    env = { TESSERA_DATA_DIR: dataDir, TESSERA_URL: 'http://localhost:4000', TESSERA_SECRET: '' };
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const run = async (args: string[]): Promise<CliResult> => {
    const res = await tessera(args, env);
    assert.equal(existsSync(dataDir), false, `tessera ${args.join(' ')} created the data dir`);
    return res;
  };
  const usageError = async (args: string[], error: string, usage: string) => {
    const res = await run(args);
    assert.equal(res.code, 2, `exit code of tessera ${args.join(' ')}`);
    assert.equal(res.stdout, '');
    assert.ok(
      res.stderr.startsWith(`error: ${error}\n\nusage: ${usage}\n`),
      `tessera ${args.join(' ')} wrote:\n${res.stderr}`,
    );
  };

  test('tessera --help, -h and help list every command with its usage line', async () => {
    const answers = await Promise.all([run(['--help']), run(['-h']), run(['help'])]);
    for (const res of answers) {
      assert.equal(res.code, 0);
      assert.equal(res.stderr, '');
      assert.ok(res.stdout.startsWith('usage: tessera <command> [flags]\n'));
      for (const [, line] of COMMANDS) assert.ok(res.stdout.includes(`\n  ${line}\n`), `lists ${line}`);
      assert.equal(res.stdout, answers[0]?.stdout);
    }
  });

  test('tessera <command> --help prints that command usage on stdout', async () => {
    await Promise.all(
      COMMANDS.map(async ([name, line]) => {
        const res = await run([...name.split(' '), '--help']);
        assert.equal(res.code, 0, `tessera ${name} --help: ${res.stderr}`);
        assert.equal(res.stderr, '');
        assert.ok(res.stdout.startsWith(`usage: ${line}\n\n`), `tessera ${name} --help:\n${res.stdout}`);
      }),
    );
    // --help wins over the other flags, right or wrong; -h and `tessera help <command>` say the same.
    const plain = await run(['org', 'create', '--help']);
    assert.ok(plain.stdout.includes('Prints {"id","slug","name","issuer","owner":{"id","email"}}.'));
    for (const args of [
      ['org', 'create', '--slug', 'acme', '-h'],
      ['org', 'create', '--no-such-flag', '--help'],
      ['help', 'org', 'create'],
    ]) {
      const res = await run(args);
      assert.equal(res.code, 0);
      assert.equal(res.stdout, plain.stdout, `tessera ${args.join(' ')}`);
    }
  });

  test('tessera <group> --help lists the commands of that group', async () => {
    const groups = [...new Set(COMMANDS.filter(([n]) => n.includes(' ')).map(([n]) => n.split(' ')[0]))];
    assert.deepEqual(groups, [
      'org',
      'user',
      'client',
      'resource',
      'role',
      'member',
      'service-account',
      'invitation',
      'keys',
      'connection',
      'directory',
      'log-stream',
      'trusted-app',
      'domain',
    ]);
    await Promise.all(
      groups.map(async (group) => {
        const res = await run([group as string, '--help']);
        assert.equal(res.code, 0, `tessera ${group} --help: ${res.stderr}`);
        assert.equal(res.stderr, '');
        const lines = COMMANDS.filter(([n]) => n.startsWith(`${group} `)).map(([, line]) => line);
        assert.ok(res.stdout.startsWith(`usage: tessera ${group} <command> [flags]\n\n`), res.stdout);
        for (const line of lines) assert.ok(res.stdout.includes(`\n  ${line}\n`), `${group} lists ${line}`);
        // Only that group's commands.
        assert.equal(res.stdout.match(/^ {2}tessera /gm)?.length, lines.length, res.stdout);
        assert.ok(res.stdout.endsWith(`\`tessera ${group} <command> --help\` describes one command.\n`));
      }),
    );
    const plain = await run(['org', '--help']);
    assert.ok(plain.stdout.includes('\n      create an organization and its owner\n'));
    for (const args of [
      ['org', '-h'],
      ['help', 'org'],
      ['--help', 'org'],
    ]) {
      const res = await run(args);
      assert.equal(res.code, 0);
      assert.equal(res.stdout, plain.stdout, `tessera ${args.join(' ')}`);
    }
    // The global list names the groups.
    const global = await run(['--help']);
    assert.ok(
      global.stdout.includes(
        'a group (org, user, client, resource, role, member, service-account, invitation, keys, connection, directory, log-stream, trusted-app, domain)',
      ),
      global.stdout,
    );
  });

  test('a group without a command: the group usage on stderr, exit 2', async () => {
    const help = await run(['org', '--help']);
    for (const args of [['org'], ['org', '--slug', 'acme']]) {
      const res = await run(args);
      assert.equal(res.code, 2, `tessera ${args.join(' ')}`);
      assert.equal(res.stdout, '');
      assert.equal(res.stderr, `error: org needs a command\n\n${help.stdout}`);
    }
  });

  test('an unknown flag on any command: its usage on stderr, exit 2', async () => {
    await Promise.all(
      COMMANDS.map(([name, line]) =>
        usageError([...name.split(' '), '--no-such-flag'], 'unknown flag --no-such-flag', line),
      ),
    );
  });

  test('missing or bad flags are usage errors too, found before anything is opened', async () => {
    const line = (name: string) => COMMANDS.find(([n]) => n === name)?.[1] as string;
    await Promise.all([
      usageError(['org', 'create', '--owner-email', 'a@b.test'], '--slug is required', line('org create')),
      usageError(['keys', 'rotate', '--org'], '--org needs a value', line('keys rotate')),
      usageError(['keys', 'rotate', '--org', 'a', '--org', 'b'], '--org is given twice', line('keys rotate')),
      usageError(['keys', 'rotate', '--org', 'a', 'now'], 'unexpected argument: now', line('keys rotate')),
      usageError(
        ['client', 'create', '--org', 'a', '--name', 'n', '--public=yes'],
        '--public takes no value',
        line('client create'),
      ),
      usageError(
        ['client', 'create', '--org', 'a', '--name', 'n'],
        'give exactly one of --confidential or --public',
        line('client create'),
      ),
      usageError(
        ['member', 'add', '--org', 'a', '--email', 'e@x.test', '--role', 'admin'],
        '--role must be owner or member',
        line('member add'),
      ),
      usageError(
        ['org', 'update', '--org', 'a', '--require-mfa', 'maybe'],
        '--require-mfa must be true or false',
        line('org update'),
      ),
      usageError(
        ['serve', '--port', 'eighty'],
        '--port must be a whole number from 0 to 65535',
        line('serve'),
      ),
      usageError(
        ['worker', '--concurrency', '0'],
        '--concurrency must be a whole number from 1 to 1000',
        line('worker'),
      ),
      usageError(['migrate', 'now'], 'unexpected argument: now', line('migrate')),
      usageError(
        [
          'resource',
          'create',
          '--org',
          'a',
          '--identifier',
          'https://x.example',
          '--name',
          'X',
          '--scope',
          'read',
        ],
        '--scope must be NAME=DESCRIPTION: read',
        line('resource create'),
      ),
      usageError(
        ['role', 'create', '--org', 'a', '--name', 'r', '--permission', 'https://x.example'],
        '--permission must be IDENTIFIER#SCOPE: https://x.example',
        line('role create'),
      ),
      usageError(['user', 'roles', '--org', 'a'], '--user is required', line('user roles')),
      usageError(
        ['log-stream', 'create', '--org', 'a', '--type', 'kafka', '--name', 'k'],
        '--type must be https, splunk_hec or datadog',
        line('log-stream create'),
      ),
      usageError(
        ['log-stream', 'update', '--org', 'a', '--id', 'lst_x', '--pause', '--resume'],
        'give one of --pause or --resume',
        line('log-stream update'),
      ),
      usageError(
        ['log-stream', 'update', '--org', 'a', '--id', 'lst_x'],
        'give at least one change',
        line('log-stream update'),
      ),
    ]);
  });

  test('no command: the usage of every command on stderr, exit 2', async () => {
    await usageError([], 'a command is required', 'tessera <command> [flags]');
  });

  test('an unknown command: one line naming it, the command a typo was meant to be, then only the names, exit 2', async () => {
    const names = [
      'commands: serve, migrate, worker, backup, org create, org update, user create, client create,',
      '  resource list, resource create, resource show, resource update, resource delete, role list,',
      '  role create, role show, role update, role delete, user roles, client permissions, member add,',
      '  service-account create, service-account list, service-account rotate-secret,',
      '  service-account delete, invitation create, invitation list, invitation revoke, keys rotate,',
      '  connection create, connection list, connection show, connection update, connection delete,',
      '  directory create, directory list, directory rotate-token, directory delete, log-stream create,',
      '  log-stream list, log-stream show, log-stream update, log-stream delete, trusted-app list,',
      '  trusted-app create, trusted-app show, trusted-app update, trusted-app delete, domain add,',
      '  domain list, domain verify, domain primary, domain delete',
      '`tessera --help` shows how to call each; `tessera <command> --help` describes one.',
      '',
    ].join('\n');
    // The list names every command, each once.
    assert.deepEqual(
      names
        .slice('commands:'.length, names.indexOf('\n`'))
        .split(',')
        .map((n) => n.trim()),
      COMMANDS.map(([name]) => name),
    );
    for (const [args, error] of [
      [['org', 'creat', '--slug', 'globex'], 'unknown command: org creat; did you mean `org create`?'],
      [['serv'], 'unknown command: serv; did you mean `serve`?'],
      [['resource', 'lsit'], 'unknown command: resource lsit; did you mean `resource list`?'],
      [['help', 'org', 'craete'], 'unknown command: org craete; did you mean `org create`?'],
      [['org', 'destroy'], 'unknown command: org destroy'],
      [['frobnicate', '--now'], 'unknown command: frobnicate'],
      [['help', 'frobnicate'], 'unknown command: frobnicate'],
    ] as [string[], string][]) {
      const res = await run(args);
      assert.equal(res.code, 2, `exit code of tessera ${args.join(' ')}`);
      assert.equal(res.stdout, '');
      assert.equal(res.stderr, `error: ${error}\n${names}`);
    }
  });

  test('in a process of its own, the binary answers help, version and usage errors as the session does', async () => {
    // The other tests run most commands in the test's CLI session (the binary's code, one process).
    for (const args of [
      ['--help'],
      ['org', '--help'],
      ['org', 'create', '--help'],
      ['--version'],
      [],
      ['org'],
      ['org', 'create', '--owner-email', 'a@b.test'],
      ['org', 'creat', '--slug', 'globex'],
    ]) {
      const own = await tesseraProcess(args, env);
      assert.equal(existsSync(dataDir), false, `tessera ${args.join(' ')} created the data dir`);
      assert.deepEqual(own, await run(args), `tessera ${args.join(' ')}`);
    }
  });

  test('tessera --version and -v print the server package version', async () => {
    for (const flag of ['--version', '-v']) {
      const res = await run([flag]);
      assert.equal(res.code, 0);
      assert.equal(res.stderr, '');
      assert.equal(res.stdout, `${VERSION}\n`);
    }
  });
});
