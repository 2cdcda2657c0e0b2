import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import ts from 'typescript';
import { DOC, errorCodesTable, withTable } from '../../../../scripts/errors-doc.mjs';
import { ERROR_CODES, type ErrorSituation, isErrorSituation, ServiceError } from '../../src/domain/errors.js';

/**
 * The list of situation codes (domain/error-codes.ts) against the sources: every place that refuses
 * names a listed code, every listed code is named by some place, and docs/errors.md shows the list as
 * it is. The compiler already refuses an unlisted literal; this also finds a listed code nobody uses
 * any more and a code written where the types do not reach (a `situation` field built loosely).
 */
const SRC = new URL('../../src/', import.meta.url).pathname;
const LIST = join(SRC, 'domain/error-codes.ts');
const CODE_SHAPE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*){1,3}$/;

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (name.endsWith('.ts') && path !== LIST) out.push(path);
  }
  return out;
}

/** Where a call names its situation: the argument's index, by the callee's name. */
const SITUATION_ARGUMENT: Record<string, number> = {
  fail: 0,
  failApi: 0,
  ServiceError: 0,
  RateLimitedError: 0,
  inputError: 2,
  sendErrorPage: 4,
  invalidRequest: 0,
  FederationRefused: 0,
  refused: 0,
  refuseUndecided: 1,
};

type Site = { at: string; code: string | null };

/**
 * Every place a situation is named: the calls above, `situation` fields and variables, the answers of a
 * function returning one, and tables `satisfies …ErrorSituation>`.
 */
function sitesIn(path: string): Site[] {
  const text = readFileSync(path, 'utf8');
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const sites: Site[] = [];
  const at = (node: ts.Node) =>
    `${relative(SRC, path)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const named = (node: ts.Expression): void => {
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) {
      named(node.expression);
      return;
    }
    if (ts.isConditionalExpression(node)) {
      named(node.whenTrue);
      named(node.whenFalse);
      return;
    }
    sites.push({ at: at(node), code: ts.isStringLiteralLike(node) ? node.text : null });
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && ts.isIdentifier(node.expression)) {
      const name = node.expression.text;
      const first = node.arguments?.[0];
      // `refuse(reply, situation, …)` at the passkey endpoints, `refuse('situation', …)` for a request
      // object or a federated sign-in; client authentication's `refuse(deps, …)` names its situation inside.
      const index = name === 'refuse' ? (first?.getText() === 'reply' ? 1 : 0) : SITUATION_ARGUMENT[name];
      const argument = index === undefined ? undefined : node.arguments?.[index];
      // Other functions are named refuse or refused too: theirs is a situation only when it has the shape.
      const loose = (name === 'refuse' && index === 0) || name === 'refused';
      if (argument && (!loose || (ts.isStringLiteral(argument) && CODE_SHAPE.test(argument.text))))
        named(argument);
    }
    const isSituationName = (n: ts.Node) => ts.isIdentifier(n) && n.text === 'situation';
    if (ts.isPropertyAssignment(node) && node.name.getText() === 'situation') named(node.initializer);
    if (ts.isVariableDeclaration(node) && isSituationName(node.name) && node.initializer)
      named(node.initializer);
    // A function declared to return a situation: each of its answers names one.
    if (ts.isFunctionDeclaration(node) && node.type?.getText() === 'ErrorSituation' && node.body) {
      const answers = (n: ts.Node): void => {
        if (ts.isReturnStatement(n) && n.expression) named(n.expression);
        else if (!ts.isFunctionLike(n)) ts.forEachChild(n, answers);
      };
      ts.forEachChild(node.body, answers);
    }
    if (ts.isSatisfiesExpression(node) && node.type.getText().includes('ErrorSituation')) {
      const table = ts.isAsExpression(node.expression) ? node.expression.expression : node.expression;
      if (ts.isObjectLiteralExpression(table)) {
        for (const p of table.properties) if (ts.isPropertyAssignment(p)) named(p.initializer);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return sites;
}

const sites = sources(SRC).flatMap(sitesIn);
const listed = Object.keys(ERROR_CODES) as ErrorSituation[];

describe('error situation codes', () => {
  test('each code has the documented shape, a protocol error the renderer knows and a meaning of its own', () => {
    const meanings = new Set<string>();
    for (const code of listed) {
      assert.match(code, CODE_SHAPE, code);
      const error = new ServiceError(code);
      assert.equal(error.code, ERROR_CODES[code].error, code);
      assert.equal(typeof error.status, 'number', code);
      assert.ok(!meanings.has(ERROR_CODES[code].means), `${code}: its meaning is another code's`);
      meanings.add(ERROR_CODES[code].means);
    }
    assert.equal(isErrorSituation('token.refresh.reused'), true);
    assert.equal(isErrorSituation('invalid_grant'), false);
    assert.equal(isErrorSituation('toString'), false);
  });

  test('every site names a listed code, and every listed code is named by a site', (t) => {
    const literal = sites.filter((s) => s.code !== null);
    const unlisted = literal.filter((s) => !isErrorSituation(s.code)).map((s) => `${s.at} ${s.code}`);
    assert.deepEqual(unlisted, []);
    const used = new Set(literal.map((s) => s.code));
    assert.deepEqual(
      listed.filter((code) => !used.has(code)),
      [],
      'listed codes that no site names',
    );
    // The rest hand on a situation a value already carries (`error.situation`, a table's entry).
    t.diagnostic(
      `${sites.length} sites (${literal.length} name their code literally), ${listed.length} codes`,
    );
  });

  test('docs/errors.md lists every code as the list says (npm run docs:errors rewrites it)', () => {
    const page = readFileSync(DOC, 'utf8');
    const table = errorCodesTable(ERROR_CODES, (code: ErrorSituation) => new ServiceError(code).status);
    assert.equal(page, withTable(page, table), 'docs/errors.md is out of date: run npm run docs:errors');
  });
});
