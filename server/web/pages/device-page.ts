// /device: where a signed-in person approves or denies a client's device sign-in (RFC 8628). The
// address the client shows carries the code (`?user_code=`); without it, one field asks for it. The
// page says which client asks, from where and when, before anything is granted. Every decision is
// audited.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { userTarget, webActor } from '../../audit/audit-targets.ts';
import type { GatewayDeps } from '../../gateway-deps.ts';
import { displayUserCode, normalizeUserCode } from '../../sign-in/sign-in-secrets.ts';
import type { DeviceAuthorization } from '../../store/device-authorizations-repo.ts';
import { shortTime } from '../format.ts';
import { html, type SafeHtml } from '../html.ts';
import { layout } from '../layout.ts';
import { checkCsrf, requirePage } from '../session/web-session.ts';
import { AttemptWindow } from '../../sign-in/attempt-window.ts';

function send(request: FastifyRequest, reply: FastifyReply, body: SafeHtml, status = 200) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(layout({ title: 'Sign in a device', user: request.webUser, csrfToken: request.webSession?.csrfToken, body: html`<section class="card narrow" id="device">${body}</section>` }));
}

function codeForm(problem?: string): SafeHtml {
  return html`<h1>Sign in a device</h1>
    <p>Enter the code your command line or coding client shows.</p>
    ${problem ? html`<p class="error" role="alert">${problem}</p>` : ''}
    <form method="get" action="/device" class="stack">
      <label>Code <input name="user_code" autocomplete="off" autocapitalize="characters" placeholder="ABCD-EFGH" required autofocus></label>
      <button type="submit" class="primary">Continue</button>
    </form>`;
}

/** Why a code cannot be approved now, or undefined when it can. */
function unusable(found: DeviceAuthorization | undefined, now: Date): string | undefined {
  if (!found) return 'No sign-in is waiting with this code. Check the code, or start the sign-in again on the device.';
  if (found.expiresAt <= now.toISOString()) return 'This code expired. Start the sign-in again on the device.';
  if (found.status !== 'pending') return 'This code was already used. Start the sign-in again on the device.';
  return undefined;
}

/** Codes a person may get wrong per ten minutes: guessing someone else's pending code stays hopeless. */
export const WRONG_CODES_PER_WINDOW = 10;

export function registerDevicePage(app: FastifyInstance, deps: GatewayDeps): void {
  const onRequest = requirePage(deps);
  const wrongCodes = new AttemptWindow(WRONG_CODES_PER_WINDOW, 600_000, 'device-wrong-codes', deps.attemptLog, deps.now);
  /** The authorization a code names, unless this person got too many codes wrong lately (then a 429 page is sent). */
  async function lookUp(request: FastifyRequest, reply: FastifyReply, code: string): Promise<DeviceAuthorization | undefined | 'refused'> {
    const who = request.webUser!.id;
    const wait = await wrongCodes.retryAfterSeconds(who);
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      await send(request, reply, codeForm(`Too many wrong codes; try again in ${Math.ceil(wait / 60)} minute(s).`), 429);
      return 'refused';
    }
    const found = await deps.store.deviceAuthorizations.findByUserCode(code);
    if (!found) await wrongCodes.record(who);
    return found;
  }
  const now = () => new Date((deps.now ?? Date.now)());

  app.get<{ Querystring: { user_code?: string } }>('/device', { onRequest }, async (request, reply) => {
    const typed = request.query.user_code;
    if (typed === undefined || typed === '') return send(request, reply, codeForm());
    const code = normalizeUserCode(typed);
    if (!code) return send(request, reply, codeForm('A code is eight letters, like ABCD-EFGH.'), 400);
    const found = await lookUp(request, reply, code);
    if (found === 'refused') return reply;
    const problem = unusable(found, now());
    if (problem || !found) return send(request, reply, codeForm(problem), 404);
    const csrf = request.webSession!.csrfToken;
    return send(
      request,
      reply,
      html`<h1>Sign in a device?</h1>
        <p><strong id="device-client">${found.clientName}</strong> asks to use the gateway as <strong>${request.webUser!.username}</strong>.</p>
        <dl class="facts">
          <dt>Code</dt><dd id="device-code"><code>${displayUserCode(found.userCode)}</code> (it must match what the device shows)</dd>
          <dt>Asked</dt><dd>${shortTime(found.createdAt)} from ${found.clientAddress}</dd>
        </dl>
        <p class="muted">Approve only a sign-in you started yourself. It lasts until you sign out, and an operator can end it.</p>
        <form method="post" action="/device" class="actions">
          <input type="hidden" name="_csrf" value="${csrf}">
          <input type="hidden" name="user_code" value="${found.userCode}">
          <button type="submit" name="decision" value="approve" class="primary" id="device-approve">Approve</button>
          <button type="submit" name="decision" value="deny" class="danger" id="device-deny">Deny</button>
        </form>`,
    );
  });

  app.post<{ Body: { user_code?: string; decision?: string } }>('/device', { onRequest, preHandler: checkCsrf }, async (request, reply) => {
    const { user_code: typed = '', decision } = request.body ?? {};
    const code = normalizeUserCode(String(typed));
    if (!code || (decision !== 'approve' && decision !== 'deny')) return send(request, reply, codeForm('The form was incomplete. Enter the code again.'), 400);
    const found = await lookUp(request, reply, code);
    if (found === 'refused') return reply;
    const problem = unusable(found, now());
    const user = request.webUser!;
    if (problem || !found || !(await deps.store.deviceAuthorizations.decide(code, user.id, decision === 'approve' ? 'approved' : 'denied'))) {
      return send(request, reply, codeForm(problem ?? 'This code was already used. Start the sign-in again on the device.'), 409);
    }
    await deps.store.audit.record({
      ...webActor(request),
      action: decision === 'approve' ? 'signin.approve' : 'signin.deny',
      target: userTarget(user.username),
      details: { client: found.clientName, from: found.clientAddress },
    });
    return send(
      request,
      reply,
      decision === 'approve'
        ? html`<h1>Device signed in</h1><p id="device-result">${found.clientName} is signed in as ${user.username}. You can close this page and return to the device.</p>`
        : html`<h1>Sign-in denied</h1><p id="device-result">The device was refused. Nothing was granted.</p>`,
    );
  });
}
