// The credential the client will send: no spaces, line breaks or quotes; `sk-` prefix.
import { lintKey } from '../key-lint.ts';
import { keyFormatOutcome } from '../key-format-outcome.ts';
import { outcome } from '../check-result.ts';
import type { Check } from '../check.ts';
import type { DiagnoseContext } from '../diagnose-context.ts';

export const keyFormat: Check<DiagnoseContext> = {
  id: 'key.format',
  explains: [401, 403],
  async run(ctx) {
    if (ctx.client !== 'messages') {
      const { keyVar } = ctx.target();
      const key = ctx.env[keyVar];
      if (!key) return outcome.skip(`no key in ${keyVar} to lint`);
      return keyFormatOutcome(lintKey(key), keyVar, key);
    }
    if (ctx.profile.auth !== 'service') return outcome.skip(`auth path ${ctx.profile.auth}: only keys of this service are linted`);
    const eff = ctx.effective('token');
    if (!eff.value) return outcome.skip(`no key in ${ctx.profile.tokenSources.join(' or ')} to lint`);
    return keyFormatOutcome(lintKey(eff.value), eff.variable, eff.value);
  },
};
