import { useState } from 'preact/hooks';
import { api, body } from '../api/client.js';
import { Form, TextField } from '../components/fields.js';
import { ErrorNotice } from '../components/notices.js';
import { useOrgs } from '../org-context.js';
import { navigate, orgHref } from '../router.js';
import { useAction } from '../use-action.js';

/** The first visit of someone with no organization yet: what an org is, and making the first one. */
export function FirstRun() {
  return (
    <div class="first-run">
      <h1>Welcome to Tessera</h1>
      <p>
        An organization is one sign-in service of its own: its own issuer, users, clients, signing keys,
        webhooks and audit log. Create the first one to start; you become its owner.
      </p>
      <CreateOrganizationForm />
    </div>
  );
}

export function NewOrganization() {
  return (
    <>
      <h1>New organization</h1>
      <CreateOrganizationForm />
    </>
  );
}

function CreateOrganizationForm() {
  const orgs = useOrgs();
  const [slug, setSlug] = useState('');
  const [name, setName] = useState('');
  const { error, busy, run } = useAction();
  return (
    <div class="panel">
      <ErrorNotice error={error} />
      <Form
        label="Create organization"
        onSubmit={() =>
          run(async () => {
            const data = await body(
              api.POST('/organizations', { body: { slug, ...(name.trim() ? { name } : {}) } }),
            );
            await orgs.reload();
            navigate(orgHref(data.slug, 'settings'));
          })
        }
      >
        <TextField
          label="Slug"
          name="slug"
          value={slug}
          onInput={setSlug}
          required
          hint="Lowercase letters, digits and inner hyphens. It names the organization's sign-in host and never changes."
        />
        <TextField
          label="Name"
          name="name"
          value={name}
          onInput={setName}
          hint="Shown on sign-in pages; defaults to the slug."
        />
        <div>
          <button type="submit" disabled={busy}>
            Create organization
          </button>
        </div>
      </Form>
    </div>
  );
}
