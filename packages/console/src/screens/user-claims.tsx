import { useState } from 'preact/hooks';
import { body as answerOf, api } from '../api/client.js';
import type { User } from '../api/types.js';
import { CheckboxField, Form, LinesField, TextField } from '../components/fields.js';
import { Done, ErrorNotice } from '../components/notices.js';

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

const TEXT_CLAIMS: readonly { name: TextClaim; label: string; hint?: string; type?: 'url' }[] = [
  { name: 'middle_name', label: 'Middle name' },
  { name: 'nickname', label: 'Nickname' },
  { name: 'preferred_username', label: 'Preferred username' },
  { name: 'picture', label: 'Picture URL', type: 'url', hint: 'An http or https address.' },
  { name: 'profile', label: 'Profile page URL', type: 'url', hint: 'An http or https address.' },
  { name: 'website', label: 'Website', type: 'url', hint: 'An http or https address.' },
  { name: 'gender', label: 'Gender' },
  { name: 'birthdate', label: 'Birthdate', hint: 'YYYY-MM-DD, or YYYY alone.' },
  { name: 'zoneinfo', label: 'Time zone', hint: 'An IANA time zone, such as Europe/Paris.' },
  { name: 'locale', label: 'Language', hint: 'A BCP 47 tag, such as fr-CA.' },
  {
    name: 'phone_number',
    label: 'Phone number',
    hint: 'E.164: +, the country code and the number, no spaces.',
  },
];

const ADDRESS_PARTS = [
  ['locality', 'City'],
  ['region', 'Region or state'],
  ['postal_code', 'Postal code'],
  ['country', 'Country'],
] as const;

type AddressPart = 'formatted' | 'street_address' | (typeof ADDRESS_PARTS)[number][0];

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
  const [text, setText] = useState<Record<TextClaim, string>>(
    () =>
      Object.fromEntries(TEXT_CLAIMS.map((c) => [c.name, user[c.name] ?? ''])) as Record<TextClaim, string>,
  );
  const [address, setAddress] = useState<Record<AddressPart, string>>(() => ({
    formatted: user.address?.formatted ?? '',
    street_address: user.address?.street_address ?? '',
    locality: user.address?.locality ?? '',
    region: user.address?.region ?? '',
    postal_code: user.address?.postal_code ?? '',
    country: user.address?.country ?? '',
  }));
  const [verified, setVerified] = useState(user.phone_number_verified);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const part = (name: AddressPart) => (value: string) => setAddress({ ...address, [name]: value });
  return (
    <section class="panel user-panel" aria-labelledby="user-claims-title">
      <h2 id="user-claims-title">Profile claims</h2>
      <p class="muted">
        What apps receive with the profile, address and phone scopes (OpenID Connect standard claims).
      </p>
      <ErrorNotice error={error} />
      {saved ? <Done>Profile claims saved.</Done> : null}
      <Form
        label="Profile claims"
        onSubmit={async () => {
          setError(null);
          setSaved(false);
          try {
            // A new number is unverified (the server's rule) unless the box was ticked for it anew.
            const numberChanged = orNull(text.phone_number) !== user.phone_number;
            const vouch = verified !== user.phone_number_verified || !numberChanged;
            const body = {
              ...Object.fromEntries(TEXT_CLAIMS.map((c) => [c.name, orNull(text[c.name])])),
              address: addressOf(address),
              ...(vouch ? { phone_number_verified: verified && text.phone_number.trim() !== '' } : {}),
            };
            const data = await answerOf(
              api.PATCH('/organizations/{org}/users/{id}', {
                params: { path: { org: slug, id: user.id } },
                body,
              }),
            );
            onChange(data);
            setVerified(data.phone_number_verified);
            setSaved(true);
          } catch (e) {
            setError(e);
          }
        }}
      >
        {TEXT_CLAIMS.map((c) => (
          <TextField
            key={c.name}
            label={c.label}
            name={c.name}
            type={c.type}
            value={text[c.name]}
            onInput={(value) => setText({ ...text, [c.name]: value })}
            hint={c.hint}
          />
        ))}
        <CheckboxField
          label="Phone number verified"
          name="phone_number_verified"
          checked={verified}
          onChange={setVerified}
          hint="You vouch for the number. A changed number becomes unverified: check this again once you vouch for it."
        />
        <LinesField
          label="Street address"
          name="street_address"
          rows={2}
          value={address.street_address}
          onInput={part('street_address')}
        />
        {ADDRESS_PARTS.map(([name, label]) => (
          <TextField key={name} label={label} name={name} value={address[name]} onInput={part(name)} />
        ))}
        <LinesField
          label="Full address"
          name="formatted"
          rows={3}
          value={address.formatted}
          onInput={part('formatted')}
          hint="As written on mail, if apps should show it whole. Optional."
        />
        <div>
          <button type="submit">Save profile claims</button>
        </div>
      </Form>
    </section>
  );
}
