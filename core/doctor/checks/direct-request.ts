// A request straight to the service root with the client's key, GET {base_url}/v1/models,
// bypassing the proxy: it tells the address and key apart from the route.
import { lintKey } from '../key-lint.ts';
import { classifyModelsCall } from '../classify-models-call.ts';
import { outcome } from '../check-result.ts';
import type { Check } from '../check.ts';
import type { DiagnoseContext } from '../diagnose-context.ts';

export const directRequest: Check<DiagnoseContext> = {
  id: 'direct.request',
  async run(ctx) {
    if (ctx.profile.auth !== 'service') return outcome.skip(`auth path ${ctx.profile.auth}: the direct request checks keys of this service only`);
    const call = await ctx.direct();
    if (!call) return outcome.skip(`no key in ${ctx.profile.tokenSources.join(' or ')} to send; see client.credential`);
    const token = ctx.effective('token');
    const result = classifyModelsCall(call, { routeType: 'messages', baseUrl: ctx.service.root, vars: ctx.vars, keyFindings: lintKey(token.value), timeoutMs: ctx.requestTimeoutMs });
    const via = token.pinned ? ` (with the ${ctx.profile.tokenVar} pinned in the settings file, which the client uses)` : '';
    return { ...result, observed: result.observed + via };
  },
};
