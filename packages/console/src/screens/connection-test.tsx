import { useState } from 'preact/hooks';
import { api, body } from '../api/client.js';
import { inOrg } from '../api/params.js';
import { type Connection, type ConnectionTest, connectionTestOf } from '../api/types.js';
import { Fact } from '../components/fact.js';
import { Done, ErrorNotice } from '../components/notices.js';
import { useAction } from '../use-action.js';
import type { ConnectionDraft } from './connection-fields.js';

/** What "Test connection" sends: the provider's side of the draft only. */
function testBody(type: Connection['type'], d: ConnectionDraft) {
  if (type === 'oidc') return { type, issuer: d.issuer.trim() };
  return d.samlSource === 'metadata'
    ? { type, metadata_xml: d.metadataXml }
    : { type, idp_entity_id: d.entityId.trim(), sso_url: d.ssoUrl.trim(), certificate: d.certificate };
}

function Found({ result }: { result: ConnectionTest }) {
  if (result.type === 'oidc') {
    const o = result.oidc;
    const algs = o.id_token_signing_alg_values_supported.join(', ') || 'none named';
    return (
      <>
        <Done>
          The provider answered: its configuration names this issuer, and its endpoints are allowed.
        </Done>
        <dl class="facts connection-test">
          <Fact term="Issuer">{o.issuer}</Fact>
          <Fact term="Authorization endpoint">{o.authorization_endpoint}</Fact>
          <Fact term="Token endpoint">{o.token_endpoint}</Fact>
          <Fact term="Keys (JWKS)">{o.jwks_uri}</Fact>
          <Fact term="Userinfo endpoint">{o.userinfo_endpoint ?? 'none'}</Fact>
          <Fact term="ID token signing algorithms">{algs}</Fact>
        </dl>
      </>
    );
  }
  const s = result.saml;
  return (
    <>
      <Done>The identity provider’s details read correctly.</Done>
      <dl class="facts connection-test">
        <Fact term="IdP entity id">{s.idp_entity_id}</Fact>
        <Fact term="IdP sign-in URL">{s.sso_url}</Fact>
        {s.certificates.map((c) => (
          <Fact term="Signing certificate">
            {c.subject.replace(/\n/g, ', ')} (valid until {c.valid_to.slice(0, 10)})
          </Fact>
        ))}
      </dl>
    </>
  );
}

/**
 * "Test connection": checks the provider the form names before it is saved (the OIDC issuer's
 * discovery, fetched by the server; SAML metadata read as saving reads it), and shows what was found
 * or what is wrong. Nothing is stored.
 */
export function TestConnection({
  slug,
  type,
  draft,
}: {
  slug: string;
  type: Connection['type'];
  draft: ConnectionDraft;
}) {
  const [result, setResult] = useState<ConnectionTest | null>(null);
  const { error, busy, run } = useAction();
  return (
    <div class="connection-test" aria-live="polite">
      <button
        type="button"
        class="secondary"
        disabled={busy}
        onClick={() => {
          setResult(null);
          return run(async () => {
            const found = await body(
              api.POST('/organizations/{org}/connections/test', {
                ...inOrg(slug),
                body: testBody(type, draft),
              }),
            );
            setResult(connectionTestOf(found));
          });
        }}
      >
        {busy ? 'Testing…' : 'Test connection'}
      </button>
      <ErrorNotice error={error} />
      {result ? <Found result={result} /> : null}
    </div>
  );
}
