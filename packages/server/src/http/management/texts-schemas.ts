import { z } from 'zod';
import { LOCALES } from '../../domain/locales.js';
import { MAX_MESSAGE_LENGTH, MAX_TEXT_CHANGES } from '../../domain/texts/index.js';
import { ORG } from './responses.js';

/** The path of an org's texts in one language. */
export const TEXTS_PATH = { ...ORG, locale: `one of ${LOCALES.join(', ')}` } as const;

/** An org's own messages in one language: key → ICU message, only the keys it overrides. */
export const OrganizationTexts = z.object({
  locale: z.string().meta({ examples: ['de'] }),
  messages: z.record(z.string(), z.string()).meta({
    description:
      'the org’s messages by catalog key (docs/languages.md lists where the keys are); the catalog’s words for every other key',
    examples: [{ 'login.title': 'Bei Acme anmelden' }],
  }),
  catalog: z.record(z.string(), z.string()).meta({
    description:
      'every key of the catalog with the catalog’s own message in this language: what the pages say where the org has no message of its own',
    examples: [{ 'login.title': 'Anmelden', 'login.forgot': 'Passwort vergessen?' }],
  }),
});

export const UpdateOrganizationTextsBody = z.strictObject({
  messages: z.record(z.string(), z.string().max(MAX_MESSAGE_LENGTH).nullable()).meta({
    description: `at most ${MAX_TEXT_CHANGES} keys: a catalog key with an ICU message using only the arguments of the catalog’s message, or null to go back to the catalog’s words`,
    examples: [{ 'login.title': 'Bei Acme anmelden', 'login.forgot': null }],
  }),
});
