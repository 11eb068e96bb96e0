// verify: lints on the key value before it is sent.
import { outcome } from '../check-result.ts';
import type { Check } from '../check.ts';
import { keyFormatOutcome } from '../key-format-outcome.ts';
import { lintKey } from '../key-lint.ts';
import type { VerifyContext } from '../verify-context.ts';

export const keyLintCheck: Check<VerifyContext> = {
  id: 'key.format',
  async run(ctx) {
    if (!ctx.key) return outcome.skip('no key to lint');
    return keyFormatOutcome(lintKey(ctx.key), ctx.keyVar, ctx.key);
  },
};
