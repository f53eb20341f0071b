// The console's account routes: /auth/* (sessions, setup links, passwords) and /members (OWNER).
import { Router } from '@koa/router';
import type { Core } from '../core.js';
import { iso } from '../clock.js';
import { clientAddressOf } from '../http/client-address.js';
import type { Guards } from './guards/guards.js';
import { jsonBody } from '../http/json-body.js';
import { refuseForeignOrigin } from './guards/session-auth.js';
import { projectOf, type ApiContext, type ApiState } from '../http/state.js';
import { validate } from '../http/validate.js';
import { describe } from '../http/openapi/describe.js';
import { clearedCookie, sessionCookie } from '../accounts/cookie.js';
import { sendInvitation } from '../accounts/invitation.js';
import { changeRole, inviteMember, removeMember } from '../accounts/members.js';
import type { Role } from '../projects/roles.js';
import { prepareDecoy } from '../accounts/passwords.js';
import { endSession, sessionPolicy } from '../accounts/sessions.js';
import type { SignedIn } from '../accounts/sessions.js';
import { changePassword, inspectLink, signIn, useSetupLink } from '../accounts/sign-in.js';
import { listMembers, membershipsOf, type Member } from '../accounts/store.js';
import { LoginThrottle } from '../accounts/throttle.js';
import type { Pools } from '../threads/pool.js';
import type { ComposeOps } from '../compose/compose-ops.js';

const presentMember = (m: Member) => ({ ...m, createdAt: iso(m.createdAt) });

export function accountRoutes(core: Core, threads: Pools<ComposeOps>, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();
  const policy = sessionPolicy(core.config);
  const throttle = new LoginThrottle(core.clock);
  void prepareDecoy();
  const deps = { db: core.db, clock: core.clock, policy, throttle };
  const addressOf = clientAddressOf(core.config.http.trustProxy);
  const address = (ctx: ApiContext) => addressOf(ctx.req);
  const smallBody = jsonBody(16 * 1024);
  const signedIn = guards.session();
  const owner = guards.key('secret', { role: 'OWNER' });
  const publicUrl = () => core.config.publicUrl!;

  const answerSession = (ctx: ApiContext, session: SignedIn) => {
    ctx.set('Set-Cookie', sessionCookie(session.token, policy.maxMs, core.config.publicUrl));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { user: session.user, csrfToken: session.csrfToken };
  };

  router.post(
    '/auth/login',
    describe({
      summary: 'Sign in to the console',
      description: 'Sets the session cookie postmill_session. 401 for a wrong pair (the same for an unknown email); 429 with Retry-After while the address or the account is throttled.',
      body: 'auth-login',
      answers: { 200: 'AuthSession' },
    }),
    smallBody,
    async (ctx) => {
      refuseForeignOrigin(ctx, core.config.publicUrl);
      const input = validate<{ email: string; password: string }>('auth-login', ctx.state.body);
      answerSession(ctx, await signIn(deps, { ...input, address: address(ctx) }));
    },
  );

  router.get('/auth/me', describe({ summary: "The signed-in user, the projects and roles, the CSRF token and the daemon's delivery mode", answers: { 200: 'AuthMe' } }), signedIn, (ctx) => {
    const session = ctx.state.user!;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      user: session,
      projects: membershipsOf(core.db, session.id).map((m) => ({ id: m.projectId, name: m.projectName, role: m.role })),
      csrfToken: ctx.state.session!.csrfToken,
      deliveryMode: core.config.delivery.mode,
    };
  });

  router.post('/auth/logout', describe({ summary: 'Sign out: the session ends', answers: { 204: null } }), signedIn, (ctx) => {
    endSession(core.db, ctx.state.session!.hash);
    ctx.set('Set-Cookie', clearedCookie(core.config.publicUrl));
    ctx.status = 204;
  });

  router.post(
    '/auth/setup/check',
    describe({ summary: 'Whether a setup link is live, and whose it is', body: 'auth-setup-check', answers: { 200: 'SetupLink' } }),
    smallBody,
    (ctx) => {
      const { token } = validate<{ token: string }>('auth-setup-check', ctx.state.body);
      ctx.body = inspectLink(core.db, core.clock, token);
    },
  );

  router.post(
    '/auth/setup',
    describe({
      summary: 'Choose a password with a setup, invitation or reset link, and sign in',
      description:
        "The link works once, within 24 hours. The first owner link also takes the email to sign in with. A setup or reset link ends the user's other sessions. An invitation link accepts its project's invitation: an account in no project yet chooses its password with it, any other gives the password it has (401 when wrong, throttled as a sign-in).",
      body: 'auth-setup',
      answers: { 200: 'AuthSession' },
    }),
    smallBody,
    async (ctx) => {
      refuseForeignOrigin(ctx, core.config.publicUrl);
      const input = validate<{ token: string; password: string; email?: string }>('auth-setup', ctx.state.body);
      answerSession(ctx, await useSetupLink(deps, { token: input.token, password: input.password, email: input.email ?? null, address: address(ctx) }));
    },
  );

  router.post(
    '/auth/password',
    describe({ summary: "Change the signed-in user's password; the user's other sessions end", body: 'auth-password', answers: { 204: null } }),
    signedIn,
    async (ctx) => {
      const input = validate<{ currentPassword: string; newPassword: string }>('auth-password', ctx.state.body);
      await changePassword(deps, { ...input, userId: ctx.state.user!.id, sessionHash: ctx.state.session!.hash, address: address(ctx) });
      ctx.status = 204;
    },
  );

  router.get('/members', describe({ summary: "The project's members and their roles", answers: { 200: 'MemberList' } }), owner, (ctx) => {
    ctx.body = { data: listMembers(core.db, projectOf(ctx).id).map(presentMember) };
  });

  router.post(
    '/members',
    describe({
      summary: 'Invite someone (the answer carries the invitation link, emailed too when the project has a verified sender domain)',
      description:
        'The member has no role until the invitation is accepted through the link. The answer is the same whether the address has an account elsewhere or not; an account elsewhere keeps its password, links and projects.',
      body: 'member-invite',
      answers: { 201: 'MemberInvitation' },
    }),
    owner,
    async (ctx) => {
      const input = validate<{ email: string; role: Role }>('member-invite', ctx.state.body);
      const projectId = projectOf(ctx).id;
      const invitation = inviteMember(core.db, core.clock, publicUrl(), projectId, input);
      let emailId: string | null = null;
      try {
        emailId = await sendInvitation(core, threads, projectId, invitation.member.email, invitation.inviteUrl);
      } catch (err) {
        // the member is in; the owner still has the link to pass on
        core.log.warn('invitation email not sent', { projectId, error: (err as Error).message });
      }
      ctx.status = 201;
      ctx.body = { member: presentMember(invitation.member), inviteUrl: invitation.inviteUrl, emailId };
    },
  );

  router.patch('/members/:userId', describe({ summary: "Change a member's role", body: 'member-patch', answers: { 200: 'Member' } }), owner, (ctx) => {
    const { role } = validate<{ role: Role }>('member-patch', ctx.state.body);
    ctx.body = presentMember(changeRole(core.db, projectOf(ctx).id, ctx.params.userId!, role));
  });

  router.delete('/members/:userId', describe({ summary: 'Remove a member from the project', answers: { 204: null } }), owner, (ctx) => {
    removeMember(core.db, projectOf(ctx).id, ctx.params.userId!);
    ctx.status = 204;
  });

  return router;
}
