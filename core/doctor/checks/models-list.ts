// verify: GET the model list with `Authorization: Bearer` and classify the answer.
import { fetchModels } from '../../client/gateway-client.ts';
import { outcome } from '../check-result.ts';
import type { Check } from '../check.ts';
import { classifyModelsCall } from '../classify-models-call.ts';
import { lintKey } from '../key-lint.ts';
import { modelsUrlFor, type VerifyContext } from '../verify-context.ts';

export const modelsList: Check<VerifyContext> = {
  id: 'models.list',
  async run(ctx) {
    if (!ctx.key) return outcome.skip(`not requested: no key in ${ctx.keyVar}`);
    const call = await fetchModels(ctx.http, modelsUrlFor(ctx), ctx.key, ctx.timeoutMs);
    ctx.call = call;
    return classifyModelsCall(call, { routeType: ctx.routeType, baseUrl: ctx.baseUrl, vars: ctx.vars, keyFindings: lintKey(ctx.key), timeoutMs: ctx.timeoutMs });
  },
};
