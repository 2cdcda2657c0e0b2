import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
import {
  browserSessionOf,
  field,
  formOf,
  type PageContext,
  pageLink,
  pageRoute,
  queryValue,
} from './context.js';
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
import { type PageOptions, sendErrorPage, sendPage, throttledPage } from './respond.js';

type Pending = Extract<OpenedInvitation, { state: 'pending' }>;

/** What the invitee becomes: a user of the org, or a console owner or member of it. */
const roleOf = (opened: Pending): InvitedRole =>
  opened.row.kind === 'member' && opened.row.role !== null ? opened.row.role : 'user';

/**
 * GET and POST /invitation?token=… (DESIGN §16): the page an invitation link opens, on the org's
 * host (`user` invitations) or the console's (`member` ones). GET only shows the form (mail
 * scanners follow links); the POST accepts, in one step: a name and a password for someone new,
 * a sign-in for someone with an account. The page is the same whether the address has an account
 * or not (the link's holder may not be the invitee: an owner who asked for the link, say); only
 * the answer to the invitee's own choice tells, and a browser signed in as the invitee gets one
 * click. A used, expired, withdrawn or unknown link gets a page saying which, never an error.
 */
export function invitationPages(app: FastifyInstance, ctx: PageContext) {
  function sendClosed(
    request: FastifyRequest,
    reply: FastifyReply,
    host: Org,
    reason: ClosedReason,
    org: Org | null,
  ) {
    const status = reason === 'unknown' ? 404 : 410;
    return sendPage(
      reply,
      host.name,
      closedTitle(textsOf(request), reason),
      closedView(textsOf(request), reason, org?.name ?? null),
      { status },
    );
  }

  async function render(
    host: Org,
    request: FastifyRequest,
    reply: FastifyReply,
    opened: Pending,
    token: string,
    state: { error: string | null; firstName?: string; lastName?: string },
    options: PageOptions = {},
  ) {
    const base = {
      action: pageLink(ctx, request, INVITATION_PATH, {}),
      csrf: ctx.csrf.token(request, reply, 'invitation', []),
      token,
      orgName: opened.org.name,
      role: roleOf(opened),
      email: opened.row.email,
      error: state.error,
    };
    const session = await browserSessionOf(ctx, host, request);
    if (opened.existing && session?.user.id === opened.existing.id) {
      return sendPage(
        reply,
        host.name,
        textsOf(request).t('invitation.join', { org: opened.org.name }),
        signedInView(textsOf(request), base),
        options,
      );
    }
    const body = invitedView(textsOf(request), {
      ...base,
      firstName: state.firstName ?? '',
      lastName: state.lastName ?? '',
      forgotHref: pageLink(ctx, request, '/password/forgot', {}),
    });
    return sendPage(
      reply,
      host.name,
      textsOf(request).t('invitation.join', { org: opened.org.name }),
      body,
      options,
    );
  }

  /** The page after an accept attempt: welcome, the form again with what was wrong, or closed. */
  async function answer(
    host: Org,
    request: FastifyRequest,
    reply: FastifyReply,
    opened: Pending,
    token: string,
    outcome: Acceptance,
    entered: { firstName: string; lastName: string },
  ) {
    if (outcome.ok) {
      const member = opened.row.kind === 'member';
      const body = acceptedView(textsOf(request), {
        orgName: opened.org.name,
        role: roleOf(opened),
        nextHref: member ? `${ctx.deps.config.baseUrl}/console/` : pageLink(ctx, request, '/login', {}),
        next: textsOf(request).t(member ? 'invitation.open_console' : 'login.submit'),
      });
      return sendPage(
        reply,
        host.name,
        textsOf(request).t('invitation.welcome', { org: opened.org.name }),
        body,
      );
    }
    switch (outcome.reason) {
      case 'closed': {
        const now = await openInvitation(ctx.deps, host, token);
        const reason = now.state === 'pending' ? 'accepted' : now.state;
        return sendClosed(request, reply, host, reason, 'org' in now ? now.org : opened.org);
      }
      case 'invalid':
        return render(
          host,
          request,
          reply,
          opened,
          token,
          { error: textsOf(request).t('invitation.wrong_password') },
          { status: 400 },
        );
      case 'throttled': {
        const { error, options } = throttledPage(textsOf(request), outcome.retryAfterS, 'login.throttled');
        return render(host, request, reply, opened, token, { error }, options);
      }
      case 'input':
        return render(
          host,
          request,
          reply,
          opened,
          token,
          {
            error: textsOf(request).t('invitation.check_form', {
              detail: ruleText(textsOf(request), outcome.problem),
            }),
            ...entered,
          },
          { status: 400 },
        );
      case 'exists': {
        const again = await openInvitation(ctx.deps, host, token);
        if (again.state !== 'pending')
          return sendClosed(request, reply, host, again.state, 'org' in again ? again.org : null);
        return render(
          host,
          request,
          reply,
          again,
          token,
          { error: textsOf(request).t('invitation.has_account'), ...entered },
          { status: 409 },
        );
      }
    }
  }

  app.get(
    INVITATION_PATH,
    pageRoute(ctx, async (host, request, reply) => {
      const token = queryValue(request, 'token') ?? '';
      const opened = await openInvitation(ctx.deps, host, token);
      if (opened.state !== 'pending') {
        return sendClosed(request, reply, host, opened.state, 'org' in opened ? opened.org : null);
      }
      return render(host, request, reply, opened, token, { error: null });
    }),
  );

  app.post(
    INVITATION_PATH,
    pageRoute(ctx, async (host, request, reply) => {
      const form = formOf(request);
      if (!ctx.csrf.check(request, 'invitation', [], field(form, 'csrf'))) {
        return sendErrorPage(reply, host.name, 403, textsOf(request).t('error.csrf'), 'page.csrf.rejected');
      }
      const token = field(form, 'token');
      const opened = await openInvitation(ctx.deps, host, token);
      if (opened.state !== 'pending') {
        return sendClosed(request, reply, host, opened.state, 'org' in opened ? opened.org : null);
      }
      const entered = { firstName: field(form, 'first_name'), lastName: field(form, 'last_name') };
      if (field(form, 'step') === 'join') {
        // A sign-in: this browser's, when it is signed in as the invitee, else the password, checked
        // (and throttled) as the login form does, in the same words whether the account exists.
        const session = await browserSessionOf(ctx, host, request);
        const proof =
          opened.existing && session?.user.id === opened.existing.id
            ? { signedIn: session.user }
            : {
                password: field(form, 'password'),
                ip: rateLimitKey(request),
                deviceToken: ctx.cookies.readDevice(request),
              };
        const outcome = await acceptAsExistingUser(ctx.deps, opened, proof);
        return answer(host, request, reply, opened, token, outcome, entered);
      }
      if (opened.existing) {
        // A name and a password for an address that has an account: never a second account.
        return render(
          host,
          request,
          reply,
          opened,
          token,
          { error: textsOf(request).t('invitation.has_account'), ...entered },
          { status: 409 },
        );
      }
      const outcome = await acceptAsNewUser(ctx.deps, opened, {
        ...entered,
        password: field(form, 'password'),
      });
      return answer(host, request, reply, opened, token, outcome, entered);
    }),
  );
}
