import { api, body } from '../api/client.js';
import { inOrg } from '../api/params.js';
import { DraftFields, type FieldDecl } from '../components/draft-fields.js';
import { FormPanel } from '../components/form-panel.js';
import type { OrgScreenProps } from '../org-context.js';
import { navigate, orgHref } from '../router.js';
import { useAction } from '../use-action.js';
import { useDraft } from '../use-draft.js';

/** A field left empty is not sent: the API stores no name and no password then. */
const given = (name: string, value: string) => (value.trim() ? { [name]: value } : {});

interface NewUser {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

const FIELDS: readonly FieldDecl<NewUser>[] = [
  { key: 'email', label: 'Email', type: 'email', required: true },
  {
    key: 'password',
    label: 'Password',
    type: 'password',
    autoComplete: 'new-password',
    hint: 'Optional, 8 to 256 characters; it is never shown again. Without one the user cannot sign in with a password.',
  },
  { key: 'firstName', name: 'first_name', label: 'First name', hint: 'Optional.' },
  { key: 'lastName', name: 'last_name', label: 'Last name', hint: 'Optional.' },
];

/** "New user": email, an optional password and names; the new user's page follows. */
export function NewUserForm({ org, onCancel }: OrgScreenProps & { onCancel: () => void }) {
  const [draft, set] = useDraft<NewUser>({ email: '', password: '', firstName: '', lastName: '' });
  const action = useAction();
  return (
    <FormPanel
      id="new-user-title"
      title="New user"
      submit="Create user"
      state={action}
      onCancel={onCancel}
      class="panel user-panel"
      buttonsClass="user-buttons"
      onSubmit={() =>
        action.run(async () => {
          const data = await body(
            api.POST('/organizations/{org}/users', {
              ...inOrg(org.slug),
              body: {
                email: draft.email.trim(),
                ...(draft.password ? { password: draft.password } : {}),
                ...given('first_name', draft.firstName),
                ...given('last_name', draft.lastName),
              },
            }),
          );
          navigate(orgHref(org.slug, 'users', data.id));
        })
      }
    >
      <DraftFields draft={draft} set={set} fields={FIELDS} />
    </FormPanel>
  );
}
