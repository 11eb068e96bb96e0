// What a chat client sees: one short real request in the protocol the configured client speaks
// (chat completions for OpenCode, Qwen Code and plain chat clients; Responses for Codex; the Gemini
// API for Gemini CLI), straight to the service with its key and the model gwctl start would give it.
// It may cost a few tokens; `--no-request` skips it.
import { outcome } from '../check-result.ts';
import type { Check } from '../check.ts';
import { classifyProtocolCall } from '../classify-protocol-call.ts';
import type { DiagnoseContext } from '../diagnose-context.ts';
import { lintKey } from '../key-lint.ts';
import { PROTOCOL_NAMES } from '../protocol-probe.ts';

export const protocolRequest: Check<DiagnoseContext> = {
  id: 'protocol.request',
  clients: ['chat'],
  async run(ctx) {
    const call = await ctx.protocolCall();
    const name = PROTOCOL_NAMES[ctx.profile.protocol === 'messages' ? 'chat' : ctx.profile.protocol];
    if ('notSent' in call) return outcome.skip(`the short ${name} request: ${call.notSent}`);
    const target = ctx.target();
    return classifyProtocolCall(call, { vars: target.vars, keyFindings: lintKey(ctx.env[target.keyVar]), timeoutMs: ctx.requestTimeoutMs, baseUrl: target.baseUrl });
  },
};
