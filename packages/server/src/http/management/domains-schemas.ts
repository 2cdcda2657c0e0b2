import { z } from 'zod';
import { CreatedAt } from './instant-fields.js';

/**
 * /organizations/{org}/domains (DESIGN §21): the org's own host names, proven by a DNS TXT record,
 * one of which its issuer may live on. The OpenAPI document is generated from these.
 */

export const CreateDomainBody = z.strictObject({
  name: z.string().max(1000).meta({
    description:
      'the host name, e.g. `login.acme.com` (internationalized names are stored as IDNA A-labels); not an IP address, `localhost` or one of Tessera’s own hosts',
  }),
});

export const UpdateDomainBody = z.strictObject({
  primary: z.boolean().meta({
    description:
      'true: the org’s issuer moves to this verified domain; false on the domain it is on: back to Tessera’s host for the org',
  }),
});

export const DomainRecord = z.object({
  id: z.string().meta({ pattern: '^dom_' }),
  name: z.string(),
  verified: z.boolean(),
  verified_at: z
    .string()
    .meta({ format: 'date-time' })
    .nullable()
    .meta({ description: 'when its TXT record was found; null while unverified' }),
  primary: z.boolean().meta({ description: 'the org’s issuer lives on this domain' }),
  issuer: z.string().meta({ description: 'the org’s issuer were it (or as it is) on this domain' }),
  txt_record: z
    .object({
      name: z.string().meta({ description: '`_tessera-challenge.<name>`' }),
      type: z.literal('TXT'),
      value: z.string().meta({ description: 'the random token the record must hold' }),
    })
    .meta({ description: 'the DNS record to create to prove the domain is the org’s' }),
  created_at: CreatedAt,
});

/** Not paged (an org has a handful): `{data}` like its trusted apps. */
export const DomainList = z.object({ data: z.array(DomainRecord) });
