// Acceptance layer proxy_running: GET /health answers 200 {"status":"ok"}. Down or
// degraded is a failure when the client points at the proxy, a warning otherwise.
import { outcome } from '../check-result.ts';
import type { Check } from '../check.ts';
import type { DiagnoseContext } from '../diagnose-context.ts';
import { proxyCommands } from '../proxy-commands.ts';
import { proxyInstall } from '../proxy-install.ts';
import { causeRemedy } from '../../causes/cause-remedy.ts';

export const proxyRunning: Check<DiagnoseContext> = {
  id: 'proxy.running',
  clients: ['messages'],
  explains: [401, 403, 404, 502, 503, 504],
  async run(ctx) {
    const health = await ctx.proxyHealth();
    if (health.state === 'ok') return outcome.pass(health.observed);
    const use = await ctx.proxyUse();
    if (!use.used) return outcome.skip(`${use.observed}; the proxy is optional: clients start directly`);
    const meant = ctx.proxyMeant();
    const make = meant ? outcome.fail : outcome.warn;
    const note = meant ? `; the client's ${ctx.profile.baseUrlVar} points at it, so its requests fail` : '; the client does not point at it (gwctl start goes direct)';
    if (health.state === 'degraded') {
      const fix = causeRemedy('PROXY_DEGRADED', ctx.vars);
      return make('PROXY_DEGRADED', `${health.observed}${note}`, `${fix.remedy} A 503 means the request-transform chain is incomplete.`, [
        ...proxyCommands.restart(proxyInstall(ctx), ctx.service.root),
        `curl -s ${health.healthUrl}`,
        'gwctl start   # goes direct while the proxy is degraded',
      ]);
    }
    const what = health.state === 'foreign' ? `${health.observed}: not the cache proxy` : health.state === 'unhealthy' ? `${health.observed} (not 200 {"status":"ok"})` : `${health.observed}: the proxy is not running`;
    return make('PROXY_DOWN', `${what}${note}`, causeRemedy('PROXY_DOWN', ctx.vars).remedy, [
      ...proxyCommands.restart(proxyInstall(ctx), ctx.service.root),
      `curl -s ${health.healthUrl}`,
      'gwctl start',
    ]);
  },
};
