import { z } from 'zod';

export type Json = Record<string, unknown>;

/** A request body is documented as what callers send, a response body as what they get. */
export type Io = 'input' | 'output';

/** A body schema of an operation, and the name it gets when its module is not a schema module. */
export interface BodyUse {
  schema: z.ZodType;
  io: Io;
  fallbackName: string;
}

const REF = '#/components/schemas/';

/** JSON Schema of one zod schema, without `$schema` (the document's dialect is OpenAPI 3.1's). */
export function jsonSchema(schema: z.ZodType, io: Io): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  return stampTimestamps(rest);
}

/**
 * Timestamps are ISO date-times, and every one is named `at` or `…_at`: such a property that is a
 * string (or a nullable string) is documented with `format: date-time`.
 */
function stampTimestamps(schema: unknown): Json {
  visit(schema, (node) => {
    const properties = node.properties as Record<string, Json> | undefined;
    for (const [name, property] of Object.entries(properties ?? {})) {
      if (/^(.+_)?at$/.test(name)) dateTime(property);
    }
  });
  return schema as Json;
}

function dateTime(schema: Json): void {
  if (schema.type === 'string') schema.format ??= 'date-time';
  for (const member of [schema.anyOf ?? [], schema.oneOf ?? []].flat() as Json[]) dateTime(member);
}

/** Calls `f` on every schema object inside `value` (itself included). */
function visit(value: unknown, f: (node: Json) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) visit(item, f);
  } else if (typeof value === 'object' && value !== null) {
    f(value as Json);
    for (const child of Object.values(value)) visit(child, f);
  }
}

/** The component names `schema` refers to. */
function refsOf(schema: unknown): string[] {
  const names: string[] = [];
  visit(schema, (node) => {
    if (typeof node.$ref === 'string' && node.$ref.startsWith(REF)) names.push(node.$ref.slice(REF.length));
  });
  return names;
}

/** The schema names `roots` reach through their `$ref`s, themselves included. */
function reachable(roots: Iterable<string>, schemas: Record<string, Json>): Set<string> {
  const seen = new Set<string>();
  const unvisited = [...roots];
  for (let name = unvisited.pop(); name !== undefined; name = unvisited.pop()) {
    if (seen.has(name)) continue;
    seen.add(name);
    unvisited.push(...refsOf(schemas[name]));
  }
  return seen;
}

/** Every registered schema as JSON Schema for `io`, each named schema inside another as a `$ref`. */
function convert(registry: z.core.$ZodRegistry<{ id: string }>, io: Io): Record<string, Json> {
  const { schemas } = z.toJSONSchema(registry, { io, unrepresentable: 'any', uri: (id) => `${REF}${id}` });
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => {
      const { $schema: _, $id: __, ...rest } = schema as Json;
      return [name, stampTimestamps(rest)];
    }),
  );
}

/**
 * `components.schemas` for the body schemas `uses`: each under its export name (`names`), the
 * named schemas inside them too. A schema callers both send and get whose two forms differ (a
 * default, a transform, extra properties ignored on input) has its input form named `<name>Input`.
 * `refOf` gives the `$ref` of a body schema as sent (`input`) or as answered (`output`).
 */
export function buildComponents(uses: readonly BodyUse[], named: ReadonlyMap<z.ZodType, string>) {
  const names = new Map(named);
  const taken = new Set(names.values());
  for (const use of uses) {
    if (names.has(use.schema)) continue;
    let name = use.fallbackName;
    for (let n = 2; taken.has(name); n++) name = `${use.fallbackName}${n}`;
    taken.add(name);
    names.set(use.schema, name);
  }
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of names) registry.add(schema, { id });

  const output = convert(registry, 'output');
  const input = convert(registry, 'input');
  const nameOf = (schema: z.ZodType) => names.get(schema) as string;
  const sent = reachable(
    uses.filter((u) => u.io === 'input').map((u) => nameOf(u.schema)),
    input,
  );
  const answered = reachable(
    uses.filter((u) => u.io === 'output').map((u) => nameOf(u.schema)),
    output,
  );
  // Both sent and answered: one component when the forms agree, including every name they refer to.
  const both = [...sent].filter((name) => answered.has(name));
  const split = new Set(both.filter((name) => JSON.stringify(input[name]) !== JSON.stringify(output[name])));
  for (let grew = true; grew; ) {
    grew = false;
    for (const name of both) {
      if (!split.has(name) && refsOf(input[name]).some((ref) => split.has(ref))) {
        split.add(name);
        grew = true;
      }
    }
  }
  const inputName = (name: string) => (split.has(name) ? `${name}Input` : name);
  const schemas: Record<string, Json> = {};
  for (const name of answered) schemas[name] = output[name] as Json;
  for (const name of sent) {
    const schema = structuredClone(input[name]) as Json;
    visit(schema, (node) => {
      if (typeof node.$ref === 'string') node.$ref = `${REF}${inputName(node.$ref.slice(REF.length))}`;
    });
    schemas[inputName(name)] = schema;
  }
  const sorted = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : 1)));
  return {
    schemas: sorted,
    refOf: (schema: z.ZodType, io: Io) => {
      const name = nameOf(schema);
      return { $ref: `${REF}${io === 'input' ? inputName(name) : name}` };
    },
  };
}
