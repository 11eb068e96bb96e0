// An owner sets a key's limits within what an operator allows the account: a model list that names
// models the account may not use is refused when saved, with the account's list, rather than
// silently narrowed at request time.
import type { KeyLimits, UserLimits } from './key-limits.ts';
import { LimitsInputError } from './limits-input.ts';

export function checkWithinAccount(limits: Pick<KeyLimits, 'models'>, account: UserLimits): void {
  const allowed = account.models;
  if (!allowed || !limits.models) return;
  const outside = limits.models.filter((m) => !allowed.includes(m));
  if (outside.length === 0) return;
  throw new LimitsInputError(`Your account may not use ${outside.join(', ')}: an operator limited it to ${allowed.join(', ')}. Choose among those.`);
}
