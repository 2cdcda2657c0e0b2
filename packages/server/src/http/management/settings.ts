import type { z } from 'zod';
import { type OrgSettings, orgSettings, updateOrgSettings } from '../../domain/directory/index.js';
import type { Locale, SignUpPolicy } from '../../domain/types.js';
import { managementInput, sentFields } from './api-input.js';
import { endpoint, ok } from './endpoint.js';
import {
  changeRefusals,
  jsonRequest,
  MANAGEMENT,
  noOrgOfMember,
  ORG,
  OWNERS_WRITE,
  unauthorized,
} from './responses.js';
import { OrganizationSettings, UpdateOrganizationSettingsBody } from './settings-schemas.js';

const view = (s: OrgSettings): z.output<typeof OrganizationSettings> => ({
  id: s.id,
  slug: s.slug,
  name: s.name,
  issuer: s.issuer,
  require_mfa: s.requireMfa,
  dynamic_registration: s.dynamicRegistration,
  metadata_documents: s.metadataDocuments,
  sign_up: s.signUp,
  sign_up_domains: s.signUpDomains,
  require_pushed_authorization_requests: s.requirePushedRequests,
  id_token_signing_alg: s.idTokenSigningAlg,
  default_locale: s.defaultLocale,
});

/** An org's settings: members read them, owners change them (members 403). */
export const SETTINGS_ENDPOINTS = [
  endpoint(
    {
      ...MANAGEMENT,
      scope: 'org:read',
      who: 'members',
      method: 'get',
      path: '/organizations/:org/settings',
      operationId: 'getOrganizationSettings',
      summary: 'The org’s settings (members too)',
      params: ORG,
      responses: {
        200: { description: 'the settings', schema: OrganizationSettings },
        401: unauthorized,
        404: noOrgOfMember,
      },
    },
    async ({ deps, caller }) => {
      return ok(view(await orgSettings(deps, caller.org)));
    },
  ),
  endpoint(
    {
      ...OWNERS_WRITE,
      method: 'patch',
      path: '/organizations/:org/settings',
      operationId: 'updateOrganizationSettings',
      summary:
        'Rename the org, require (or stop requiring) a second factor of its users or pushed authorization requests of its clients, choose its ID-token signing algorithm, set its default language',
      description:
        'Fields left out keep their value. A change is audited as one `organization.updated` entry ' +
        '(with `previous` and `changes`); a request that changes nothing writes none.',
      params: ORG,
      body: jsonRequest(UpdateOrganizationSettingsBody),
      responses: {
        200: { description: 'the settings as they are now', schema: OrganizationSettings },
        ...changeRefusals(noOrgOfMember),
      },
    },
    async ({ deps, caller, body: input }) => {
      const change = {
        ...sentFields(input, {
          name: 'name',
          require_mfa: 'requireMfa',
          dynamic_registration: 'dynamicRegistration',
          metadata_documents: 'metadataDocuments',
          sign_up_domains: 'signUpDomains',
          require_pushed_authorization_requests: 'requirePushedRequests',
          id_token_signing_alg: 'idTokenSigningAlg',
        }),
        ...(input.sign_up === undefined ? {} : { signUp: input.sign_up as SignUpPolicy }),
        ...(input.default_locale === undefined
          ? {}
          : { defaultLocale: input.default_locale as Locale | null }),
      };
      return ok(view(await managementInput(updateOrgSettings(deps, caller.org, change, caller.actor))));
    },
  ),
];
