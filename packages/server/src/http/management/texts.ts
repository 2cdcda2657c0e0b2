import type { z } from 'zod';
import { fail } from '../../domain/errors.js';
import { isLocale, type Locale } from '../../domain/locales.js';
import {
  CATALOGS,
  type TextOverrides,
  textOverrides,
  updateTextOverrides,
} from '../../domain/texts/index.js';
import { managementInput } from './api-input.js';
import { endpoint, ok } from './endpoint.js';
import { apiError, jsonRequest, OWNERS_READ, OWNERS_WRITE, ownersRefusals } from './responses.js';
import { OrganizationTexts, TEXTS_PATH, UpdateOrganizationTextsBody } from './texts-schemas.js';

const view = (locale: Locale, messages: TextOverrides): z.output<typeof OrganizationTexts> => ({
  locale,
  messages: Object.fromEntries(messages),
  catalog: { ...CATALOGS[locale] },
});

/** The language the path names; one the pages do not speak is no resource at all. */
const localeOf = (value: string): Locale =>
  isLocale(value)
    ? value
    : fail('texts.locale.unsupported', `locale: must be one of the supported languages`);

const noTexts = apiError('`not_found`: no such org, the caller cannot manage it, or no such language');

/**
 * An org's own words on its hosted pages and mails (DESIGN §21, docs/languages.md): owners read
 * and change them per language; members 403 like the org's other owner-only settings.
 */
export const TEXTS_ENDPOINTS = [
  endpoint(
    {
      ...OWNERS_READ,
      method: 'get',
      path: '/organizations/:org/texts/:locale',
      operationId: 'getOrganizationTexts',
      summary: 'The org’s own messages in one language',
      params: TEXTS_PATH,
      responses: {
        200: {
          description:
            'the keys the org overrides, with its messages, and the catalog’s messages of every key',
          schema: OrganizationTexts,
        },
        ...ownersRefusals(noTexts),
      },
    },
    async ({ deps, caller, params }) => {
      const locale = localeOf(params.locale);
      return ok(view(locale, await textOverrides(deps, caller.org, locale)));
    },
  ),
  endpoint(
    {
      ...OWNERS_WRITE,
      method: 'patch',
      path: '/organizations/:org/texts/:locale',
      operationId: 'updateOrganizationTexts',
      summary: 'Set or remove some of the org’s own messages in one language',
      description:
        'Each key of `messages` must be a key of the catalog; a string is an ICU message that may use ' +
        'only the arguments of the catalog’s message for that key, and null removes the org’s message. ' +
        'All changes apply or none. A change is audited as one `texts.updated` entry. The body is at ' +
        'most 64 KiB, as every body: long messages in many keys go in several requests.',
      params: TEXTS_PATH,
      body: jsonRequest(UpdateOrganizationTextsBody),
      responses: {
        200: {
          description: 'the org’s messages in that language as they are now',
          schema: OrganizationTexts,
        },
        400: apiError(
          '`invalid_request`: an unknown field or key, a message that is not valid ICU, uses an argument the catalog’s message does not have, or is too long (the key named)',
        ),
        ...ownersRefusals(noTexts),
        413: apiError(
          '`invalid_request`: a body over 64 KiB, whatever its keys (send fewer keys per request)',
        ),
      },
    },
    async ({ deps, caller, params, body }) => {
      const locale = localeOf(params.locale);
      const after = await managementInput(
        updateTextOverrides(deps, caller.org, locale, body.messages, caller.actor),
      );
      return ok(view(locale, after));
    },
  ),
];
