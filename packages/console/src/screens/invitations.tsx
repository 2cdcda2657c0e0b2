import { useState } from 'preact/hooks';
import { canWrite, type OrgScreenProps } from '../org-context.js';
import { InviteForm, PendingInvitations } from './invitation-parts.js';

/**
 * Invitations of the org's end users (owners only, like the API): invite by mail or by a link
 * shown once, see who has not accepted yet, withdraw an invitation.
 */
export function Invitations({ org }: OrgScreenProps) {
  const [version, setVersion] = useState(0);
  if (!canWrite(org)) {
    return (
      <>
        <h1>Invitations</h1>
        <p class="notice info">Only owners of this organization can see and send its invitations.</p>
      </>
    );
  }
  return (
    <>
      <h1>Invitations</h1>
      <p class="muted">
        Invite people to be users of {org.name}. They accept on the organization's sign-in pages: with an
        account there they sign in, otherwise they choose a name and a password. Each link works once, for 7
        days, whatever the sign-up setting.
      </p>
      <PendingInvitations org={org} kind="user" version={version} />
      <InviteForm
        org={org}
        kind="user"
        title="Invite a user"
        hint="The address the invitation is for."
        onInvited={() => setVersion((v) => v + 1)}
      />
    </>
  );
}
