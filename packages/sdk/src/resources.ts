import { record, text } from './checks.js';
import { type DpopContext, sendCall } from './dpop-send.js';
import type { Call, Target } from './http.js';
import {
  type Organization,
  type ProfileSession,
  parseOrganization,
  parseProfileSession,
  parseTenant,
  parseTenants,
  parseUser,
  type Tenant,
  type User,
} from './records.js';
import { expectJson, expectSuccess } from './responses.js';

/**
 * `tenants.update` input: the fields to change; `logo: null` removes the logo.
 *
 * @example
 * ```ts
 * const changes: TenantChanges = { name: 'Acme Europe' };
 * ```
 */
export interface TenantChanges {
  name?: string;
  logo?: string | null;
}

/**
 * The bearer-authenticated API calls. Each takes the access token to send; user tokens address the
 * org of the SDK's `api` (or `hostOverride`), and `organizations.get` takes a console token.
 *
 * @example
 * ```ts
 * const [me, tenants] = await Promise.all([sdk.users.me(token), sdk.tenants.list(token)]);
 * ```
 */
export interface Resources {
  users: {
    /** `GET /users/me`: the signed-in user. */
    me(token: string): Promise<User>;
  };
  tenants: {
    /** `GET /tenants`: the tenants the user belongs to, with their role in each. */
    list(token: string): Promise<Tenant[]>;
    /** `POST /tenants`: a new tenant owned by the user. */
    create(token: string, name: string): Promise<Tenant>;
    /** `PATCH /tenants/{id}`: renames it or changes its logo. */
    update(token: string, id: string, changes: TenantChanges): Promise<Tenant>;
    /** `DELETE /tenants/{id}`. */
    delete(token: string, id: string): Promise<void>;
  };
  organizations: {
    /** `GET /organizations/{slug}` with a console token; `null` when the user is not a member (404). */
    get(token: string, slug: string): Promise<Organization | null>;
  };
  profile: {
    /** `POST /profile/session`: a short-lived key that opens the hosted profile page. */
    session(token: string): Promise<ProfileSession>;
  };
}

/** Path segments are caller input; encoding keeps an id like `../x` from addressing another route. */
const segment = (value: string) => encodeURIComponent(value);

function changesOf(where: string, value: unknown): TenantChanges {
  const input = record(where, 'changes', value);
  const changes: TenantChanges = {};
  if (input.name !== undefined) changes.name = text(where, 'changes.name', input.name);
  if (input.logo !== undefined) {
    if (input.logo !== null && typeof input.logo !== 'string') {
      throw new TypeError(`${where}: "changes.logo" must be a string or null`);
    }
    changes.logo = input.logo;
  }
  return changes;
}

/**
 * The API calls against one target. With `dpop`, a DPoP-bound token goes as `Authorization: DPoP`
 * with a proof (`ath` its hash); any other token as Bearer.
 *
 * @example
 * ```ts
 * const { users, tenants } = resources({ api: 'https://acme.auth.example.com', hostOverride: undefined });
 * ```
 */
export function resources(target: Target, dpop?: DpopContext): Resources {
  function bearerCall(where: string, token: unknown, call: Omit<Call, 'bearer' | 'secrets'>): Call {
    const bearer = text(where, 'token', token);
    return { ...call, bearer, secrets: [bearer] };
  }
  async function json<T>(call: Call, parse: (json: unknown) => T | null, what: string): Promise<T> {
    return expectJson(call, await sendCall(target, call, dpop), parse, what);
  }

  return Object.freeze({
    users: Object.freeze({
      async me(token: string) {
        const call = bearerCall('users.me', token, { method: 'GET', path: '/users/me' });
        return json(call, parseUser, 'a user');
      },
    }),
    tenants: Object.freeze({
      async list(token: string) {
        const call = bearerCall('tenants.list', token, { method: 'GET', path: '/tenants' });
        return json(call, parseTenants, 'a list of tenants');
      },
      async create(token: string, name: string) {
        const body = { name: text('tenants.create', 'name', name) };
        const call = bearerCall('tenants.create', token, { method: 'POST', path: '/tenants', json: body });
        return json(call, parseTenant, 'a tenant');
      },
      async update(token: string, id: string, changes: TenantChanges) {
        const path = `/tenants/${segment(text('tenants.update', 'id', id))}`;
        const body = changesOf('tenants.update', changes);
        const call = bearerCall('tenants.update', token, { method: 'PATCH', path, json: body });
        return json(call, parseTenant, 'a tenant');
      },
      async delete(token: string, id: string) {
        const path = `/tenants/${segment(text('tenants.delete', 'id', id))}`;
        const call = bearerCall('tenants.delete', token, { method: 'DELETE', path });
        await expectSuccess(call, await sendCall(target, call, dpop));
      },
    }),
    organizations: Object.freeze({
      async get(token: string, slug: string) {
        const path = `/organizations/${segment(text('organizations.get', 'slug', slug))}`;
        const call = bearerCall('organizations.get', token, { method: 'GET', path });
        const response = await sendCall(target, call, dpop);
        // The server answers 404 both for an unknown org and for one the user is not a member of.
        if (response.status === 404) {
          await response.body?.cancel();
          return null;
        }
        return expectJson(call, response, parseOrganization, 'an organization');
      },
    }),
    profile: Object.freeze({
      async session(token: string) {
        const call = bearerCall('profile.session', token, { method: 'POST', path: '/profile/session' });
        return json(call, parseProfileSession, 'a profile session key');
      },
    }),
  });
}
