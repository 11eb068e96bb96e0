// `gwctl admin key find <id|hint|fingerprint>`: every key (live or deleted) and every refused value
// the query names, with owner, state, limits, last use and recent failures by cause. Support gets a
// masked hint (`sk-…a1b2`) from a user's screen or a fingerprint from the request log; a key id from
// the key list. A full key value is taken too (only its fingerprint is used) but never needed.
import { hashApiKey } from '../auth/api-key-values.ts';
import type { FoundKey, KeyFindResult, KeyState, RefusedValue } from '../../core/support/support-documents.ts';
import type { ApiKeyRecord } from '../store/keys-repo.ts';
import { fingerprintOfHash, type DeletedKeyRecord } from '../store/deleted-keys-repo.ts';
import type { Store } from '../store/store.ts';
import { deletedBy } from './deleted-by.ts';
import { failuresByCause, RECENT_DAYS } from './recent-failures.ts';

const DAY_MS = 86_400_000;
const HINT = /^(sk-)?(…|\.\.\.)([A-Za-z0-9]{4})?$/;

/** `sk-...a1b2`, `sk-…a1b2`, `…a1b2`: the form keys are listed and masked in. */
function normalisedHint(query: string): string | undefined {
  const match = HINT.exec(query);
  if (!match) return undefined;
  return `${match[1] ?? ''}…${match[3] ?? ''}`;
}

function kindOf(query: string): KeyFindResult['kind'] {
  if (/^[0-9a-f]{16}$/.test(query)) return 'fingerprint';
  if (normalisedHint(query)) return 'hint';
  if (/^sk-[A-Za-z0-9]{20,}$/.test(query)) return 'key value';
  return 'key id';
}

export async function findKey(store: Store, rawQuery: string, now = Date.now()): Promise<KeyFindResult> {
  const query = rawQuery.trim();
  const kind = kindOf(query);
  const since = now - RECENT_DAYS * DAY_MS;
  const live: ApiKeyRecord[] = [];
  const deleted: DeletedKeyRecord[] = [];
  let fingerprint: string | undefined;
  let hint: string | undefined;
  if (kind === 'key id') {
    const key = await store.keys.findById(query);
    if (key) live.push(key);
    const gone = await store.deletedKeys.findByKeyId(query);
    if (gone) deleted.push(gone);
  } else if (kind === 'hint') {
    hint = normalisedHint(query)!;
    live.push(...(await store.keys.findByHint(hint)));
    deleted.push(...(await store.deletedKeys.findByHint(hint)));
  } else {
    fingerprint = kind === 'fingerprint' ? query : fingerprintOfHash(hashApiKey(query));
    const key = await store.keys.findByFingerprint(fingerprint);
    if (key) live.push(key);
    const gone = await store.deletedKeys.findByFingerprint(fingerprint);
    if (gone) deleted.push(gone);
  }
  const keys: FoundKey[] = [];
  for (const key of live) keys.push(await describeLive(store, key, since, now));
  for (const gone of deleted) keys.push(await describeDeleted(store, gone, since));
  const refusedValues = await refused(store, { fingerprint, hint }, deleted, since);
  return { query: kind === 'key value' ? `fingerprint ${fingerprint}` : query, kind, keys, refusedValues, days: RECENT_DAYS };
}

async function describeLive(store: Store, key: ApiKeyRecord, since: number, now: number): Promise<FoundKey> {
  const owner = await store.users.findById(key.userId);
  const expired = key.limits.expiresAt !== null && Date.parse(key.limits.expiresAt) <= now;
  const state: KeyState = !owner ? 'owner deleted' : owner.disabled ? 'owner disabled' : expired ? 'expired' : 'active';
  const recent = await store.requestLog.recentOf({ keyId: key.id }, since, 2_000);
  return {
    keyId: key.id,
    hint: key.hint,
    name: key.name,
    fingerprint: (await store.keys.fingerprintOf(key.id)) ?? null,
    owner: owner?.username ?? null,
    state,
    createdAt: key.createdAt,
    deletedAt: null,
    deletedBy: null,
    limits: key.limits,
    lastUsedAt: key.lastUsedAt,
    recentFailures: failuresByCause(recent),
  };
}

async function describeDeleted(store: Store, gone: DeletedKeyRecord, since: number): Promise<FoundKey> {
  const tried = await store.requestLog.recentOf({ fingerprint: gone.fingerprint }, since, 2_000);
  const before = await store.requestLog.recentOf({ keyId: gone.keyId }, since, 2_000);
  return {
    keyId: gone.keyId,
    hint: gone.hint,
    name: gone.name,
    fingerprint: gone.fingerprint,
    owner: gone.username,
    state: 'deleted',
    createdAt: gone.createdAt,
    deletedAt: gone.deletedAt,
    deletedBy: await deletedBy(store, gone),
    limits: null,
    lastUsedAt: lastSuccess(before),
    recentFailures: failuresByCause([...tried, ...before].sort((a, b) => b.at - a.at), { deletedKey: gone }),
  };
}

function lastSuccess(entries: readonly { at: number; status: number }[]): string | null {
  const ok = entries.find((e) => e.status < 400);
  return ok ? new Date(ok.at).toISOString() : null;
}

/** Refused values the query names that belong to no deleted key (those are listed with their key). */
async function refused(store: Store, by: { fingerprint?: string; hint?: string }, deleted: DeletedKeyRecord[], since: number): Promise<RefusedValue[]> {
  if (!by.fingerprint && !by.hint) return [];
  const entries = by.fingerprint
    ? await store.requestLog.recentOf({ fingerprint: by.fingerprint }, since, 2_000)
    : await store.requestLog.recentOf({ keyHint: by.hint! }, since, 2_000);
  const known = new Set(deleted.map((d) => d.fingerprint));
  const byValue = new Map<string, RefusedValue>();
  for (const entry of entries) {
    const fp = entry.keyFingerprint!;
    if (known.has(fp)) continue;
    const seen = byValue.get(fp);
    if (seen) seen.requests += 1;
    else byValue.set(fp, { hint: entry.keyHint, fingerprint: fp, requests: 1, lastAt: new Date(entry.at).toISOString(), lastRequestId: entry.requestId });
  }
  return [...byValue.values()];
}

export type { FoundKey, KeyFindResult, KeyState, RefusedValue };
