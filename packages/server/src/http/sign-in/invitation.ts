import {
  type Acceptance,
  acceptAsExistingUser,
  acceptAsNewUser,
  INVITATION_PATH,
  type OpenedInvitation,
  openInvitation,
} from '../../domain/teams/index.js';
import type { Org } from '../../domain/types.js';
import { rateLimitKey } from '../client-ip.js';
import { browserSessionOf, pageLink, queryValue } from './context.js';
import { hostedPage, refuseForm, type Visit } from './hosted-page.js';
import {
  acceptedView,
  type ClosedReason,
  closedTitle,
  closedView,
  type InvitedRole,
  invitedView,
  signedInView,
} from './invitation-views.js';
import { ruleText, textsOf } from './page-texts.js';
import { type PageOptions, sendPage, throttledPage } from './respond.js';

type Pending = Extract<OpenedInvitation, { state: 'pending' }>;

/** What the invitee becomes: a user of the org, or a console owner or member of it. */
const roleOf = (opened: Pending): InvitedRole =>
  opened.row.kind === 'member' && opened.row.role !== null ? opened.row.role : 'user';

/*
 * GET and POST /invitation?token=… (DESIGN §16): the page an invitation link opens, on the org's
 * host (`user` invitations) or the console's (`member` ones). GET only shows the form (mail
 * scanners follow links); the POST accepts, in one step: a name and a password for someone new,
 * a sign-in for someone with an account. The page is the same whether the address has an account
 * or not (the link's holder may not be the invitee: an owner who asked for the link, say); only
 * the answer to the invitee's own choice tells, and a browser signed in as the invitee gets one
 * click. A used, expired, withdrawn or unknown link gets a page saying which, never an error.
 */

/** What the person typed into the form, shown again with what was wrong. */
interface Entered {
  firstName: string;
  lastName: string;
}

/** The form again, with what was wrong. */
interface FormState extends Partial<Entered> {
  error: string | null;
}

/** The page of a link that no longer opens anything: 404 when unknown, 410 when used or gone. */
function sendClosed({ org: host, request, reply }: Visit, reason: ClosedReason, org: Org | null) {
  const status = reason === 'unknown' ? 404 : 410;
  const texts = textsOf(request);
  return sendPage(
    reply,
    host.name,
    closedTitle(texts, reason),
    closedView(texts, reason, org?.name ?? null),
    {
      status,
    },
  );
}

/** The closed page for an invitation that is not pending. */
const sendNotPending = (visit: Visit, opened: Exclude<OpenedInvitation, Pending>) =>
  sendClosed(visit, opened.state, 'org' in opened ? opened.org : null);

/** Whether this browser is signed in as the invitee (then one click accepts). */
async function signedInAsInvitee({ ctx, org, request }: Visit, opened: Pending) {
  const session = await browserSessionOf(ctx, org, request);
  return opened.existing && session?.user.id === opened.existing.id ? session.user : null;
}

/** The invitation's form: one click for the invitee signed in here, else a name and a password or a sign-in. */
async function renderInvitation(
  visit: Visit,
  opened: Pending,
  token: string,
  state: FormState,
  options: PageOptions = {},
) {
  const { ctx, org: host, request, reply } = visit;
  const texts = textsOf(request);
  const base = {
    action: pageLink(ctx, request, INVITATION_PATH, {}),
    csrf: ctx.csrf.token(request, reply, 'invitation', []),
    token,
    orgName: opened.org.name,
    role: roleOf(opened),
    email: opened.row.email,
    error: state.error,
  };
  const title = texts.t('invitation.join', { org: opened.org.name });
  if ((await signedInAsInvitee(visit, opened)) !== null) {
    return sendPage(reply, host.name, title, signedInView(texts, base), options);
  }
  const body = invitedView(texts, {
    ...base,
    firstName: state.firstName ?? '',
    lastName: state.lastName ?? '',
    forgotHref: pageLink(ctx, request, '/password/forgot', {}),
  });
  return sendPage(reply, host.name, title, body, options);
}

/** The welcome page after accepting: on to the console (members) or the org's sign-in (users). */
function sendWelcome({ ctx, org: host, request, reply }: Visit, opened: Pending) {
  const texts = textsOf(request);
  const member = opened.row.kind === 'member';
  const body = acceptedView(texts, {
    orgName: opened.org.name,
    role: roleOf(opened),
    nextHref: member ? `${ctx.deps.config.baseUrl}/console/` : pageLink(ctx, request, '/login', {}),
    next: texts.t(member ? 'invitation.open_console' : 'login.submit'),
  });
  return sendPage(reply, host.name, texts.t('invitation.welcome', { org: opened.org.name }), body);
}

/** The form again for an address that has an account: never a second account (409). */
function sendHasAccount(visit: Visit, opened: Pending, token: string, entered: Entered) {
  const error = textsOf(visit.request).t('invitation.has_account');
  return renderInvitation(visit, opened, token, { error, ...entered }, { status: 409 });
}

/** An account was made for the address meanwhile: the invitation as it is now. */
async function sendNowHasAccount(visit: Visit, token: string, entered: Entered) {
  const again = await openInvitation(visit.ctx.deps, visit.org, token);
  if (again.state !== 'pending') return sendNotPending(visit, again);
  return sendHasAccount(visit, again, token, entered);
}

/** The page after an accept attempt: welcome, the form again with what was wrong, or closed. */
async function answer(visit: Visit, opened: Pending, token: string, outcome: Acceptance, entered: Entered) {
  if (outcome.ok) return sendWelcome(visit, opened);
  const texts = textsOf(visit.request);
  switch (outcome.reason) {
    case 'closed': {
      const now = await openInvitation(visit.ctx.deps, visit.org, token);
      const reason = now.state === 'pending' ? 'accepted' : now.state;
      return sendClosed(visit, reason, 'org' in now ? now.org : opened.org);
    }
    case 'invalid': {
      const error = texts.t('invitation.wrong_password');
      return renderInvitation(visit, opened, token, { error }, { status: 400 });
    }
    case 'throttled': {
      const { error, options } = throttledPage(texts, outcome.retryAfterS, 'login.throttled');
      return renderInvitation(visit, opened, token, { error }, options);
    }
    case 'input': {
      const error = texts.t('invitation.check_form', { detail: ruleText(texts, outcome.problem) });
      return renderInvitation(visit, opened, token, { error, ...entered }, { status: 400 });
    }
    case 'exists':
      return sendNowHasAccount(visit, token, entered);
  }
}

/**
 * Accepting as someone with an account: this browser's sign-in, when it is signed in as the
 * invitee, else the password, checked (and throttled) as the login form does, in the same words
 * whether the account exists.
 */
async function acceptSignedIn(visit: Visit, opened: Pending, password: string) {
  const { ctx, request } = visit;
  const user = await signedInAsInvitee(visit, opened);
  const proof =
    user !== null
      ? { signedIn: user }
      : { password, ip: rateLimitKey(request), deviceToken: ctx.cookies.readDevice(request) };
  return acceptAsExistingUser(ctx.deps, opened, proof);
}

export const invitationPage = hostedPage(
  { path: INVITATION_PATH, summary: 'an invitation link: the form that accepts it' },
  async (visit) => {
    const token = queryValue(visit.request, 'token') ?? '';
    const opened = await openInvitation(visit.ctx.deps, visit.org, token);
    if (opened.state !== 'pending') return sendNotPending(visit, opened);
    return renderInvitation(visit, opened, token, { error: null });
  },
);

export const invitationAccept = hostedPage(
  {
    path: INVITATION_PATH,
    summary: 'accept an invitation: a sign-in, or a name and a password',
    form: ['csrf', 'token', 'step', 'first_name', 'last_name', 'password'],
  },
  async (visit) => {
    const { ctx, org, request, form } = visit;
    if (!ctx.csrf.check(request, 'invitation', [], form.csrf)) return refuseForm(visit);
    const opened = await openInvitation(ctx.deps, org, form.token);
    if (opened.state !== 'pending') return sendNotPending(visit, opened);
    const entered = { firstName: form.first_name, lastName: form.last_name };
    if (form.step === 'join') {
      const outcome = await acceptSignedIn(visit, opened, form.password);
      return answer(visit, opened, form.token, outcome, entered);
    }
    // A name and a password for an address that has an account: never a second account.
    if (opened.existing) return sendHasAccount(visit, opened, form.token, entered);
    const outcome = await acceptAsNewUser(ctx.deps, opened, { ...entered, password: form.password });
    return answer(visit, opened, form.token, outcome, entered);
  },
);
