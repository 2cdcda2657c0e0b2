import { useState } from 'preact/hooks';
import { get, orgPath, patch } from '../api/client.js';
import type { OrganizationSettings } from '../api/types.js';
import { CheckboxField, Form, TextField } from '../components/fields.js';
import { Done, ErrorNotice, Loading, ReadOnlyNote } from '../components/notices.js';
import { canWrite, type OrgScreenProps, useOrgs } from '../org-context.js';
import { useLoad } from '../use-load.js';

/** The org's settings: its name and whether every user needs a second factor (owners change them). */
export function Settings({ org }: OrgScreenProps) {
  const loaded = useLoad(
    () => get<OrganizationSettings>(orgPath(org.slug, 'settings')).then((a) => a.data),
    [org.slug],
  );
  return (
    <>
      <h1>Settings</h1>
      {loaded.state === 'loading' ? <Loading what="settings" /> : null}
      {loaded.state === 'error' ? <ErrorNotice error={loaded.error} /> : null}
      {loaded.state === 'ok' ? (
        <SettingsForm key={loaded.data.id} org={org} settings={loaded.data} onSaved={loaded.reload} />
      ) : null}
    </>
  );
}

function SettingsForm({
  org,
  settings,
  onSaved,
}: OrgScreenProps & { settings: OrganizationSettings; onSaved: () => void }) {
  const orgs = useOrgs();
  const [name, setName] = useState(settings.name);
  const [requireMfa, setRequireMfa] = useState(settings.require_mfa);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const facts = (
    <dl class="facts panel">
      <dt>Slug</dt>
      <dd>
        <code>{settings.slug}</code>
      </dd>
      <dt>Id</dt>
      <dd>
        <code>{settings.id}</code>
      </dd>
      <dt>Issuer</dt>
      <dd>
        <code>{settings.issuer}</code>
      </dd>
    </dl>
  );
  if (!canWrite(org)) {
    return (
      <>
        <ReadOnlyNote />
        {facts}
        <dl class="facts panel">
          <dt>Name</dt>
          <dd>{settings.name}</dd>
          <dt>Second factor</dt>
          <dd>{settings.require_mfa ? 'Required for every user' : 'Optional'}</dd>
        </dl>
      </>
    );
  }
  return (
    <>
      {facts}
      <div class="panel">
        <ErrorNotice error={error} />
        {saved ? <Done>Settings saved.</Done> : null}
        <Form
          label="Organization settings"
          onSubmit={async () => {
            setError(null);
            setSaved(false);
            try {
              await patch(orgPath(org.slug, 'settings'), { name, require_mfa: requireMfa });
              setSaved(true);
              onSaved();
              await orgs.reload();
            } catch (e) {
              setError(e);
            }
          }}
        >
          <TextField
            label="Name"
            name="name"
            value={name}
            onInput={setName}
            required
            hint="Shown on the sign-in pages."
          />
          <CheckboxField
            label="Require a second factor"
            name="require_mfa"
            checked={requireMfa}
            onChange={setRequireMfa}
            hint="Users without one are asked to enrol an authenticator app at their next sign-in."
          />
          <div>
            <button type="submit">Save settings</button>
          </div>
        </Form>
      </div>
    </>
  );
}
