// How many keys one user may have (`--max-keys-per-user`): a person needs a handful, one per
// machine or tool; thousands only make every key list slow. Checked before a key is created on the
// keys page, its JSON call and the operator API (the command line, run by the operator on the
// server, is not capped). Two creations at the same instant may both pass the check: the cap can be
// exceeded by the number of simultaneous requests, never more.
import { GatewayError } from '../errors/gateway-error.ts';
import type { GatewayDeps } from '../gateway-deps.ts';
import { DEFAULT_MAX_KEYS_PER_USER } from '../serve-options.ts';

export async function checkRoomForKey(deps: GatewayDeps, userId: string): Promise<void> {
  const cap = deps.settings.maxKeysPerUser ?? DEFAULT_MAX_KEYS_PER_USER;
  if (cap === 0) return;
  const count = await deps.store.keys.countForUser(userId);
  if (count >= cap) {
    throw new GatewayError(409, 'too_many_keys', `This account already has ${count} keys, the most allowed (${cap}). Delete keys you no longer use, then create the new one.`);
  }
}
