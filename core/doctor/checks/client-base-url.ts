// The client's base-address variable equals the proxy address when
// the proxy route is meant (proxy healthy), or the upstream root when going direct. The value that
// counts is the effective one: a settings-file pin wins over the shell.
import { sameAddress } from '../../launch/same-address.ts';
import { tildePath } from '../../paths.ts';
import { outcome } from '../check-result.ts';
import type { Check } from '../check.ts';
import type { DiagnoseContext } from '../diagnose-context.ts';
import { causeRemedy } from '../../causes/cause-remedy.ts';

export const clientBaseUrl: Check<DiagnoseContext> = {
  id: 'client.base-url',
  clients: ['messages'],
  explains: [400, 401, 403, 404, 502, 503, 504],
  async run(ctx) {
    const name = ctx.profile.baseUrlVar;
    const eff = ctx.effective('baseUrl');
    const where = eff.pinned ? `pinned in ${tildePath(eff.source, ctx.env)}, which wins over the shell` : 'in this shell';
    const value = eff.value;
    const shown = value === undefined ? `${name} is not set (shell or settings files)` : `${name}=${value} (${where})`;
    const root = ctx.service.root;
    if (value !== undefined && /\/v1\/*$/.test(value) && !sameAddress(value, ctx.proxyUrl)) {
      const fix = causeRemedy('URL_DOUBLE_V1', ctx.vars);
      return outcome.fail('URL_DOUBLE_V1', `${shown}: the client appends /v1/messages, so requests go to …/v1/v1/messages and answer 404`, fix.remedy, fix.commands);
    }
    const atProxy = sameAddress(value, ctx.proxyUrl);
    const directOk = ctx.profile.auth === 'service' ? sameAddress(value, root) : value === undefined;
    const elsewhere =
      value === undefined
        ? `${shown}: the client uses its built-in vendor address, bypassing this service${ctx.profile.auth === 'service' ? ' (its key answers 401 there)' : ''}`
        : `${shown}: neither the proxy (${ctx.proxyUrl}) nor ${ctx.profile.auth === 'service' ? root : "the client's default"}`;
    const startCommands = ['gwctl start   # sets it for that session only', `gwctl start --dry-run   # shows the address it would use`];
    const health = await ctx.proxyHealth();
    if (health.state === 'ok') {
      if (atProxy) return outcome.pass(`${shown}: the proxy route`);
      const remedy = `With the proxy healthy the client should start with ${name}=${ctx.proxyUrl}: use \`gwctl start\`, which sets it per session; do not fix it in settings files, or the client stays on the proxy when it is down.`;
      if (directOk) return outcome.warn('BASE_URL_NOT_PROXY', `${shown}: the direct route, although the proxy is healthy`, remedy, startCommands);
      return (value === undefined ? outcome.warn : outcome.fail)('BASE_URL_NOT_PROXY', elsewhere, remedy, startCommands);
    }
    if (atProxy) {
      const cause = health.state === 'degraded' ? 'PROXY_DEGRADED' : 'PROXY_DOWN';
      return outcome.fail(cause, `${shown}, but the proxy is ${health.state === 'degraded' ? 'degraded (503)' : 'not answering'}: the client's requests fail`, 'Start the client directly while the proxy is not healthy: `gwctl start` picks the direct route by itself.', startCommands);
    }
    if (directOk) return outcome.pass(`${shown}: the direct route (the proxy is not healthy, so that is the right one)`);
    // Without the optional proxy the direct route is the only one, and unset in this shell is what
    // `gwctl start` users have: it sets the variable per session.
    if (value === undefined && ctx.profile.auth === 'service' && !(await ctx.proxyUse()).used) {
      return outcome.pass(`${shown}: gwctl start sets it to ${root} for each session (the direct route; this machine does not use the optional proxy)`);
    }
    // Unset in this shell is what `gwctl start` users have: it sets the variable per session. Only a
    // client started by hand from this shell would miss the service, so that is a warning.
    const make = value === undefined ? outcome.warn : outcome.fail;
    return make('BASE_URL_NOT_PROXY', elsewhere, `Start the client with \`gwctl start\`: it sets ${name} to the proxy when healthy, otherwise to ${ctx.profile.auth === 'service' ? root : "the client's default"}.`, startCommands);
  },
};
