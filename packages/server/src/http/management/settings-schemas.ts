import { z } from 'zod';
import {
  canonicalDomain,
  DOMAIN_RULE,
  MAX_SIGN_UP_DOMAINS,
  SIGN_UP_POLICIES,
} from '../../domain/directory/index.js';
import { LOCALES, type Locale } from '../../domain/locales.js';
import { SIGNING_ALGORITHMS } from '../../domain/types.js';
import { OrganizationName } from './organizations-schemas.js';

const IdTokenSigningAlg = z.enum(SIGNING_ALGORITHMS, `must be one of ${SIGNING_ALGORITHMS.join(', ')}`).meta({
  description:
    'what the org signs ID tokens, logout tokens, ID-JAGs and signed userinfo with (discovery’s ' +
    '`id_token_signing_alg_values_supported`; the JWKS publishes its keys beside the RS256 ones); ' +
    'access tokens are RS256 whatever this says',
});

const SignUp = z
  .enum(SIGN_UP_POLICIES as [string, ...string[]], `must be one of ${SIGN_UP_POLICIES.join(', ')}`)
  .meta({
    description:
      'who may create their own account on the hosted pages: `open` anyone, `invite_only` invited ' +
      'people only (no "Create an account" link), `domains` addresses at `sign_up_domains` only',
  });

const SignUpDomains = z
  .array(z.string().refine((d) => canonicalDomain(d) !== null, DOMAIN_RULE))
  .max(MAX_SIGN_UP_DOMAINS, `must hold at most ${MAX_SIGN_UP_DOMAINS} domains`)
  .meta({
    description:
      'email domains like example.com (lower-cased, duplicates dropped); kept only under `domains`, which needs one at least',
  });

const DefaultLocale = z
  .enum(LOCALES as [Locale, ...Locale[]], `must be one of ${LOCALES.join(', ')}, or null`)
  .nullable()
  .meta({
    description:
      'the hosted pages’ and mails’ language when neither ui_locales, the user’s locale nor the browser decides it; null: English (docs/languages.md)',
  });

export const OrganizationSettings = z.object({
  id: z.string().meta({ pattern: '^org_' }),
  slug: z.string(),
  name: z.string(),
  issuer: z.string().meta({ format: 'uri', description: 'the org’s OpenID issuer' }),
  require_mfa: z.boolean().meta({ description: 'every user of the org signs in with a second factor' }),
  dynamic_registration: z.boolean().meta({
    description: 'the org’s issuer offers dynamic client registration (RFC 7591) at /oauth/register',
  }),
  metadata_documents: z.boolean().meta({
    description: 'the org’s issuer accepts the https URL of a Client ID Metadata Document as a client_id',
  }),
  sign_up: SignUp,
  sign_up_domains: z
    .array(z.string())
    .meta({ description: 'the email domains `domains` lets sign up; empty under the other policies' }),
  require_pushed_authorization_requests: z.boolean().meta({
    description:
      'every client must push its authorization requests to /oauth/par (RFC 9126); discovery says so',
  }),
  id_token_signing_alg: IdTokenSigningAlg,
  default_locale: DefaultLocale,
});

export const UpdateOrganizationSettingsBody = z.strictObject({
  name: OrganizationName.optional(),
  require_mfa: z
    .boolean()
    .optional()
    .meta({ description: 'users without a second factor are sent to enrol at their next sign-in' }),
  dynamic_registration: z.boolean().optional().meta({
    description: 'let applications (MCP clients, for one) register themselves with the org’s issuer',
  }),
  metadata_documents: z
    .boolean()
    .optional()
    .meta({ description: 'let applications sign in with the URL of their Client ID Metadata Document' }),
  sign_up: SignUp.optional(),
  sign_up_domains: SignUpDomains.optional(),
  require_pushed_authorization_requests: z.boolean().optional().meta({
    description:
      'true: /oauth/authorize takes only a request_uri of /oauth/par from every client (not a setting of the console issuer)',
  }),
  id_token_signing_alg: IdTokenSigningAlg.optional().meta({
    description:
      'RS256 (default), ES256 or PS256 for ID tokens, logout tokens, ID-JAGs and signed userinfo; the ' +
      'first change to an algorithm makes its keys (published at once); leaving one keeps its keys ' +
      'published until what they signed has expired. The console issuer stays RS256',
  }),
  default_locale: DefaultLocale.optional(),
});
