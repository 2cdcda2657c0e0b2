import { useEffect, useId, useState } from 'preact/hooks';
import { api, ok } from '../api/client.js';
import { membersPage } from '../api/lists.js';
import { oneIn } from '../api/params.js';
import type { Member, Role } from '../api/types.js';
import { whoAmI } from '../auth/session.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { ListView } from '../components/list-view.js';
import { Done, EmptyState, ErrorNotice, ReadOnlyNote } from '../components/notices.js';
import { canWrite, type OrgScreenProps, useOrgs } from '../org-context.js';
import { useListPage } from '../use-list-page.js';
import { usePage } from '../use-page.js';
import { InvitationsOf } from './invitation-parts.js';

const ROLES: readonly (readonly [Role, string])[] = [
  ['member', 'Member'],
  ['owner', 'Owner'],
];
const roleName = (role: Role) => (role === 'owner' ? 'Owner' : 'Member');

/**
 * The console users of the org: every member sees who they are; owners invite people (nobody is
 * added without accepting), see and withdraw pending invitations, change roles and remove members.
 * The API keeps the last owner (409, shown as it says).
 */
export function Members({ org }: OrgScreenProps) {
  const { page, go, first } = usePage();
  const [news, setNews] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const orgs = useOrgs();
  useEffect(first, [org.slug]);
  const loaded = useListPage(org.slug, page, membersPage);
  const owner = canWrite(org);
  /** Runs a change: its news or its error above the table, then the list read again. */
  const change = async (work: () => Promise<string>) => {
    setError(null);
    setNews(null);
    try {
      setNews(await work());
      loaded.reload();
      // Your own role may have changed: the navigation follows.
      await orgs.reload();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <>
      <h1>Members</h1>
      <p class="muted">
        The people who manage this organization in the console. Owners change everything; members can look at
        the settings and this list.
      </p>
      {owner ? null : <ReadOnlyNote />}
      <ErrorNotice error={error} />
      {news ? <Done>{news}</Done> : null}
      <ListView
        loaded={loaded}
        what="members"
        pager="Pages of members"
        onGo={go}
        empty={
          <EmptyState title="No members on this page">
            <p>Go back to the first page of the list.</p>
          </EmptyState>
        }
      >
        {(members) => <MemberTable org={org} members={members} change={change} />}
      </ListView>
      {owner ? (
        <InvitationsOf
          org={org}
          kind="member"
          title="Invite member"
          hint="Anyone, with a console account or not: they become a member only once they accept the invitation."
        />
      ) : null}
    </>
  );
}

type Change = (work: () => Promise<string>) => Promise<void>;

function MemberTable({
  org,
  members,
  change,
}: {
  org: OrgScreenProps['org'];
  members: Member[];
  change: Change;
}) {
  const owner = canWrite(org);
  const me = whoAmI();
  return (
    <div class="table-wrap">
      <table class="stack">
        <caption class="visually-hidden">Members of {org.name}</caption>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">User id</th>
            {owner ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {members.map((m) => (
            <tr key={m.user_id}>
              <td data-label="Email">
                <span>
                  {m.email}
                  {me?.sub === m.user_id ? <span class="muted"> (you)</span> : null}
                </span>
              </td>
              <td data-label="Role">
                {owner ? (
                  <RoleChoice org={org} member={m} change={change} />
                ) : (
                  <span class={m.role === 'owner' ? 'badge info' : 'badge'}>{roleName(m.role)}</span>
                )}
              </td>
              <td data-label="User id">
                <code>{m.user_id}</code>
              </td>
              {owner ? (
                <td data-label="Actions">
                  <ConfirmButton
                    question={`Remove ${m.email} from ${org.name}?`}
                    confirmLabel="Yes, remove"
                    onConfirm={() =>
                      change(async () => {
                        await ok(api.DELETE('/organizations/{org}/members/{id}', oneIn(org.slug, m.user_id)));
                        return `${m.email} is no longer a member.`;
                      })
                    }
                  >
                    Remove
                  </ConfirmButton>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A member's role as a select and its save button, in the row. */
function RoleChoice({ org, member, change }: { org: OrgScreenProps['org']; member: Member; change: Change }) {
  const id = useId();
  const [role, setRole] = useState<Role>(member.role);
  const [busy, setBusy] = useState(false);
  useEffect(() => setRole(member.role), [member.role]);
  return (
    <div class="role-choice">
      <label for={id} class="visually-hidden">
        Role of {member.email}
      </label>
      <select
        id={id}
        value={role}
        onChange={(e) => setRole((e.currentTarget as HTMLSelectElement).value as Role)}
      >
        {ROLES.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
      <button
        type="button"
        class="secondary"
        disabled={busy || role === member.role}
        onClick={async () => {
          setBusy(true);
          await change(async () => {
            await ok(
              api.PATCH('/organizations/{org}/members/{id}', {
                ...oneIn(org.slug, member.user_id),
                body: { role },
              }),
            );
            return `${member.email} is now ${role === 'owner' ? 'an owner' : 'a member'}.`;
          });
          setBusy(false);
        }}
      >
        Save role
      </button>
    </div>
  );
}
