import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import ts from 'typescript';

/**
 * One repository per table: every table is read and written, as a statement's own table, by one
 * file of storage/repos/ (a join or a subquery in another repository's statement only reads it
 * alongside, and is allowed). A statement's own table is the one Kysely's selectFrom, insertInto,
 * updateTable or deleteFrom names, and the one a raw SQL write (insert into, update … set, delete
 * from) names. Names that are no table (common table expressions) are left out.
 */
const STORAGE = new URL('../../src/storage/', import.meta.url).pathname;
const STATEMENTS = new Set([
  'selectFrom',
  'insertInto',
  'updateTable',
  'deleteFrom',
  'replaceInto',
  'mergeInto',
]);
/**
 * The helpers that build a table's statements from the table name their caller gives
 * (storage/repos/table-records.ts, storage/repos/keyed-rows.ts): a call names its table as a
 * statement does, for the repository that makes it. The helpers' own statements and their calls of
 * each other, on the table of their parameter, are their callers'.
 */
const TABLE_HELPERS = new Set([
  'insertOf',
  'orgRecordById',
  'orgRecordsOldestFirst',
  'orgClientRowsDeleter',
  'tableOf',
  'recordsOf',
]);
const HELPERS_FILES = new Set(['repos/table-records.ts', 'repos/keyed-rows.ts']);
const RAW_WRITES =
  /\b(?:insert\s+into|delete\s+from)\s+([a-z_][a-z0-9_]*)|\bupdate\s+([a-z_][a-z0-9_]*)\s+set\b/gi;

/**
 * Writes a repository makes alongside its own table, inside one statement that cannot be split
 * without a transaction (a data-modifying CTE), each with its reason; every other write is owned.
 * - The code exchange's one statement (issue #49: one round trip on PostgreSQL) consumes the code and
 *   stores the refresh token of the session it starts.
 * - A sign-in's one statement (issue #49: a whole sign-in in ≤ 10 round trips) owns no table: it
 *   stores, at once, what the browser-session, audit, session-client, OAuth-session and code
 *   repositories store one by one in the transaction it stands in for, and completes the request. Each
 *   of those tables keeps its one owner, and `sign-in/one-statement-sign-in` holds the statement to
 *   the same rows as the transaction.
 */
const ALONGSIDE: Record<string, readonly string[]> = {
  'repos/authorization-codes.ts': ['refresh_tokens'],
  'repos/sign-in-writes.ts': [
    'audit_events',
    'authorization_codes',
    'authorization_requests',
    'browser_sessions',
    'oauth_sessions',
    'session_clients',
  ],
};

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'migrations' ? [] : files(path);
    return path.endsWith('.ts') ? [path] : [];
  });

const parse = (path: string) =>
  ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);

function nodes(root: ts.Node): ts.Node[] {
  const all: ts.Node[] = [];
  const visit = (node: ts.Node) => {
    all.push(node);
    ts.forEachChild(node, visit);
  };
  visit(root);
  return all;
}

/** The tables of the `Database` interface in schema.ts. */
function tableNames(): Set<string> {
  const schema = parse(join(STORAGE, 'schema.ts'));
  const database = nodes(schema).find(
    (n): n is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(n) && n.name.text === 'Database',
  );
  assert.ok(database, 'schema.ts declares the Database interface');
  return new Set(database.members.flatMap((m) => (m.name && ts.isIdentifier(m.name) ? [m.name.text] : [])));
}

/**
 * The names a statement's table argument can take, read from the file alone: a literal (its alias
 * dropped), a list of literals, or a variable whose type or values are such literals (a union type
 * alias, a `for … of` over a literal list). Null when they cannot be told.
 */
function namesOf(expr: ts.Node, file: ts.SourceFile, all: ts.Node[]): string[] | null {
  if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) {
    return [expr.text.split(/\s+as\s+/)[0]?.trim() ?? expr.text];
  }
  if (ts.isAsExpression(expr) || ts.isParenthesizedExpression(expr) || ts.isSatisfiesExpression(expr)) {
    return namesOf(expr.expression, file, all);
  }
  if (ts.isArrayLiteralExpression(expr)) return union(expr.elements.map((e) => namesOf(e, file, all)));
  if (ts.isLiteralTypeNode(expr)) return namesOf(expr.literal, file, all);
  if (ts.isUnionTypeNode(expr)) return union(expr.types.map((t) => namesOf(t, file, all)));
  if (ts.isParenthesizedTypeNode(expr)) return namesOf(expr.type, file, all);
  if (ts.isTypeReferenceNode(expr) && ts.isIdentifier(expr.typeName)) {
    const name = expr.typeName.text;
    const alias = all.find(
      (n): n is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(n) && n.name.text === name,
    );
    return alias ? namesOf(alias.type, file, all) : null;
  }
  if (ts.isIdentifier(expr)) {
    const declarations = all.filter(
      (n): n is ts.VariableDeclaration | ts.ParameterDeclaration =>
        (ts.isVariableDeclaration(n) || ts.isParameter(n)) &&
        ts.isIdentifier(n.name) &&
        n.name.text === expr.text,
    );
    if (declarations.length === 0) return null;
    return union(
      declarations.map((d) => {
        if (d.type) return namesOf(d.type, file, all);
        if (d.initializer) return namesOf(d.initializer, file, all);
        const loop = d.parent.parent;
        return ts.isVariableDeclarationList(d.parent) && ts.isForOfStatement(loop)
          ? namesOf(loop.expression, file, all)
          : null;
      }),
    );
  }
  return null;
}

function union(lists: (string[] | null)[]): string[] | null {
  return lists.some((l) => l === null) ? null : (lists as string[][]).flat();
}

function rawText(template: ts.TemplateLiteral): string {
  if (ts.isNoSubstitutionTemplateLiteral(template)) return template.text;
  return [template.head.text, ...template.templateSpans.map((s) => s.literal.text)].join(' ? ');
}

interface Scan {
  /** table → the files (relative to storage/) naming it as a statement's own table */
  owners: Map<string, Set<string>>;
  /** statements whose table could not be told, as file:line */
  unresolved: string[];
}

/** The tables a file of storage/ names as a statement's own, and its statements whose table cannot be told. */
function tablesNamedIn(name: string, file: ts.SourceFile): { named: string[]; unresolved: string[] } {
  const all = nodes(file);
  const named: string[] = [];
  const unresolved: string[] = [];
  for (const node of all) {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const method = ts.isPropertyAccessExpression(callee)
        ? callee.name.text
        : ts.isIdentifier(callee)
          ? callee.text
          : null;
      if (method === null || !(STATEMENTS.has(method) || TABLE_HELPERS.has(method))) continue;
      const arg = node.arguments[0];
      const names = arg ? namesOf(arg, file, all) : null;
      // In the helpers' files, a statement or helper call on the table their caller named (a parameter).
      if (names === null && HELPERS_FILES.has(name) && arg !== undefined && ts.isIdentifier(arg)) continue;
      if (names === null) {
        const { line } = file.getLineAndCharacterOfPosition(node.getStart());
        unresolved.push(`${name}:${line + 1} ${node.getText().split('\n')[0]}`);
      } else named.push(...names);
    } else if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && node.tag.text === 'sql') {
      for (const match of rawText(node.template).matchAll(RAW_WRITES)) {
        const table = (match[1] ?? match[2] ?? '').toLowerCase();
        if (!ALONGSIDE[name]?.includes(table)) named.push(table);
      }
    }
  }
  return { named, unresolved };
}

function scan(): Scan {
  const tables = tableNames();
  const owners = new Map<string, Set<string>>();
  const unresolved: string[] = [];
  for (const path of files(STORAGE)) {
    const name = relative(STORAGE, path);
    const found = tablesNamedIn(name, parse(path));
    unresolved.push(...found.unresolved);
    for (const table of found.named.filter((t) => tables.has(t))) {
      const set = owners.get(table) ?? new Set<string>();
      set.add(name);
      owners.set(table, set);
    }
  }
  return { owners, unresolved };
}

describe('one repository per table', () => {
  const { owners, unresolved } = scan();

  test('every statement in storage/ names its table so that it can be told from the source', () => {
    assert.deepEqual(unresolved, [], `statements whose table cannot be told:\n${unresolved.join('\n')}`);
  });

  test('the scan sees the repositories it should (literals, aliases, a union type, raw SQL)', () => {
    const owner = (table: string) => [...(owners.get(table) ?? [])];
    assert.deepEqual(owner('users'), ['repos/users.ts']);
    assert.deepEqual(owner('tenant_members'), ['repos/tenant-members.ts']);
    assert.deepEqual(owner('profile_keys'), ['repos/one-time-keys.ts']);
    assert.deepEqual(owner('impersonations'), ['repos/one-time-keys.ts']);
    assert.deepEqual(owner('rate_limit_hits'), ['repos/rate-limits.ts']);
    assert.deepEqual(owner('webhook_delivery_attempts'), ['repos/webhook-deliveries.ts']);
    // The code exchange's one statement writes a refresh token alongside its code: allowed by name.
    assert.deepEqual(owner('refresh_tokens'), ['repos/refresh-tokens.ts']);
    assert.deepEqual(owner('authorization_codes'), ['repos/authorization-codes.ts']);
    assert.ok(owners.size >= 40, `only ${owners.size} tables seen`);
  });

  test('a table named through a helper of table-records.ts or keyed-rows.ts has its one repository too', () => {
    const source = [
      "export const insertPlanted = insertOf('trusted_apps', appColumns);",
      "export const findPlanted = orgRecordById('webhooks', webhookColumns);",
      "export const listPlanted = orgRecordsOldestFirst('roles', roleColumns);",
      "export const deletePlanted = orgClientRowsDeleter('brandings');",
      "const planted = tableOf('consents');",
      "const plantedRecords = recordsOf('passkeys', toPasskey);",
    ].join('\n');
    const planted = ts.createSourceFile('planted.ts', source, ts.ScriptTarget.Latest, true);
    assert.deepEqual(tablesNamedIn('repos/planted.ts', planted), {
      named: ['trusted_apps', 'webhooks', 'roles', 'brandings', 'consents', 'passkeys'],
      unresolved: [],
    });
  });

  test('in the helpers’ own files only a statement on their parameter passes unnamed', () => {
    const source = [
      'export const rows = (table: string) => opened(store).selectFrom(table);',
      "export const planted = (db: Db) => db.selectFrom(['consents', 'roles'][0]);",
    ].join('\n');
    const planted = ts.createSourceFile('keyed-rows.ts', source, ts.ScriptTarget.Latest, true);
    const { unresolved } = tablesNamedIn('repos/keyed-rows.ts', planted);
    assert.deepEqual(unresolved, ["repos/keyed-rows.ts:2 db.selectFrom(['consents', 'roles'][0])"]);
  });

  test('each table is named as a statement’s own table by exactly one repository', () => {
    const shared = [...owners]
      .filter(([, named]) => named.size > 1)
      .map(([table, named]) => `${table}: ${[...named].sort().join(', ')}`);
    assert.deepEqual(shared, [], `tables with more than one repository:\n${shared.join('\n')}`);
  });

  test('no file outside storage/repos/ names a table as a statement’s own', () => {
    const outside = [...owners].flatMap(([table, named]) =>
      [...named].filter((f) => !f.startsWith('repos/')).map((f) => `${table}: ${f}`),
    );
    assert.deepEqual(outside, [], `statements outside storage/repos/:\n${outside.join('\n')}`);
  });
});
