// What the client sees: one short real POST /v1/messages (max_tokens 1, a one-word prompt, the
// model gwctl start would use) through the route the client would take (the proxy when healthy,
// else direct), classified by its answer. It may cost a few tokens; `--no-request` skips it.
import { isTextModel } from '../../launch/model-choice.ts';
import { outcome } from '../check-result.ts';
import type { Check } from '../check.ts';
import { classifyMessagesCall } from '../classify-messages-call.ts';
import type { DiagnoseContext } from '../diagnose-context.ts';
import { lintKey } from '../key-lint.ts';
import { proxyInstall } from '../proxy-install.ts';
import { proxyUpstreamDefaultOutcome, upstreamKnownDefault } from '../proxy-upstream-default.ts';

export const messagesRequest: Check<DiagnoseContext> = {
  id: 'messages.request',
  clients: ['messages'],
  async run(ctx) {
    const call = await ctx.messages();
    if ('notSent' in call) return outcome.skip(`POST /v1/messages ${call.notSent}`);
    const direct = await ctx.direct();
    const token = ctx.effective('token');
    const result = classifyMessagesCall(call, {
      vars: ctx.vars,
      keyFindings: lintKey(token.value),
      timeoutMs: ctx.requestTimeoutMs,
      served: direct?.models?.filter(isTextModel) ?? null,
      directWorks: direct?.outcome.kind === 'response' && direct.outcome.status === 200,
      proxyInstall: proxyInstall(ctx),
      upstreamDefault: upstreamKnownDefault(ctx) ? (observed) => proxyUpstreamDefaultOutcome(ctx, observed) : undefined,
      keyVar: token.variable,
      baseUrlVar: ctx.profile.baseUrlVar,
      command: ctx.profile.command,
    });
    const model = await ctx.model();
    const why = model.id === call.model ? ` Model ${call.model}: ${model.reason}.` : '';
    return { ...result, observed: `${result.observed.replace(/\.?$/, '.')}${why}` };
  },
};
