import { useState } from 'preact/hooks';
import { api, body, ok } from '../api/client.js';
import type { components } from '../api/generated/openapi.js';
import { oneIn } from '../api/params.js';

/** PATCH /organizations/{org}/users/{id} with `changes`: the user as stored now. */
const patchUser = (slug: string, user: { id: string }, changes: components['schemas']['UpdateUserBody']) =>
  body(
    api.PATCH('/organizations/{org}/users/{id}', {
      ...oneIn(slug, user.id),
      body: changes,
    }),
  );

import type { User } from '../api/types.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { Fact } from '../components/fact.js';
import { Form, TextField } from '../components/fields.js';
import { Link } from '../components/link.js';
import { Done, ErrorNotice, Loading } from '../components/notices.js';
import { fullName, when } from '../format.js';
import { canWrite, type OrgScreenProps } from '../org-context.js';
import { navigate, orgHref } from '../router.js';
import { useLoad } from '../use-load.js';
import { useSaving } from '../use-saving.js';
import { ClaimsPanel } from './user-claims.js';
import { Impersonate } from './user-impersonation.js';
import { OwnersOnly, StatusBadge } from './user-parts.js';
import { RolesPanel } from './user-roles.js';

/** What every panel of the page gets: the org, the user as last answered, and how to replace it. */
interface UserProps {
  slug: string;
  user: User;
  onChange: (user: User) => void;
}

/**
 * `/console/o/{slug}/users/{id}`: one user, their names, profile claims, roles, access, sessions,
 * impersonation, deletion.
 */
export function UserDetail({ org, id = '' }: OrgScreenProps) {
  const allowed = canWrite(org);
  const loaded = useLoad(
    () =>
      allowed ? body(api.GET('/organizations/{org}/users/{id}', oneIn(org.slug, id))) : Promise.resolve(null),
    [org.slug, id, allowed],
  );
  // The user as the last PATCH answered, until another user's page is shown.
  const [changed, setChanged] = useState<User | null>(null);
  const user = changed?.id === id ? changed : loaded.state === 'ok' ? loaded.data : null;
  return (
    <>
      <p class="user-back">
        <Link href={orgHref(org.slug, 'users')}>← All users</Link>
      </p>
      <div class="user-head">
        <h1>{user ? user.email : 'User'}</h1>
        {user ? <StatusBadge user={user} /> : null}
      </div>
      {!allowed ? <OwnersOnly /> : null}
      {loaded.state === 'loading' ? <Loading what="the user" /> : null}
      {loaded.state === 'error' ? <ErrorNotice error={loaded.error} /> : null}
      {user ? (
        <>
          <Facts user={user} />
          <NamePanel key={user.id} slug={org.slug} user={user} onChange={setChanged} />
          <ClaimsPanel key={`claims-${user.id}`} slug={org.slug} user={user} onChange={setChanged} />
          <RolesPanel slug={org.slug} user={user} />
          <AccessPanel slug={org.slug} user={user} onChange={setChanged} />
          <Impersonate org={org} user={user} />
          <DeleteUser slug={org.slug} user={user} />
        </>
      ) : null}
    </>
  );
}

function Facts({ user }: { user: User }) {
  return (
    <div class="panel">
      <dl class="facts">
        <Fact term="Id" code={user.id} />
        <Fact term="Email">{user.email}</Fact>
        <Fact term="Name">{fullName(user) || <span class="muted">None given</span>}</Fact>
        <Fact term="Created">{when(user.created_at)}</Fact>
        <Fact term="Status">{user.disabled ? 'Disabled: sign-in is refused' : 'Active: may sign in'}</Fact>
      </dl>
    </div>
  );
}

/** An emptied field clears the name (null), as the API reads it. */
const nameOrNull = (value: string) => (value.trim() ? value : null);

function NamePanel({ slug, user, onChange }: UserProps) {
  const [firstName, setFirstName] = useState(user.first_name ?? '');
  const [lastName, setLastName] = useState(user.last_name ?? '');
  const saving = useSaving();
  return (
    <section class="panel user-panel" aria-labelledby="user-name-title">
      <h2 id="user-name-title">Name</h2>
      <ErrorNotice error={saving.error} />
      {saving.saved ? <Done>Names saved.</Done> : null}
      <Form
        label="Name"
        onSubmit={() =>
          saving.save(async (done) => {
            const data = await patchUser(slug, user, {
              first_name: nameOrNull(firstName),
              last_name: nameOrNull(lastName),
            });
            onChange(data);
            done();
          })
        }
      >
        <TextField
          label="First name"
          name="first_name"
          value={firstName}
          onInput={setFirstName}
          hint="Leave empty for none."
        />
        <TextField
          label="Last name"
          name="last_name"
          value={lastName}
          onInput={setLastName}
          hint="Leave empty for none."
        />
        <div>
          <button type="submit">Save names</button>
        </div>
      </Form>
    </section>
  );
}

function AccessPanel({ slug, user, onChange }: UserProps) {
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const run = async (work: () => Promise<string>) => {
    setError(null);
    setDone(null);
    try {
      setDone(await work());
    } catch (e) {
      setError(e);
    }
  };
  const setDisabled = (disabled: boolean) =>
    run(async () => {
      const data = await patchUser(slug, user, { disabled });
      onChange(data);
      return disabled
        ? 'User disabled: their sign-in is refused and their sessions have ended.'
        : 'User enabled: they may sign in again.';
    });
  return (
    <section class="panel user-panel" aria-labelledby="user-access-title">
      <h2 id="user-access-title">Access</h2>
      <ErrorNotice error={error} />
      {done ? <Done>{done}</Done> : null}
      <p>
        {user.disabled
          ? 'This user is disabled: their sign-in is refused. Enabling lets them sign in again.'
          : 'Disabling refuses this user’s sign-in and ends every session they have, until you enable them again.'}
      </p>
      <div class="user-buttons">
        {user.disabled ? (
          <button type="button" onClick={() => setDisabled(false)}>
            Enable user
          </button>
        ) : (
          <ConfirmButton
            question="Disable this user? Their sign-in is refused and every session they have ends."
            confirmLabel="Disable"
            onConfirm={() => setDisabled(true)}
          >
            Disable user
          </ConfirmButton>
        )}
      </div>
      <h3>Sessions</h3>
      <p>Signing out everywhere ends every session of this user: each app must sign them in again.</p>
      <div class="user-buttons">
        <ConfirmButton
          question="End every session of this user?"
          confirmLabel="End every session"
          onConfirm={() =>
            run(async () => {
              await ok(api.DELETE('/organizations/{org}/users/{id}/sessions', oneIn(slug, user.id)));
              return 'Done: every session of this user has ended.';
            })
          }
        >
          Sign out everywhere
        </ConfirmButton>
      </div>
    </section>
  );
}

function DeleteUser({ slug, user }: { slug: string; user: User }) {
  const [error, setError] = useState<unknown>(null);
  return (
    <section class="panel user-panel" aria-labelledby="user-delete-title">
      <h2 id="user-delete-title">Delete user</h2>
      <ErrorNotice error={error} />
      <p>
        Deletes the user, ends every session they have and removes the tenants no one else belongs to. This
        cannot be undone.
      </p>
      <ConfirmButton
        question={`Delete ${user.email} for good?`}
        confirmLabel="Delete"
        onConfirm={async () => {
          setError(null);
          try {
            await ok(api.DELETE('/organizations/{org}/users/{id}', oneIn(slug, user.id)));
            navigate(orgHref(slug, 'users'));
          } catch (e) {
            setError(e);
          }
        }}
      >
        Delete user
      </ConfirmButton>
    </section>
  );
}
