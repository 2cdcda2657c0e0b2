import { useState } from 'preact/hooks';
import { api, body, ok } from '../api/client.js';
import { inOrg } from '../api/params.js';
import type { IdTokenSigningAlg, OrganizationSettings, SignUpPolicy } from '../api/types.js';
import { Fact } from '../components/fact.js';
import { CheckboxField, Form, LinesField, linesOf, SelectField, TextField } from '../components/fields.js';
import { Done, ErrorNotice, Loading, ReadOnlyNote } from '../components/notices.js';
import { canWrite, type OrgScreenProps, useOrgs } from '../org-context.js';
import { useLoad } from '../use-load.js';
import { useSaving } from '../use-saving.js';

const SIGN_UP: readonly (readonly [SignUpPolicy, string])[] = [
  ['open', 'Anyone can create an account'],
  ['invite_only', 'Invited people only'],
  ['domains', 'Addresses at some email domains only'],
];
const SIGNING: readonly (readonly [IdTokenSigningAlg, string])[] = [
  ['RS256', 'RS256 (RSA, the default)'],
  ['ES256', 'ES256 (ECDSA P-256)'],
  ['PS256', 'PS256 (RSA-PSS)'],
];
const signUpWords = (s: OrganizationSettings) =>
  s.sign_up === 'domains'
    ? `Addresses at ${s.sign_up_domains.map((d) => `@${d}`).join(', ')} only`
    : (SIGN_UP.find(([v]) => v === s.sign_up)?.[1] ?? s.sign_up);

/**
 * The org's settings: its name, whether every user needs a second factor, whether applications may
 * register themselves with its issuer, and who may create an account on its sign-in pages (owners
 * change them).
 */
export function Settings({ org }: OrgScreenProps) {
  const loaded = useLoad(() => body(api.GET('/organizations/{org}/settings', inOrg(org.slug))), [org.slug]);
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
  const [dynamicRegistration, setDynamicRegistration] = useState(settings.dynamic_registration);
  const [metadataDocuments, setMetadataDocuments] = useState(settings.metadata_documents);
  const [requirePushed, setRequirePushed] = useState(settings.require_pushed_authorization_requests);
  const [signUp, setSignUp] = useState<SignUpPolicy>(settings.sign_up);
  const [signingAlg, setSigningAlg] = useState<IdTokenSigningAlg>(settings.id_token_signing_alg);
  const [domains, setDomains] = useState(settings.sign_up_domains.join('\n'));
  const saving = useSaving();
  const facts = (
    <dl class="facts panel">
      <Fact term="Slug" code={settings.slug} />
      <Fact term="Id" code={settings.id} />
      <Fact term="Issuer" code={settings.issuer} />
    </dl>
  );
  if (!canWrite(org)) {
    return (
      <>
        <ReadOnlyNote />
        {facts}
        <dl class="facts panel">
          <Fact term="Name">{settings.name}</Fact>
          <Fact term="Second factor">{settings.require_mfa ? 'Required for every user' : 'Optional'}</Fact>
          <Fact term="Dynamic registration">{settings.dynamic_registration ? 'On' : 'Off'}</Fact>
          <Fact term="Metadata documents">{settings.metadata_documents ? 'On' : 'Off'}</Fact>
          <Fact term="Pushed authorization requests">
            {settings.require_pushed_authorization_requests ? 'Required of every application' : 'Optional'}
          </Fact>
          <Fact term="Sign-up">{signUpWords(settings)}</Fact>
          <Fact term="ID token signing algorithm">{settings.id_token_signing_alg}</Fact>
        </dl>
      </>
    );
  }
  return (
    <>
      {facts}
      <div class="panel">
        <ErrorNotice error={saving.error} />
        {saving.saved ? <Done>Settings saved.</Done> : null}
        <Form
          label="Organization settings"
          onSubmit={() =>
            saving.save(async (done) => {
              await ok(
                api.PATCH('/organizations/{org}/settings', {
                  ...inOrg(org.slug),
                  body: {
                    name,
                    require_mfa: requireMfa,
                    dynamic_registration: dynamicRegistration,
                    metadata_documents: metadataDocuments,
                    // Sent only when changed: the console's own issuer does not take it.
                    ...(requirePushed === settings.require_pushed_authorization_requests
                      ? {}
                      : { require_pushed_authorization_requests: requirePushed }),
                    sign_up: signUp,
                    ...(signUp === 'domains' ? { sign_up_domains: linesOf(domains) } : {}),
                    // Sent only when changed: the console's own issuer stays RS256.
                    ...(signingAlg === settings.id_token_signing_alg
                      ? {}
                      : { id_token_signing_alg: signingAlg }),
                  },
                }),
              );
              done();
              onSaved();
              await orgs.reload();
            })
          }
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
          <CheckboxField
            label="Dynamic registration"
            name="dynamic_registration"
            checked={dynamicRegistration}
            onChange={setDynamicRegistration}
            hint="Applications such as MCP clients may register themselves at the issuer's /oauth/register. They are always asked for consent."
          />
          <CheckboxField
            label="Client ID Metadata Documents"
            name="metadata_documents"
            checked={metadataDocuments}
            onChange={setMetadataDocuments}
            hint="Applications may sign in with the https address of their metadata document as their client id."
          />
          <CheckboxField
            label="Require pushed authorization requests"
            name="require_pushed_authorization_requests"
            checked={requirePushed}
            onChange={setRequirePushed}
            hint="Every application must post its sign-in requests to the issuer's /oauth/par first (RFC 9126); /oauth/authorize refuses any other request. Discovery says so."
          />
          <SelectField
            label="ID token signing algorithm"
            name="id_token_signing_alg"
            value={signingAlg}
            options={SIGNING}
            onChange={setSigningAlg}
          />
          <p class="hint">
            ID tokens, logout tokens and signed userinfo use it; access tokens are always RS256. Discovery and
            the key set follow at once.
          </p>
          <SelectField
            label="Who can create an account"
            name="sign_up"
            value={signUp}
            options={SIGN_UP}
            onChange={setSignUp}
          />
          {signUp === 'domains' ? (
            <LinesField
              label="Email domains"
              name="sign_up_domains"
              value={domains}
              onInput={setDomains}
              hint="One per line, like example.com: only addresses there can create an account."
            />
          ) : null}
          <p class="hint">
            {signUp === 'invite_only'
              ? 'The sign-in page shows no “Create an account” link, and sign-up is refused.'
              : 'The sign-in page offers “Create an account”.'}
          </p>
          <div>
            <button type="submit">Save settings</button>
          </div>
        </Form>
      </div>
    </>
  );
}
