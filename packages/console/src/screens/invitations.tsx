import { forOwners } from '../components/page-head.js';
import type { OrgScreenProps } from '../org-context.js';
import { InvitationsOf } from './invitation-parts.js';

function InvitationsOwnersOnly() {
  return <p class="notice info">Only owners of this organization can see and send its invitations.</p>;
}

/**
 * Invitations of the org's end users (owners only, like the API): invite by mail or by a link
 * shown once, see who has not accepted yet, withdraw an invitation.
 */
export const Invitations = forOwners('Invitations', InvitationsOwnersOnly, UserInvitations);

function UserInvitations({ org }: { org: OrgScreenProps['org'] }) {
  return (
    <>
      <h1>Invitations</h1>
      <p class="muted">
        Invite people to be users of {org.name}. They accept on the organization's sign-in pages: with an
        account there they sign in, otherwise they choose a name and a password. Each link works once, for 7
        days, whatever the sign-up setting.
      </p>
      <InvitationsOf org={org} kind="user" title="Invite a user" hint="The address the invitation is for." />
    </>
  );
}
