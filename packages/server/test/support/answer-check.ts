import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../src/config/config.js';
import { OPERATIONS } from '../../src/http/declarations.js';
import { buildDocument, openApiPath } from '../../src/http/openapi/build-document.js';
import type { Json } from '../../src/http/openapi/components.js';
import type { Operation } from '../../src/http/openapi/operation.js';

// ajv-formats is CommonJS: its function is the module itself under ESM, `.default` under TypeScript's view.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => void;

/** The error body a checked answer is replaced with, so the call that got it fails where it is made. */
export const MISMATCH_ERROR = 'answer_not_as_declared';

/** One answer that did not match its operation's declaration. */
export interface Mismatch {
  operationId: string;
  method: string;
  path: string;
  status: number;
  problem: string;
}

export const describeMismatch = (m: Mismatch) =>
  `${m.operationId} (${m.method} ${m.path}) answered ${m.status}: ${m.problem}`;

const DOCUMENT_ID = 'tessera-openapi.json';

const escapePointer = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Checks answers against the declarations they were made under: the response schema of the answer's
 * status, as the OpenAPI document the server serves (and the console's types are generated from)
 * states it, validated with Ajv (JSON Schema 2020-12, formats such as `date-time` included).
 */
export class AnswerChecker {
  readonly #ajv: Ajv2020;
  readonly #document: Json;
  readonly #operations: Map<string, Operation>;
  readonly #validators: Map<string, ValidateFunction>;
  /** Every mismatch seen, in order. */
  readonly mismatches: Mismatch[] = [];
  /** The operations an answer was checked for (operationId → answers checked). */
  readonly checked = new Map<string, number>();

  constructor(config: Config, operations: readonly Operation[] = OPERATIONS) {
    const shared = compiledFor(config, operations);
    this.#document = shared.document;
    this.#ajv = shared.ajv;
    this.#operations = shared.operations;
    this.#validators = shared.validators;
  }

  /** The operation a route (method, fastify path) was registered from, if any. */
  operationOf(method: string, routePath: string): Operation | undefined {
    return this.#operations.get(`${method} ${routePath}`);
  }

  /**
   * What is wrong with `payload` (the body as sent) as the answer `status` of `op` with `contentType`,
   * or null when it is as declared. A JSON answer needs a declared status whose body is JSON and must
   * match its schema; a declared JSON body must come as JSON.
   */
  problemOf(op: Operation, status: number, contentType: string, payload: string): string | null {
    const declared = this.#responseOf(op, status);
    const isJson = /^application\/([\w.+-]+\+)?json\b/i.test(contentType);
    if (declared === undefined) {
      return isJson
        ? `status ${status} is not declared (declared: ${Object.keys(this.#responsesOf(op)).join(', ')})`
        : null;
    }
    const content = declared.content as Record<string, { schema?: Json }> | undefined;
    const jsonSchema = content?.['application/json']?.schema;
    if (jsonSchema === undefined) {
      // A JSON media type of its own, declared without a schema (SCIM's application/scim+json: RFC
      // 7643 defines its bodies), is as declared when it is the declared type.
      const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
      return isJson && content !== undefined && content[type] === undefined
        ? `declared ${Object.keys(content).join(', ')}, answered ${contentType}`
        : null;
    }
    if (!isJson) {
      const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
      if (payload === '' || (type !== '' && content?.[type] !== undefined)) return null;
      return `declared ${Object.keys(content ?? {}).join(', ')}, answered ${contentType || 'no content type'}`;
    }
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      return 'the body is not JSON';
    }
    const validate = this.#validator(op, String(status));
    if (validate(body)) return null;
    return (validate.errors ?? [])
      .map((e) => `${e.instancePath || '(body)'} ${e.message ?? 'is invalid'}${paramsOf(e.params)}`)
      .join('; ');
  }

  /** Checks one answer; records and returns the mismatch, if any. */
  check(op: Operation, status: number, contentType: string, payload: string): Mismatch | null {
    this.checked.set(op.operationId, (this.checked.get(op.operationId) ?? 0) + 1);
    const problem = this.problemOf(op, status, contentType, payload);
    if (problem === null) return null;
    const mismatch = {
      operationId: op.operationId,
      method: op.method.toUpperCase(),
      path: op.path,
      status,
      problem,
    };
    this.mismatches.push(mismatch);
    return mismatch;
  }

  #responsesOf(op: Operation): Record<string, Json> {
    const paths = this.#document.paths as Record<string, Record<string, { responses: Record<string, Json> }>>;
    return paths[openApiPath(op.path)]?.[op.method]?.responses ?? {};
  }

  #responseOf(op: Operation, status: number): Json | undefined {
    const responses = this.#responsesOf(op);
    return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
  }

  #validator(op: Operation, status: string): ValidateFunction {
    const key = `${op.method} ${op.path} ${status}`;
    let validate = this.#validators.get(key);
    if (validate === undefined) {
      const pointer = [
        'paths',
        openApiPath(op.path),
        op.method,
        'responses',
        status,
        'content',
        'application/json',
        'schema',
      ]
        .map(escapePointer)
        .join('/');
      validate = this.#ajv.compile({ $ref: `${DOCUMENT_ID}#/${pointer}` });
      this.#validators.set(key, validate);
    }
    return validate;
  }
}

interface Compiled {
  document: Json;
  ajv: Ajv2020;
  operations: Map<string, Operation>;
  validators: Map<string, ValidateFunction>;
}

/**
 * The document and its compiled validators, once per process and set of operations: every suite
 * checks its answers, and building the document and compiling its schemas is most of what a check
 * costs. The configuration changes only the document's `servers`, which no schema refers to.
 */
const compiled = new WeakMap<readonly Operation[], Compiled>();

function compiledFor(config: Config, operations: readonly Operation[]): Compiled {
  let found = compiled.get(operations);
  if (found === undefined) {
    const document = buildDocument(config, '0.0.0', operations);
    // Not strict: the document carries OpenAPI's own words (paths, servers) around its schemas.
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(document, DOCUMENT_ID);
    const byRoute = new Map<string, Operation>();
    for (const op of operations) byRoute.set(`${op.method.toUpperCase()} ${op.path}`, op);
    found = { document, ajv, operations: byRoute, validators: new Map() };
    compiled.set(operations, found);
  }
  return found;
}

/** Ajv's parameters worth reading in a message: the property missing or not allowed, the values allowed. */
function paramsOf(params: Record<string, unknown>): string {
  const named = params.missingProperty ?? params.additionalProperty ?? params.allowedValues ?? params.format;
  return named === undefined ? '' : ` (${JSON.stringify(named)})`;
}

/**
 * Checks every answer `app` gives to a declared operation (tests only: the test harness installs it
 * before the app listens). An answer that does not match is replaced with a 500 whose `error_detail`
 * names the operation, the status and the schema's complaint, so the test that made the call fails on
 * it; it is reported (to stderr) as it happens, and kept in `checker.mismatches` for the harness to fail on
 * when the server closes.
 */
export function checkAnswers(
  app: FastifyInstance,
  checker: AnswerChecker,
  report: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): void {
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (request.method === 'HEAD' || request.routeOptions.config?.declared !== true) return payload;
    const op = checker.operationOf(request.method, request.routeOptions.url ?? '');
    if (op === undefined || (typeof payload !== 'string' && payload !== null && payload !== undefined)) {
      return payload;
    }
    const contentType = String(reply.getHeader('content-type') ?? '');
    const mismatch = checker.check(op, reply.statusCode, contentType, payload ?? '');
    if (mismatch === null) return payload;
    const detail = `answer not as declared: ${describeMismatch(mismatch)}`;
    report(detail);
    reply.code(500).header('content-type', 'application/json; charset=utf-8');
    reply.removeHeader('content-length');
    return JSON.stringify({ error: MISMATCH_ERROR, error_detail: detail });
  });
}
