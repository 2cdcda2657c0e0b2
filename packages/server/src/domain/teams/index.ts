/**
 * The public face of domain/teams/: what the HTTP layer, the worker and the commands may use of
 * it. Everything else in the folder is the feature's own (the lint refuses a deeper import from
 * outside the domain).
 */
export {
  type Acceptance,
  acceptAsExistingUser,
  acceptAsNewUser,
  type OpenedInvitation,
  openInvitation,
} from './invitation-acceptance.js';
export {
  type CreatedInvitation,
  createInvitation,
  INVITATION_PATH,
  type Invitation,
  listInvitations,
  requireInvitation,
  revokeInvitation,
} from './invitations.js';
