import { useState } from 'preact/hooks';
import { api, body, ok, type Pending } from '../api/client.js';
import { inOrg, oneIn } from '../api/params.js';
import type { Domain } from '../api/types.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { CopyValue } from '../components/copy-value.js';
import { Form, TextField } from '../components/fields.js';
import { Done, EmptyState, ErrorNotice, LoadNotice } from '../components/notices.js';
import { forOwners, PageHead } from '../components/page-head.js';
import { when } from '../format.js';
import type { OrgScreenProps } from '../org-context.js';
import { useAction } from '../use-action.js';
import { useLoad } from '../use-load.js';

type Org = OrgScreenProps['org'];

/** The org's own domains (owners only, like the API): add, prove with DNS, move the issuer there. */
export const Domains = forOwners('Domains', DomainsOwnersOnly, DomainList);

function DomainsOwnersOnly() {
  return (
    <p class="notice info">
      Only owners of this organization can add its own domains and move its sign-in pages to one.
    </p>
  );
}

function DomainList({ org }: { org: Org }) {
  const [news, setNews] = useState<string | null>(null);
  const loaded = useLoad(() => body(api.GET('/organizations/{org}/domains', inOrg(org.slug))), [org.slug]);
  const done = (text: string) => {
    setNews(text);
    loaded.reload();
  };
  return (
    <>
      <PageHead title="Domains" action={null} />
      <p class="muted">
        Serve this organization’s sign-in pages and tokens from a domain of your own, such as{' '}
        <code>login.example.com</code>: add it, create the DNS record shown, verify, then make it primary.
      </p>
      {news ? <Done>{news}</Done> : null}
      <NewDomain org={org} onAdded={(d) => done(`${d.name} added: create its TXT record, then verify it.`)} />
      {loaded.state !== 'ok' ? (
        <LoadNotice loaded={loaded} what="domains" />
      ) : loaded.data.data.length === 0 ? (
        <EmptyState title="No domains yet">
          <p>Add a domain above: Tessera answers with the DNS record that proves it is yours.</p>
        </EmptyState>
      ) : (
        <ul class="domain-list">
          {loaded.data.data.map((d) => (
            <li key={d.id}>
              <DomainCard org={org} domain={d} onChanged={done} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function NewDomain({ org, onAdded }: { org: Org; onAdded: (d: Domain) => void }) {
  const [name, setName] = useState('');
  const { error, busy, run } = useAction();
  return (
    <section class="panel" aria-labelledby="new-domain-title">
      <h2 id="new-domain-title">Add a domain</h2>
      <Form
        label="Add a domain"
        onSubmit={() =>
          run(async () => {
            const domain = await body(
              api.POST('/organizations/{org}/domains', {
                ...inOrg(org.slug),
                body: { name },
              }),
            );
            setName('');
            onAdded(domain);
          })
        }
      >
        <TextField
          label="Domain"
          value={name}
          onInput={setName}
          required
          placeholder="login.example.com"
          hint="A host name of your own; its DNS and its certificate are yours to manage."
        />
        <ErrorNotice error={error} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            Add domain
          </button>
        </div>
      </Form>
    </section>
  );
}

function DomainCard({
  org,
  domain,
  onChanged,
}: {
  org: Org;
  domain: Domain;
  onChanged: (news: string) => void;
}) {
  const { error, busy, run } = useAction();
  const one = oneIn(org.slug, domain.id);
  /** Sends one change of the domain (`send`); once it went through, the list is read again with `news`. */
  const change = (send: () => Pending, news: string) =>
    run(async () => {
      await ok(send());
      onChanged(news);
    }).then(() => undefined);
  const headingId = `domain-${domain.id}`;
  return (
    <section class="panel domain" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {domain.name}{' '}
        <span class={`badge ${domain.primary ? 'ok' : domain.verified ? 'info' : ''}`.trim()}>
          {domain.primary ? 'Primary' : domain.verified ? 'Verified' : 'Not verified'}
        </span>
      </h2>
      {domain.verified ? (
        <p class="muted">
          Verified {when(domain.verified_at ?? '')}.{' '}
          {domain.primary ? 'The issuer is ' : 'As primary, the issuer would be '}
          <code class="url-wrap">{domain.issuer}</code>
        </p>
      ) : (
        <>
          <p>Create this DNS record at your DNS provider, then verify:</p>
          <CopyValue label="Record name" value={domain.txt_record.name} hint="Type TXT" />
          <CopyValue label="Record value" value={domain.txt_record.value} />
        </>
      )}
      <ErrorNotice error={error} />
      <div class="actions">
        {domain.verified ? null : (
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              change(
                () => api.POST('/organizations/{org}/domains/{id}/verify', one),
                `${domain.name} is verified.`,
              )
            }
          >
            Verify
          </button>
        )}
        {domain.verified && !domain.primary ? (
          <ConfirmButton
            danger={false}
            question={`Move the issuer to ${domain.name}? Apps must then use ${domain.issuer}`}
            confirmLabel="Make primary"
            onConfirm={() =>
              change(
                () => api.PATCH('/organizations/{org}/domains/{id}', { ...one, body: { primary: true } }),
                `The issuer is now ${domain.issuer}`,
              )
            }
          >
            Make primary
          </ConfirmButton>
        ) : null}
        {domain.primary ? (
          <ConfirmButton
            danger={false}
            question="Move the issuer back to Tessera’s host for this organization?"
            confirmLabel="Stop using it"
            onConfirm={() =>
              change(
                () => api.PATCH('/organizations/{org}/domains/{id}', { ...one, body: { primary: false } }),
                `${domain.name} is no longer primary.`,
              )
            }
          >
            Stop using as primary
          </ConfirmButton>
        ) : (
          <ConfirmButton
            question={`Delete ${domain.name}?`}
            confirmLabel="Delete"
            onConfirm={() =>
              change(() => api.DELETE('/organizations/{org}/domains/{id}', one), `${domain.name} deleted.`)
            }
          >
            Delete
          </ConfirmButton>
        )}
      </div>
    </section>
  );
}
