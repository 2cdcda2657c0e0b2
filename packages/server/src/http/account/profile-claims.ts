import type { OwnProfileInput } from '../../domain/directory/index.js';
import type { MessageKey, Texts } from '../../domain/texts/index.js';
import type { StandardClaims, User } from '../../domain/types.js';
import type { FormParams } from '../form.js';
import { field } from '../sign-in/context.js';
import { html, type SafeHtml } from '../sign-in/html.js';

/**
 * The profile page's "About you" fields: the OIDC Core §5.1 claims a person may give about
 * themselves (the picture, the other names, links, birthdate, time zone, language, phone, postal
 * address), each with the browser's autofill hint. The rules are the domain's
 * (domain/directory/standard-claims.ts); a refusal re-renders what was typed.
 */

type TextClaim = Exclude<keyof StandardClaims, 'address' | 'phoneNumberVerified'>;

const TEXT_FIELDS: readonly {
  name: string;
  key: TextClaim | 'picture';
  autocomplete: string;
  hint?: string;
}[] = [
  { name: 'middle_name', key: 'middleName', autocomplete: 'additional-name' },
  { name: 'nickname', key: 'nickname', autocomplete: 'nickname' },
  {
    name: 'preferred_username',
    key: 'preferredUsername',
    autocomplete: 'username',
  },
  { name: 'picture', key: 'picture', autocomplete: 'photo', hint: 'https://…' },
  { name: 'profile', key: 'profile', autocomplete: 'url', hint: 'https://…' },
  { name: 'website', key: 'website', autocomplete: 'url', hint: 'https://…' },
  { name: 'gender', key: 'gender', autocomplete: 'sex' },
  {
    name: 'birthdate',
    key: 'birthdate',
    autocomplete: 'bday',
    hint: 'YYYY-MM-DD or YYYY',
  },
  { name: 'zoneinfo', key: 'zoneinfo', autocomplete: 'off', hint: 'Europe/Paris' },
  { name: 'locale', key: 'locale', autocomplete: 'language', hint: 'fr-CA' },
  {
    name: 'phone_number',
    key: 'phoneNumber',
    autocomplete: 'tel',
    hint: '+14155550100',
  },
];

const ADDRESS_FIELDS = [
  { name: 'locality', autocomplete: 'address-level2' },
  { name: 'region', autocomplete: 'address-level1' },
  { name: 'postal_code', autocomplete: 'postal-code' },
  { name: 'country', autocomplete: 'country-name' },
] as const;

/** What each field shows: the stored value, or what was typed when the form was refused. */
export type ClaimFieldValues = Record<string, string>;

/** The stored values of the fields (empty for none). */
export function claimFieldValues(user: User): ClaimFieldValues {
  const values: ClaimFieldValues = {};
  for (const f of TEXT_FIELDS) values[f.name] = user[f.key] ?? '';
  values.street_address = user.address?.street_address ?? '';
  for (const f of ADDRESS_FIELDS) values[f.name] = user.address?.[f.name] ?? '';
  return values;
}

/** The fields as the form sent them. */
export function typedClaimFieldValues(form: FormParams): ClaimFieldValues {
  const names = [...TEXT_FIELDS.map((f) => f.name), 'street_address', ...ADDRESS_FIELDS.map((f) => f.name)];
  return Object.fromEntries(names.map((n) => [n, field(form, n)]));
}

/**
 * The domain's input from the form (names apart): a field sent empty clears its claim, a field not
 * sent at all (a page from before a field existed) keeps it.
 */
export function ownProfileInput(form: FormParams): Omit<OwnProfileInput, 'firstName' | 'lastName'> {
  const sent = (name: string) => form.get(name) !== undefined;
  const claims: OwnProfileInput['claims'] = {};
  for (const f of TEXT_FIELDS) if (f.key !== 'picture' && sent(f.name)) claims[f.key] = field(form, f.name);
  const parts = ['street_address', ...ADDRESS_FIELDS.map((f) => f.name)].filter(sent);
  if (parts.length > 0) claims.address = Object.fromEntries(parts.map((p) => [p, field(form, p)]));
  return { ...(sent('picture') ? { picture: field(form, 'picture') } : {}), claims };
}

const input = (texts: Texts, name: string, autocomplete: string, value: string, hint?: string) =>
  html`<label for="${name}">${texts.t(`profile.claim.${name}` as MessageKey)}</label>
<input id="${name}" name="${name}" autocomplete="${autocomplete}" value="${value}"${hint ? html` placeholder="${hint}"` : ''}>`;

export function claimFieldsView(texts: Texts, values: ClaimFieldValues): SafeHtml {
  return html`<fieldset><legend>${texts.t('profile.about')}</legend>
${TEXT_FIELDS.map((f) => input(texts, f.name, f.autocomplete, values[f.name] ?? '', f.hint))}
<label for="street_address">${texts.t('profile.claim.street_address')}</label>
<textarea id="street_address" name="street_address" autocomplete="street-address" rows="2">${values.street_address ?? ''}</textarea>
${ADDRESS_FIELDS.map((f) => input(texts, f.name, f.autocomplete, values[f.name] ?? ''))}
</fieldset>`;
}
