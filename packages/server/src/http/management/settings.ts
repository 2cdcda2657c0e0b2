import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Deps } from '../../domain/context.js';
import { type OrgSettings, orgSettings, updateOrgSettings } from '../../domain/directory/org-settings.js';
import { jsonBody } from './api-input.js';
import { memberCaller, ownerCaller } from './owner-caller.js';
import { type OrganizationSettings, UpdateOrganizationSettingsBody } from './settings-schemas.js';

const view = (s: OrgSettings): z.output<typeof OrganizationSettings> => ({
  id: s.id,
  slug: s.slug,
  name: s.name,
  issuer: s.issuer,
  require_mfa: s.requireMfa,
});

type OrgParams = { Params: { org: string } };

/** An org's settings: members read them, owners change them (members 403). */
export function settingsRoutes(app: FastifyInstance, deps: Deps) {
  app.get<OrgParams>('/organizations/:org/settings', async (request, reply) => {
    const { org } = await memberCaller(deps, request, 'org:read');
    reply.header('cache-control', 'no-store');
    return view(await orgSettings(deps, org));
  });

  app.patch<OrgParams>('/organizations/:org/settings', async (request, reply) => {
    const { org, actor } = await ownerCaller(deps, request, 'forbidden', 'org:write');
    const input = jsonBody('invalid_request', UpdateOrganizationSettingsBody, request.body);
    const change = {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.require_mfa === undefined ? {} : { requireMfa: input.require_mfa }),
    };
    reply.header('cache-control', 'no-store');
    return view(await updateOrgSettings(deps, org, change, actor));
  });
}
