import { useState } from 'preact/hooks';
import { body as answerOf, api } from '../api/client.js';
import { oneIn } from '../api/params.js';
import type { User } from '../api/types.js';
import { DraftFields, type FieldDecl } from '../components/draft-fields.js';
import { CheckboxField, Form } from '../components/fields.js';
import { Done, ErrorNotice } from '../components/notices.js';
import { useDraft } from '../use-draft.js';
import { useSaving } from '../use-saving.js';

/** The OIDC Core §5.1 claims the panel edits as text, by their API names (`address` apart). */
type TextClaim =
  | 'middle_name'
  | 'nickname'
  | 'preferred_username'
  | 'profile'
  | 'picture'
  | 'website'
  | 'gender'
  | 'birthdate'
  | 'zoneinfo'
  | 'locale'
  | 'phone_number';

const TEXT_CLAIMS: readonly (FieldDecl<Record<TextClaim, string>> & { key: TextClaim })[] = [
  { key: 'middle_name', label: 'Middle name' },
  { key: 'nickname', label: 'Nickname' },
  { key: 'preferred_username', label: 'Preferred username' },
  { key: 'picture', label: 'Picture URL', type: 'url', hint: 'An http or https address.' },
  { key: 'profile', label: 'Profile page URL', type: 'url', hint: 'An http or https address.' },
  { key: 'website', label: 'Website', type: 'url', hint: 'An http or https address.' },
  { key: 'gender', label: 'Gender' },
  { key: 'birthdate', label: 'Birthdate', hint: 'YYYY-MM-DD, or YYYY alone.' },
  { key: 'zoneinfo', label: 'Time zone', hint: 'An IANA time zone, such as Europe/Paris.' },
  { key: 'locale', label: 'Language', hint: 'A BCP 47 tag, such as fr-CA.' },
  {
    key: 'phone_number',
    label: 'Phone number',
    hint: 'E.164: +, the country code and the number, no spaces.',
  },
];

type AddressPart = 'formatted' | 'street_address' | 'locality' | 'region' | 'postal_code' | 'country';

/** The address's fields, by the API's names of its parts. */
const ADDRESS_FIELDS: readonly FieldDecl<Record<AddressPart, string>>[] = [
  { kind: 'lines', key: 'street_address', label: 'Street address', rows: 2 },
  { key: 'locality', label: 'City' },
  { key: 'region', label: 'Region or state' },
  { key: 'postal_code', label: 'Postal code' },
  { key: 'country', label: 'Country' },
  {
    kind: 'lines',
    key: 'formatted',
    label: 'Full address',
    rows: 3,
    hint: 'As written on mail, if apps should show it whole. Optional.',
  },
];

/** An emptied field clears the claim (null), as the API reads it. */
const orNull = (value: string) => (value.trim() ? value : null);

/** The address the fields make; null when every part is empty. */
function addressOf(parts: Record<AddressPart, string>): User['address'] {
  const given = Object.entries(parts).filter(([, v]) => v.trim() !== '');
  return given.length === 0 ? null : Object.fromEntries(given);
}

/**
 * The user's OIDC Core §5.1 claims (what the profile, address and phone scopes release to apps):
 * each a field, emptied for none; whether the owner vouches for the phone number. The server's
 * rules decide; its refusal names the field.
 */
export function ClaimsPanel({
  slug,
  user,
  onChange,
}: {
  slug: string;
  user: User;
  onChange: (user: User) => void;
}) {
  const [text, setText] = useDraft<Record<TextClaim, string>>(
    () => Object.fromEntries(TEXT_CLAIMS.map((c) => [c.key, user[c.key] ?? ''])) as Record<TextClaim, string>,
  );
  const [address, setAddress] = useDraft<Record<AddressPart, string>>(() => ({
    formatted: user.address?.formatted ?? '',
    street_address: user.address?.street_address ?? '',
    locality: user.address?.locality ?? '',
    region: user.address?.region ?? '',
    postal_code: user.address?.postal_code ?? '',
    country: user.address?.country ?? '',
  }));
  const [verified, setVerified] = useState(user.phone_number_verified);
  const saving = useSaving();
  return (
    <section class="panel user-panel" aria-labelledby="user-claims-title">
      <h2 id="user-claims-title">Profile claims</h2>
      <p class="muted">
        What apps receive with the profile, address and phone scopes (OpenID Connect standard claims).
      </p>
      <ErrorNotice error={saving.error} />
      {saving.saved ? <Done>Profile claims saved.</Done> : null}
      <Form
        label="Profile claims"
        onSubmit={() =>
          saving.save(async (done) => {
            // A new number is unverified (the server's rule) unless the box was ticked for it anew.
            const numberChanged = orNull(text.phone_number) !== user.phone_number;
            const vouch = verified !== user.phone_number_verified || !numberChanged;
            const body = {
              ...Object.fromEntries(TEXT_CLAIMS.map((c) => [c.key, orNull(text[c.key])])),
              address: addressOf(address),
              ...(vouch ? { phone_number_verified: verified && text.phone_number.trim() !== '' } : {}),
            };
            const data = await answerOf(
              api.PATCH('/organizations/{org}/users/{id}', {
                ...oneIn(slug, user.id),
                body,
              }),
            );
            onChange(data);
            setVerified(data.phone_number_verified);
            done();
          })
        }
      >
        <DraftFields draft={text} set={setText} fields={TEXT_CLAIMS} />
        <CheckboxField
          label="Phone number verified"
          name="phone_number_verified"
          checked={verified}
          onChange={setVerified}
          hint="You vouch for the number. A changed number becomes unverified: check this again once you vouch for it."
        />
        <DraftFields draft={address} set={setAddress} fields={ADDRESS_FIELDS} />
        <div>
          <button type="submit">Save profile claims</button>
        </div>
      </Form>
    </section>
  );
}
