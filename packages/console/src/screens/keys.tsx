import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { get, orgPath, post } from '../api/client.js';
import type { SigningKey } from '../api/types.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { Done, EmptyState, ErrorNotice, Loading } from '../components/notices.js';
import { Pager } from '../components/pager.js';
import { when } from '../format.js';
import { canWrite, type OrgScreenProps } from '../org-context.js';
import { useLoad } from '../use-load.js';

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

/** The org's published signing keys, and their rotation (owners only, like the API). */
export function Keys({ org }: OrgScreenProps) {
  if (!canWrite(org)) {
    return (
      <>
        <h1>Signing keys</h1>
        <p class="notice info">Only owners of this organization can see and rotate its signing keys.</p>
      </>
    );
  }
  return <KeyList org={org} />;
}

function KeyList({ org }: { org: OrgScreenProps['org'] }) {
  const first = orgPath(org.slug, 'keys');
  const [path, setPath] = useState(first);
  const [rotated, setRotated] = useState<string | null>(null);
  const loaded = useLoad(async () => {
    const { data, links } = await get<SigningKey[]>(path);
    return { keys: data, links };
  }, [path]);
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
      {loaded.state === 'loading' ? <Loading what="signing keys" /> : null}
      {loaded.state === 'error' ? <ErrorNotice error={loaded.error} /> : null}
      {loaded.state === 'ok' && loaded.data.keys.length === 0 ? (
        <EmptyState title="No published keys">
          <p>Rotate the keys below to make an active and a next key.</p>
        </EmptyState>
      ) : null}
      {loaded.state === 'ok' && loaded.data.keys.length > 0 ? (
        <>
          <KeyTable keys={loaded.data.keys} />
          <Pager label="Pages of signing keys" links={loaded.data.links} onGo={setPath} />
        </>
      ) : null}
      <Rotate
        org={org}
        rotated={rotated}
        onRotated={(kid) => {
          setRotated(kid);
          if (path === first) loaded.reload();
          else setPath(first);
        }}
      />
    </>
  );
}

function KeyTable({ keys }: { keys: SigningKey[] }) {
  return (
    <div class="table-wrap">
      <table class="stack">
        <caption class="visually-hidden">Published signing keys</caption>
        <thead>
          <tr>
            <th scope="col">Key id (kid)</th>
            <th scope="col">State</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr key={k.kid}>
              <td data-label="Key id">
                <code>{k.kid}</code>
              </td>
              <td data-label="State">
                <span class={badgeClass(k.state)}>{STATES[k.state].label}</span>
              </td>
              <td data-label="Created">{when(k.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
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
  const [error, setError] = useState<unknown>(null);
  return (
    <section class="panel" aria-labelledby="rotate-keys">
      <h2 id="rotate-keys">Rotate keys</h2>
      <p>
        Rotation makes the next key the active one, retires the key that signs now and publishes a new next
        key. Tokens already issued stay valid until they expire: the retired key stays published until then.
        Rotate on a schedule, or at once if you think a key has leaked.
      </p>
      <ErrorNotice error={error} />
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
          setError(null);
          try {
            const { data } = await post<{ kid: string }>(orgPath(org.slug, 'keys', 'rotate'));
            onRotated(data.kid);
          } catch (e) {
            setError(e);
          }
        }}
      >
        Rotate keys
      </ConfirmButton>
    </section>
  );
}
