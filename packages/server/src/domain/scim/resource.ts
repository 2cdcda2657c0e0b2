import { fail } from '../errors.js';

/** RFC 7643's schema URNs. */
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ENTERPRISE_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** Longest string kept in any attribute. */
const MAX_STRING = 1024;
/** Most values of a multi-valued attribute (emails, phone numbers, addresses). */
const MAX_VALUES = 20;

export type Kind = 'string' | 'boolean' | { sub: Record<string, Kind> } | { multi: Record<string, Kind> };

const MULTI_SUB: Record<string, Kind> = {
  value: 'string',
  display: 'string',
  type: 'string',
  primary: 'boolean',
};

/** The User attributes a directory keeps (RFC 7643 §4.1), by their canonical names. */
export const USER_ATTRIBUTES: Record<string, Kind> = {
  userName: 'string',
  externalId: 'string',
  name: {
    sub: {
      formatted: 'string',
      familyName: 'string',
      givenName: 'string',
      middleName: 'string',
      honorificPrefix: 'string',
      honorificSuffix: 'string',
    },
  },
  displayName: 'string',
  nickName: 'string',
  profileUrl: 'string',
  title: 'string',
  userType: 'string',
  preferredLanguage: 'string',
  locale: 'string',
  timezone: 'string',
  active: 'boolean',
  emails: { multi: MULTI_SUB },
  phoneNumbers: { multi: MULTI_SUB },
  addresses: {
    multi: {
      formatted: 'string',
      streetAddress: 'string',
      locality: 'string',
      region: 'string',
      postalCode: 'string',
      country: 'string',
      type: 'string',
      primary: 'boolean',
    },
  },
};

/** The enterprise extension (RFC 7643 §4.3). */
export const ENTERPRISE_ATTRIBUTES: Record<string, Kind> = {
  employeeNumber: 'string',
  costCenter: 'string',
  organization: 'string',
  division: 'string',
  department: 'string',
  manager: { sub: { value: 'string', displayName: 'string' } },
};

/** Attributes a client may send that are not kept: read-only, write-only or not stored. */
const IGNORED = new Set([
  'schemas',
  'id',
  'meta',
  'password',
  'groups',
  'roles',
  'entitlements',
  'ims',
  'photos',
  'x509certificates',
]);

const invalid = (detail: string): never => fail('scim.value.invalid', detail);

/** A boolean as Entra sends it too: `"True"` / `"False"` in any case. */
function booleanOf(value: unknown, path: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  return invalid(`${path} must be a boolean`);
}

function checkedValue(kind: Kind, value: unknown, path: string): unknown {
  if (value === null) return undefined;
  if (kind === 'string') {
    if (typeof value !== 'string') return invalid(`${path} must be a string`);
    if (value.length > MAX_STRING) return invalid(`${path} is longer than ${MAX_STRING} characters`);
    return value;
  }
  if (kind === 'boolean') return booleanOf(value, path);
  if ('sub' in kind) {
    // Entra adds a manager as the manager's id alone ("Update User [Add Manager]").
    if (typeof value === 'string' && 'value' in kind.sub) return checkedValue(kind, { value }, path);
    if (typeof value !== 'object' || Array.isArray(value)) return invalid(`${path} must be an object`);
    const out = attributesOf(kind.sub, value as Record<string, unknown>, path, new Set());
    return Object.keys(out).length === 0 ? undefined : out;
  }
  if (!Array.isArray(value)) return invalid(`${path} must be an array`);
  if (value.length > MAX_VALUES) return invalid(`${path} holds more than ${MAX_VALUES} values`);
  const values = value
    .map((v, i) => {
      if (typeof v !== 'object' || v === null || Array.isArray(v))
        return invalid(`${path}[${i}] must be an object`);
      return attributesOf(kind.multi, v as Record<string, unknown>, `${path}[${i}]`, new Set());
    })
    .filter((v) => Object.keys(v).length > 0);
  if (values.filter((v) => v.primary === true).length > 1)
    return invalid(`${path} has more than one primary value`);
  return values.length === 0 ? undefined : values;
}

/** The known attributes of `input` under their canonical names (SCIM names are case-insensitive). */
function attributesOf(
  kinds: Record<string, Kind>,
  input: Record<string, unknown>,
  path: string,
  ignored: ReadonlySet<string>,
): Record<string, unknown> {
  const canonical = new Map(Object.keys(kinds).map((k) => [k.toLowerCase(), k]));
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(input)) {
    const name = canonical.get(key.toLowerCase());
    if (name === undefined) {
      if (ignored.has(key.toLowerCase())) continue;
      continue; // RFC 7644 §3.3: attributes the service provider does not keep are ignored
    }
    const value = checkedValue(kinds[name] as Kind, raw, path ? `${path}.${name}` : name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/**
 * The User resource a directory keeps from what a client sent (POST, PUT, or a PATCH's result):
 * the known core attributes and the enterprise extension under their canonical names, checked;
 * `id`, `meta`, `schemas`, `password` and `groups` dropped. `userName` is required.
 */
export function userResourceOf(input: unknown): Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return fail('scim.body.invalid', 'the body must be a JSON object');
  const body = input as Record<string, unknown>;
  const resource = attributesOf(USER_ATTRIBUTES, body, '', IGNORED);
  const extensionKey = Object.keys(body).find((k) => k.toLowerCase() === ENTERPRISE_SCHEMA.toLowerCase());
  if (extensionKey !== undefined && body[extensionKey] !== null) {
    const extension = body[extensionKey];
    if (typeof extension !== 'object' || Array.isArray(extension))
      invalid(`${ENTERPRISE_SCHEMA} must be an object`);
    const kept = attributesOf(
      ENTERPRISE_ATTRIBUTES,
      extension as Record<string, unknown>,
      'enterprise',
      IGNORED,
    );
    if (Object.keys(kept).length > 0) resource[ENTERPRISE_SCHEMA] = kept;
  }
  if (typeof resource.userName !== 'string' || resource.userName.trim() === '')
    return invalid('userName is required');
  resource.userName = resource.userName.trim();
  return resource;
}

/**
 * The address of the user a resource describes: the primary email, else the first, else the
 * userName when it is an address (Okta's and Entra's userName usually is).
 */
export function addressOf(resource: Record<string, unknown>): string {
  const emails = (resource.emails as { value?: string; primary?: boolean }[] | undefined) ?? [];
  const chosen = emails.find((e) => e.primary === true && e.value) ?? emails.find((e) => e.value);
  const address = chosen?.value ?? (resource.userName as string);
  if (!address.includes('@')) invalid('the user has no email address: emails or an address as userName');
  return address;
}
