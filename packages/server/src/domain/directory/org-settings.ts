import {
  findOrgById,
  lockOrg,
  updateOrgDefaultLocale,
  updateOrgIdTokenAlg,
  updateOrgName,
  updateOrgPushedRequests,
  updateOrgRegistration,
  updateOrgSignUp,
} from '../../storage/repos/orgs.js';
import { findRequireMfa, setRequireMfa } from '../../storage/repos/second-factors.js';
import { recordUpdated } from '../audit/audit.js';
import { orgSnapshot } from '../audit/snapshots.js';
import { clock } from '../clock.js';
import { fail } from '../errors.js';
import { issuerOf } from '../issuers.js';
import {
  addAlgorithmKeys,
  type FreshKey,
  freshKeys,
  NEW_ORG_KEYS,
  retireAlgorithmKeys,
} from '../keys/keys.js';
import type { Actor, Org, SignUpPolicy } from '../types.js';
import type { DirectoryDeps } from './deps.js';
import { checkSignUpPolicy } from './sign-up-policy.js';
import { checkName } from './validate.js';

/** The org's own fields its settings page shows and changes (their meanings: Org, domain/types.ts). */
type OrgSettingFields =
  | 'dynamicRegistration'
  | 'metadataDocuments'
  | 'signUp'
  | 'signUpDomains'
  | 'requirePushedRequests'
  | 'idTokenSigningAlg'
  | 'defaultLocale';

/** What an org's settings page shows and changes. */
export interface OrgSettings extends Pick<Org, 'id' | 'slug' | 'name' | OrgSettingFields> {
  issuer: string;
  requireMfa: boolean;
}

export interface SettingsChange extends Partial<Pick<Org, 'name' | OrgSettingFields>> {
  requireMfa?: boolean;
  /** The sign-up policy; `domains` needs `signUpDomains` given or already stored. */
  signUp?: SignUpPolicy;
}

const settingsOf = (deps: DirectoryDeps, org: Org, requireMfa: boolean): OrgSettings => ({
  id: org.id,
  slug: org.slug,
  name: org.name,
  issuer: issuerOf(deps.config, org),
  requireMfa,
  dynamicRegistration: org.dynamicRegistration,
  metadataDocuments: org.metadataDocuments,
  signUp: org.signUp,
  signUpDomains: org.signUpDomains,
  requirePushedRequests: org.requirePushedRequests,
  idTokenSigningAlg: org.idTokenSigningAlg,
  defaultLocale: org.defaultLocale,
});

/** What the audit snapshots of a settings change hold beside the org itself (sign-up policy included). */
const settingsSnapshot = (org: Org, requireMfa: boolean) => ({
  ...orgSnapshot(org),
  requireMfa,
  dynamicRegistration: org.dynamicRegistration,
  metadataDocuments: org.metadataDocuments,
  requirePushedRequests: org.requirePushedRequests,
  idTokenSigningAlg: org.idTokenSigningAlg,
  defaultLocale: org.defaultLocale,
});

/** The org with its sign-up policy changed as asked (checked), or the same object when nothing differs. */
function withSignUp(org: Org, change: SettingsChange, now: number): Org {
  if (change.signUp === undefined && change.signUpDomains === undefined) return org;
  const policy = checkSignUpPolicy(change.signUp ?? org.signUp, change.signUpDomains ?? org.signUpDomains);
  const same =
    policy.signUp === org.signUp &&
    JSON.stringify(policy.signUpDomains) === JSON.stringify(org.signUpDomains);
  return same ? org : { ...org, ...policy, updatedAt: now };
}

/** GET /organizations/{org}/settings. */
export async function orgSettings(deps: DirectoryDeps, org: Org): Promise<OrgSettings> {
  return settingsOf(deps, org, await findRequireMfa(deps.store, org.id));
}

/**
 * `tessera org update` and PATCH /organizations/{org}/settings: renames the org, makes the second
 * factor required (or optional again) for every user of the org, opens or closes its issuer's
 * registration (DESIGN §15), requires (or stops requiring) pushed authorization requests of every
 * client (RFC 9126; not on the console issuer), and/or sets its sign-up policy (domain/sign-in/sign-up-policy.ts),
 * audited as one `organization.updated` entry whose snapshots hold those settings too. Nothing
 * changed, no entry. The console issuer's registration is the spec's and always open, so it is not
 * a setting there.
 * Once the factor is required, users without one are sent to enrol at their next sign-in, and
 * browser sessions signed in with a password alone stop counting.
 */
export async function updateOrgSettings(
  deps: DirectoryDeps,
  org: Org,
  change: SettingsChange,
  actor: Actor,
): Promise<OrgSettings> {
  const name = change.name === undefined ? undefined : checkName('name', change.name);
  if (org.isConsole && (change.dynamicRegistration !== undefined || change.metadataDocuments !== undefined)) {
    fail(
      'org.settings.console_registration',
      'the console issuer always offers registration; it is not a setting there',
    );
  }
  // The console's own sign-in does not push its requests, nor do the clients the spec registers there.
  if (org.isConsole && change.requirePushedRequests !== undefined) {
    fail(
      'org.settings.console_pushed_requests',
      'the console issuer does not require pushed authorization requests; it is not a setting there',
    );
  }
  if (org.isConsole && change.idTokenSigningAlg !== undefined && change.idTokenSigningAlg !== 'RS256') {
    fail(
      'org.settings.console_signing_alg',
      'the console issuer signs with RS256; its signing algorithm is not a setting',
    );
  }
  // An algorithm the org has no keys of yet gets two (active, next), made before the transaction.
  const alg = change.idTokenSigningAlg;
  const fresh: FreshKey[] =
    alg === undefined || alg === 'RS256' || alg === org.idTokenSigningAlg
      ? []
      : await freshKeys(deps.sealer, NEW_ORG_KEYS, alg);
  return deps.unitOfWork.run(async (tx) => {
    await lockOrg(tx, org.id);
    const current = (await findOrgById(tx, org.id)) ?? fail('org.not_found', 'no such organization');
    const before = await findRequireMfa(tx, org.id);
    const now = clock.now();
    const registration = {
      dynamicRegistration: change.dynamicRegistration ?? current.dynamicRegistration,
      metadataDocuments: change.metadataDocuments ?? current.metadataDocuments,
    };
    const reopened =
      registration.dynamicRegistration !== current.dynamicRegistration ||
      registration.metadataDocuments !== current.metadataDocuments;
    const pushed = change.requirePushedRequests ?? current.requirePushedRequests;
    const repushed = pushed !== current.requirePushedRequests;
    const signing = change.idTokenSigningAlg ?? current.idTokenSigningAlg;
    const resigned = signing !== current.idTokenSigningAlg;
    const locale = change.defaultLocale === undefined ? current.defaultLocale : change.defaultLocale;
    const relocaled = locale !== current.defaultLocale;
    const renamed: Org =
      (name === undefined || name === current.name) && !reopened && !repushed && !resigned && !relocaled
        ? current
        : {
            ...current,
            ...(name === undefined ? {} : { name }),
            ...registration,
            requirePushedRequests: pushed,
            idTokenSigningAlg: signing,
            defaultLocale: locale,
            updatedAt: now,
          };
    const after = withSignUp(renamed, change, now);
    const requireMfa = change.requireMfa ?? before;
    if (after === current && requireMfa === before) return settingsOf(deps, current, before);
    if (after.name !== current.name) await updateOrgName(tx, org.id, after.name, now);
    if (reopened) await updateOrgRegistration(tx, org.id, registration, now);
    if (repushed) await updateOrgPushedRequests(tx, org.id, pushed, now);
    if (resigned) {
      if (signing !== 'RS256') await addAlgorithmKeys(tx, org.id, signing, fresh, now);
      // The old algorithm's keys stay published until what they signed has expired (RS256's sign access tokens).
      if (current.idTokenSigningAlg !== 'RS256')
        await retireAlgorithmKeys(tx, org.id, current.idTokenSigningAlg, now);
      await updateOrgIdTokenAlg(tx, org.id, signing, now);
    }
    if (relocaled) await updateOrgDefaultLocale(tx, org.id, locale, now);
    if (after !== renamed) await updateOrgSignUp(tx, org.id, after, now);
    if (requireMfa !== before) await setRequireMfa(tx, org.id, requireMfa, now);
    const snapshots = {
      before: settingsSnapshot(current, before),
      after: settingsSnapshot(after, requireMfa),
    };
    await recordUpdated(tx, { orgId: org.id, actor, at: now }, 'organization', snapshots);
    return settingsOf(deps, after, requireMfa);
  });
}
