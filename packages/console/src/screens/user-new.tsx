import { useState } from 'preact/hooks';
import { api, body } from '../api/client.js';
import { Form, TextField } from '../components/fields.js';
import { ErrorNotice } from '../components/notices.js';
import type { OrgScreenProps } from '../org-context.js';
import { navigate, orgHref } from '../router.js';
import { useAction } from '../use-action.js';

/** A field left empty is not sent: the API stores no name and no password then. */
const given = (name: string, value: string) => (value.trim() ? { [name]: value } : {});

/** "New user": email, an optional password and names; the new user's page follows. */
export function NewUserForm({ org, onCancel }: OrgScreenProps & { onCancel: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const { error, busy, run } = useAction();
  return (
    <section class="panel user-panel" aria-labelledby="new-user-title">
      <h2 id="new-user-title">New user</h2>
      <ErrorNotice error={error} />
      <Form
        label="New user"
        onSubmit={() =>
          run(async () => {
            const data = await body(
              api.POST('/organizations/{org}/users', {
                params: { path: { org: org.slug } },
                body: {
                  email: email.trim(),
                  ...(password ? { password } : {}),
                  ...given('first_name', firstName),
                  ...given('last_name', lastName),
                },
              }),
            );
            navigate(orgHref(org.slug, 'users', data.id));
          })
        }
      >
        <TextField label="Email" name="email" type="email" value={email} onInput={setEmail} required />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          value={password}
          onInput={setPassword}
          hint="Optional, 8 to 256 characters; it is never shown again. Without one the user cannot sign in with a password."
        />
        <TextField
          label="First name"
          name="first_name"
          value={firstName}
          onInput={setFirstName}
          hint="Optional."
        />
        <TextField
          label="Last name"
          name="last_name"
          value={lastName}
          onInput={setLastName}
          hint="Optional."
        />
        <div class="user-buttons">
          <button type="submit" disabled={busy}>
            Create user
          </button>
          <button type="button" class="secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </Form>
    </section>
  );
}
