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

/**
 * A key's model list must leave it something to use: at least one model the gateway serves (when the
 * caller knows them) and, when the owner's account has a list, at least one model of it. Otherwise the
 * key would be created silently and answer 403 to everything; refused with the reason instead.
 */
export function checkUsableModels(models: readonly string[] | null | undefined, account: UserLimits, served?: readonly string[]): void {
  if (!models) return;
  if (served && served.length > 0 && !models.some((m) => served.includes(m))) {
    throw new LimitsInputError(`This gateway serves none of ${models.join(', ')}, so the key could use nothing. Served models: ${served.join(', ')}.`);
  }
  const allowed = account.models;
  if (allowed && !models.some((m) => allowed.includes(m))) {
    throw new LimitsInputError(
      `The key's models (${models.join(', ')}) and its owner's account (${allowed.join(', ')}) have none in common, so the key could use nothing. Choose among ${allowed.join(', ')}.`,
    );
  }
}

/**
 * What the running gateways serve, as they announced it at start (the command line has no router):
 * every model of every instance; undefined when none has started on this database yet.
 */
export async function announcedServedModels(store: { servedModels: { list(): Promise<Array<{ models: string[] }>> } }): Promise<string[] | undefined> {
  const announcements = await store.servedModels.list();
  return announcements.length ? [...new Set(announcements.flatMap((a) => a.models))] : undefined;
}

/** Every model id some provider serves (public names, as keys list them). */
export function servedModelIds(router: { providers: ReadonlyArray<{ models: ReadonlyArray<{ id: string }> }> }): string[] {
  return [...new Set(router.providers.flatMap((p) => p.models.map((m) => m.id)))];
}
