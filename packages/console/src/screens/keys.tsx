import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { api, body } from '../api/client.js';
import { keysPage } from '../api/lists.js';
import { inOrg } from '../api/params.js';
import type { SigningKey } from '../api/types.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { ListTable } from '../components/list-table.js';
import { Done, EmptyState, ErrorNotice } from '../components/notices.js';
import { forOwners } from '../components/page-head.js';
import { when } from '../format.js';
import type { OrgScreenProps } from '../org-context.js';
import { useAction } from '../use-action.js';
import { useListPage } from '../use-list-page.js';
import { usePage } from '../use-page.js';

/** Each state: its badge, its name, and what it means for tokens. */
const STATES: Record<SigningKey['state'], { badge: string; label: string; meaning: string }> = {
  active: {
    badge: 'ok',
    label: 'Active',
    meaning: 'Signs every token the organization issues now.',
  },
  next: {
    badge: 'info',
    label: 'Next',
    meaning:
      'Already published, so apps have it before it is used; it becomes the active key at the next rotation.',
  },
  retired: {
    badge: '',
    label: 'Retired',
    meaning: 'Signs nothing any more; it stays published until the tokens it signed have expired.',
  },
};
const badgeClass = (state: SigningKey['state']) => `badge ${STATES[state].badge}`.trim();
const ORDER: SigningKey['state'][] = ['active', 'next', 'retired'];

function KeysOwnersOnly() {
  return <p class="notice info">Only owners of this organization can see and rotate its signing keys.</p>;
}

/** The org's published signing keys, and their rotation (owners only, like the API). */
export const Keys = forOwners('Signing keys', KeysOwnersOnly, KeyList);

function KeyList({ org }: { org: OrgScreenProps['org'] }) {
  const { page, go, first } = usePage();
  const [rotated, setRotated] = useState<string | null>(null);
  const loaded = useListPage(org.slug, page, keysPage);
  return (
    <>
      <h1>Signing keys</h1>
      <p class="muted">
        The keys that sign this organization's ID and access tokens. Apps check the signatures with the public
        keys the issuer publishes (its JWKS); the private keys never leave Tessera.
      </p>
      <section aria-labelledby="key-states">
        <h2 id="key-states">What the states mean</h2>
        <dl class="facts key-states">
          {ORDER.map((state) => (
            <Fragment key={state}>
              <dt>
                <span class={badgeClass(state)}>{STATES[state].label}</span>
              </dt>
              <dd>{STATES[state].meaning}</dd>
            </Fragment>
          ))}
        </dl>
      </section>
      <h2>Published keys</h2>
      <ListTable
        loaded={loaded}
        what="signing keys"
        pager="Pages of signing keys"
        onGo={go}
        empty={
          <EmptyState title="No published keys">
            <p>Rotate the keys below to make an active and a next key.</p>
          </EmptyState>
        }
        caption="Published signing keys"
        rowKey={(k) => k.kid}
        columns={[
          { label: 'Key id (kid)', short: 'Key id', cell: (k) => <code>{k.kid}</code> },
          {
            label: 'State',
            cell: (k) => <span class={badgeClass(k.state)}>{STATES[k.state].label}</span>,
          },
          { label: 'Created', cell: (k) => when(k.created_at) },
        ]}
      />
      <Rotate
        org={org}
        rotated={rotated}
        onRotated={(kid) => {
          setRotated(kid);
          if (page === 0) loaded.reload();
          else first();
        }}
      />
    </>
  );
}

function Rotate({
  org,
  rotated,
  onRotated,
}: {
  org: OrgScreenProps['org'];
  rotated: string | null;
  onRotated: (kid: string) => void;
}) {
  const action = useAction();
  return (
    <section class="panel" aria-labelledby="rotate-keys">
      <h2 id="rotate-keys">Rotate keys</h2>
      <p>
        Rotation makes the next key the active one, retires the key that signs now and publishes a new next
        key. Tokens already issued stay valid until they expire: the retired key stays published until then.
        Rotate on a schedule, or at once if you think a key has leaked.
      </p>
      <ErrorNotice error={action.error} />
      {rotated ? (
        <Done>
          Keys rotated: <code>{rotated}</code> is the active key now and signs from here on.
        </Done>
      ) : null}
      <ConfirmButton
        danger={false}
        question="Rotate the signing keys now?"
        confirmLabel="Yes, rotate"
        onConfirm={async () => {
          await action.run(async () => {
            const data = await body(api.POST('/organizations/{org}/keys/rotate', inOrg(org.slug)));
            onRotated(data.kid);
          });
        }}
      >
        Rotate keys
      </ConfirmButton>
    </section>
  );
}
