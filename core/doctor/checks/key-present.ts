// verify: the key variable is set (keys come from the environment).
import { maskCredential } from '../mask-credential.ts';
import { causeEntry } from '../../causes/catalogue.ts';
import { outcome } from '../check-result.ts';
import type { Check } from '../check.ts';
import type { VerifyContext } from '../verify-context.ts';

export const keyPresent: Check<VerifyContext> = {
  id: 'key.present',
  async run(ctx) {
    if (ctx.key) return outcome.pass(`${ctx.keyVar} is set (${maskCredential(ctx.key)})`);
    return outcome.fail(
      'KEY_MISSING',
      `${ctx.keyVar} is not set or empty in this shell`,
      `${causeEntry('KEY_MISSING').userRemedy} --key-env names another variable.`,
      [`read -rs ${ctx.keyVar} && export ${ctx.keyVar}   # paste the key`, `gwctl verify --key-env ${ctx.keyVar}`],
    );
  },
};
