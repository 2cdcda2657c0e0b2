import { useState } from 'preact/hooks';
import { del, get, orgPath, post } from '../api/client.js';
import type { CreatedInvitation, Invitation, Role } from '../api/types.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { CheckboxField, Form, SelectField, TextField } from '../components/fields.js';
import { Done, EmptyState, ErrorNotice, Loading } from '../components/notices.js';
import { Pager } from '../components/pager.js';
import { SecretOnce } from '../components/secret-once.js';
import { when } from '../format.js';
import type { OrgScreenProps } from '../org-context.js';
import { useLoad } from '../use-load.js';

type Org = OrgScreenProps['org'];

/** The roles as the member invitation offers them, each with what it allows. */
const ROLE_CHOICES: readonly (readonly [Role, string])[] = [
  ['member', 'Member: can look'],
  ['owner', 'Owner: can change everything'],
];

/**
 * Invites an address: by mail (the link goes to the address) or as a link shown once here, with a
 * copy button, to pass on. `kind` `member` posts to the members route with a role; `user` to the
 * invitations route. The answer is the same whether the address has an account or not.
 */
export function InviteForm({
  org,
  kind,
  title,
  hint,
  onInvited,
}: {
  org: Org;
  kind: Invitation['kind'];
  title: string;
  hint: string;
  onInvited: () => void;
}) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [sendMail, setSendMail] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const [news, setNews] = useState<string | null>(null);
  const [link, setLink] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const headingId = `${kind}-invite`;
  return (
    <section class="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <ErrorNotice error={error} />
      {news ? <Done>{news}</Done> : null}
      {link ? <SecretOnce label="Invitation link" value={link} onDismiss={() => setLink(null)} /> : null}
      <Form
        label={title}
        onSubmit={async () => {
          setError(null);
          setNews(null);
          setLink(null);
          setBusy(true);
          try {
            const { data } =
              kind === 'member'
                ? await post<CreatedInvitation>(orgPath(org.slug, 'members'), {
                    email,
                    role,
                    send_mail: sendMail,
                  })
                : await post<CreatedInvitation>(orgPath(org.slug, 'invitations'), {
                    email,
                    send_mail: sendMail,
                  });
            setEmail('');
            setNews(
              data.url
                ? `${data.email} is invited. Send them the link below: it works once, until ${when(data.expires_at)}.`
                : `${data.email} is invited: the link is on its way by mail. It works once, until ${when(data.expires_at)}.`,
            );
            setLink(data.url ?? null);
            onInvited();
          } catch (e) {
            setError(e);
          } finally {
            setBusy(false);
          }
        }}
      >
        <TextField
          label="Email"
          type="email"
          name="email"
          value={email}
          onInput={setEmail}
          required
          hint={hint}
        />
        {kind === 'member' ? (
          <SelectField label="Role" name="role" value={role} options={ROLE_CHOICES} onChange={setRole} />
        ) : null}
        <CheckboxField
          label="Send the invitation by mail"
          checked={sendMail}
          onChange={setSendMail}
          hint="Off: you get a one-time link to pass on yourself."
        />
        <div class="actions">
          <button type="submit" disabled={busy}>
            {title}
          </button>
        </div>
      </Form>
    </section>
  );
}

/** The pending invitations of one kind, each withdrawable; `version` changes reload the list. */
export function PendingInvitations({
  org,
  kind,
  version,
}: {
  org: Org;
  kind: Invitation['kind'];
  version: number;
}) {
  const first = `${orgPath(org.slug, 'invitations')}?kind=${kind}&state=pending`;
  const [path, setPath] = useState(first);
  const [error, setError] = useState<unknown>(null);
  const [news, setNews] = useState<string | null>(null);
  const loaded = useLoad(async () => {
    const { data, links } = await get<Invitation[]>(path);
    return { invitations: data, links };
  }, [path, version]);
  const headingId = `${kind}-pending`;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Pending invitations</h2>
      <ErrorNotice error={error} />
      {news ? <Done>{news}</Done> : null}
      {loaded.state === 'loading' ? <Loading what="invitations" /> : null}
      {loaded.state === 'error' ? <ErrorNotice error={loaded.error} /> : null}
      {loaded.state === 'ok' && loaded.data.invitations.length === 0 ? (
        <EmptyState title="No pending invitations">
          <p>Invite someone with the form below: they accept with the link, in at most two steps.</p>
        </EmptyState>
      ) : null}
      {loaded.state === 'ok' && loaded.data.invitations.length > 0 ? (
        <>
          <div class="table-wrap">
            <table class="stack">
              <caption class="visually-hidden">Pending invitations to {org.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  {kind === 'member' ? <th scope="col">Role</th> : null}
                  <th scope="col">Sent</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {loaded.data.invitations.map((i) => (
                  <tr key={i.id}>
                    <td data-label="Email">{i.email}</td>
                    {kind === 'member' ? (
                      <td data-label="Role">{i.role === 'owner' ? 'Owner' : 'Member'}</td>
                    ) : null}
                    <td data-label="Sent">{i.mailed ? 'by mail' : 'as a link'}</td>
                    <td data-label="Expires">{when(i.expires_at)}</td>
                    <td data-label="Actions">
                      <ConfirmButton
                        question={`Withdraw the invitation of ${i.email}?`}
                        confirmLabel="Yes, withdraw"
                        onConfirm={async () => {
                          setError(null);
                          setNews(null);
                          try {
                            await del(orgPath(org.slug, 'invitations', i.id));
                            setNews(`The invitation of ${i.email} is withdrawn: its link no longer works.`);
                            loaded.reload();
                          } catch (e) {
                            setError(e);
                          }
                        }}
                      >
                        Withdraw
                      </ConfirmButton>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager label="Pages of invitations" links={loaded.data.links} onGo={setPath} />
        </>
      ) : null}
    </section>
  );
}
