// A request straight to the service root with the client's key, GET {base_url}/v1/models,
// bypassing the proxy: it tells the address and key apart from the route. For a chat or image
// client, the model list under the base URL that client uses (so a missing /v1 is found here).
import { lintKey } from '../key-lint.ts';
import { classifyModelsCall } from '../classify-models-call.ts';
import { causeRemedy } from '../../causes/cause-remedy.ts';
import { outcome } from '../check-result.ts';
import type { Check, CheckOutcome } from '../check.ts';
import type { DiagnoseContext } from '../diagnose-context.ts';

/** A chat or image client: the model list under the base URL it uses, as `gwctl verify --type` asks for it. */
async function clientRequest(ctx: DiagnoseContext): Promise<CheckOutcome> {
  const target = ctx.target();
  const call = await ctx.clientCall();
  if (!call) {
    return outcome.fail('KEY_MISSING', `${target.keyVar} is not set or empty in this shell`, causeRemedy('KEY_MISSING', { token_var: target.keyVar }).remedy, [
      `read -rs ${target.keyVar} && export ${target.keyVar}   # paste the key`,
      `gwctl diagnose --client ${ctx.client}`,
    ]);
  }
  const key = ctx.env[target.keyVar];
  return classifyModelsCall(call, { routeType: ctx.client, baseUrl: target.baseUrl, vars: target.vars, keyFindings: lintKey(key), timeoutMs: ctx.requestTimeoutMs });
}

export const directRequest: Check<DiagnoseContext> = {
  id: 'direct.request',
  async run(ctx) {
    if (ctx.client !== 'messages') return clientRequest(ctx);
    if (ctx.profile.auth !== 'service') return outcome.skip(`auth path ${ctx.profile.auth}: the direct request checks keys of this service only`);
    const call = await ctx.direct();
    if (!call) return outcome.skip(`no key in ${ctx.profile.tokenSources.join(' or ')} to send; see client.credential`);
    const token = ctx.effective('token');
    const result = classifyModelsCall(call, { routeType: 'messages', baseUrl: ctx.service.root, vars: ctx.vars, keyFindings: lintKey(token.value), timeoutMs: ctx.requestTimeoutMs });
    const via = token.pinned ? ` (with the ${ctx.profile.tokenVar} pinned in the settings file, which the client uses)` : '';
    return { ...result, observed: result.observed + via };
  },
};
