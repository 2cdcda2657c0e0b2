import { useState } from 'preact/hooks';
import { api, body, ok } from '../api/client.js';
import { listPage } from '../api/lists.js';
import { oneIn } from '../api/params.js';
import type { Invitation, Role } from '../api/types.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { CheckboxField, Form, SelectField, TextField } from '../components/fields.js';
import { ListTable } from '../components/list-table.js';
import { Done, EmptyState, ErrorNotice } from '../components/notices.js';
import { SecretOnce } from '../components/secret-once.js';
import { when } from '../format.js';
import type { OrgScreenProps } from '../org-context.js';
import { useAction } from '../use-action.js';
import { useLoad } from '../use-load.js';
import { usePage } from '../use-page.js';

type Org = OrgScreenProps['org'];

/** The roles as the member invitation offers them, each with what it allows. */
const ROLE_CHOICES: readonly (readonly [Role, string])[] = [
  ['member', 'Member: can look'],
  ['owner', 'Owner: can change everything'],
];

/**
 * The pending invitations of one kind, then the form that sends one: an invitation sent shows in the
 * list at once.
 */
export function InvitationsOf({
  org,
  kind,
  title,
  hint,
}: {
  org: Org;
  kind: Invitation['kind'];
  title: string;
  hint: string;
}) {
  const [version, setVersion] = useState(0);
  return (
    <>
      <PendingInvitations org={org} kind={kind} version={version} />
      <InviteForm
        org={org}
        kind={kind}
        title={title}
        hint={hint}
        onInvited={() => setVersion((v) => v + 1)}
      />
    </>
  );
}

/**
 * Invites an address: by mail (the link goes to the address) or as a link shown once here, with a
 * copy button, to pass on. `kind` `member` posts to the members route with a role; `user` to the
 * invitations route. The answer is the same whether the address has an account or not.
 */
function InviteForm({
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
  const { error, busy, run } = useAction();
  const [news, setNews] = useState<string | null>(null);
  const [link, setLink] = useState<string | null>(null);
  const headingId = `${kind}-invite`;
  return (
    <section class="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <ErrorNotice error={error} />
      {news ? <Done>{news}</Done> : null}
      {link ? <SecretOnce label="Invitation link" value={link} onDismiss={() => setLink(null)} /> : null}
      <Form
        label={title}
        onSubmit={() => {
          setNews(null);
          setLink(null);
          return run(async () => {
            const inOrg = { path: { org: org.slug } };
            const data = await body(
              kind === 'member'
                ? api.POST('/organizations/{org}/members', {
                    params: inOrg,
                    body: { email, role, send_mail: sendMail },
                  })
                : api.POST('/organizations/{org}/invitations', {
                    params: inOrg,
                    body: { email, send_mail: sendMail },
                  }),
            );
            setEmail('');
            setNews(
              data.url
                ? `${data.email} is invited. Send them the link below: it works once, until ${when(data.expires_at)}.`
                : `${data.email} is invited: the link is on its way by mail. It works once, until ${when(data.expires_at)}.`,
            );
            setLink(data.url ?? null);
            onInvited();
          });
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
function PendingInvitations({ org, kind, version }: { org: Org; kind: Invitation['kind']; version: number }) {
  const { page, go } = usePage();
  const { error, run } = useAction();
  const [news, setNews] = useState<string | null>(null);
  const loaded = useLoad(
    () =>
      listPage(
        api.GET('/organizations/{org}/invitations', {
          params: { path: { org: org.slug }, query: { kind, state: 'pending', page } },
        }),
      ),
    [org.slug, kind, page, version],
  );
  const headingId = `${kind}-pending`;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Pending invitations</h2>
      <ErrorNotice error={error} />
      {news ? <Done>{news}</Done> : null}
      <ListTable
        loaded={loaded}
        what="invitations"
        pager="Pages of invitations"
        onGo={go}
        empty={
          <EmptyState title="No pending invitations">
            <p>Invite someone with the form below: they accept with the link, in at most two steps.</p>
          </EmptyState>
        }
        caption={`Pending invitations to ${org.name}`}
        rowKey={(i) => i.id}
        columns={[
          { label: 'Email', cell: (i) => i.email },
          kind === 'member' && { label: 'Role', cell: (i) => (i.role === 'owner' ? 'Owner' : 'Member') },
          { label: 'Sent', cell: (i) => (i.mailed ? 'by mail' : 'as a link') },
          { label: 'Expires', cell: (i) => when(i.expires_at) },
          {
            label: 'Actions',
            cell: (i) => (
              <ConfirmButton
                question={`Withdraw the invitation of ${i.email}?`}
                confirmLabel="Yes, withdraw"
                onConfirm={async () => {
                  setNews(null);
                  await run(async () => {
                    await ok(api.DELETE('/organizations/{org}/invitations/{id}', oneIn(org.slug, i.id)));
                    setNews(`The invitation of ${i.email} is withdrawn: its link no longer works.`);
                    loaded.reload();
                  });
                }}
              >
                Withdraw
              </ConfirmButton>
            ),
          },
        ]}
      />
    </section>
  );
}
