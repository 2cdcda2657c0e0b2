import { fail } from '../errors.js';
import { ENTERPRISE_SCHEMA } from './resource.js';

/** Attributes every answer carries whatever `attributes` or `excludedAttributes` say (RFC 7643 §7 `returned: always`). */
const ALWAYS = new Set(['id', 'schemas']);

/** Most attribute names in `attributes` or `excludedAttributes`. */
const MAX_NAMES = 50;

/** An attribute path as [top-level name, sub-attribute?], an extension's attributes under its URN. */
function split(name: string): [string, string | null] {
  const lower = name.trim().toLowerCase();
  const urn = ENTERPRISE_SCHEMA.toLowerCase();
  if (lower.startsWith(`${urn}:`)) return [urn, lower.slice(urn.length + 1).split('.')[0] ?? null];
  const [top, sub] = lower.split('.');
  return [top ?? '', sub ?? null];
}

/** `schemas` naming the enterprise extension only while its attributes are still there. */
function withoutDroppedExtension(out: Record<string, unknown>): Record<string, unknown> {
  const schemas = out.schemas;
  if (Array.isArray(schemas) && !(ENTERPRISE_SCHEMA in out))
    out.schemas = schemas.filter((s) => s !== ENTERPRISE_SCHEMA);
  return out;
}

/** The comma-separated attribute names of `attributes` or `excludedAttributes` (RFC 7644 §3.4.2.5). */
export function attributeList(text: string | undefined): string[] | null {
  if (text === undefined || text.trim() === '') return null;
  const names = text
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  if (names.length > MAX_NAMES) fail('scim.attributes.invalid', `more than ${MAX_NAMES} attribute names`);
  if (names.some((n) => n.length > 200 || !/^[A-Za-z0-9:._$-]+$/.test(n)))
    fail('scim.attributes.invalid', 'an attribute name is not an attribute path');
  return names;
}

/**
 * The resource with only the attributes asked for (and those always returned), or without the
 * excluded ones (RFC 7644 §3.9). Names are matched in any case.
 */
export function project(
  resource: Record<string, unknown>,
  attributes: string[] | null,
  excluded: string[] | null,
): Record<string, unknown> {
  if (attributes !== null) {
    const wanted = attributes.map(split);
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(resource)) {
      const lower = key.toLowerCase();
      if (ALWAYS.has(lower)) {
        out[key] = value;
        continue;
      }
      const asked = wanted.filter(([top]) => top === lower);
      if (asked.length === 0) continue;
      if (asked.some(([, sub]) => sub === null) || typeof value !== 'object' || value === null) {
        out[key] = value;
        continue;
      }
      const subs = new Set(asked.map(([, sub]) => sub));
      const pick = (v: Record<string, unknown>) =>
        Object.fromEntries(Object.entries(v).filter(([k]) => subs.has(k.toLowerCase())));
      out[key] = Array.isArray(value)
        ? value.map((v) => pick(v as Record<string, unknown>))
        : pick(value as Record<string, unknown>);
    }
    return withoutDroppedExtension(out);
  }
  if (excluded !== null) {
    const dropped = excluded.map(split);
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(resource)) {
      const lower = key.toLowerCase();
      const drop = dropped.filter(([top]) => top === lower);
      if (ALWAYS.has(lower) || drop.length === 0) out[key] = value;
      else if (drop.every(([, sub]) => sub !== null) && typeof value === 'object' && value !== null) {
        const subs = new Set(drop.map(([, sub]) => sub));
        const omit = (v: Record<string, unknown>) =>
          Object.fromEntries(Object.entries(v).filter(([k]) => !subs.has(k.toLowerCase())));
        out[key] = Array.isArray(value)
          ? value.map((v) => omit(v as Record<string, unknown>))
          : omit(value as Record<string, unknown>);
      }
    }
    return withoutDroppedExtension(out);
  }
  return resource;
}
