// `gwctl admin request <id>`, /admin/requests/<id> and GET /admin/api/v1/requests/{id}: what
// happened to one request and why, from the request log, the deleted keys' tombstones, the audit
// log and the key and owner as they are now; with the operator's remedy and the one to send the user.
import { causeEntry } from '../../core/causes/catalogue.ts';
import type { RequestVerdict } from '../../core/support/support-documents.ts';
import { fillTemplate } from '../../core/doctor/fill-template.ts';
import type { RequestLogRecord } from '../store/request-log-repo.ts';
import type { Store } from '../store/store.ts';
import { causeOfEntry, type EntryContext } from './cause-of-entry.ts';
import { deletedBy } from './deleted-by.ts';

export interface ExplainOptions {
  /** The service's public address, for remedies that name it. */
  publicUrl?: string;
}

/** The ids, names and address the catalogue's generic commands leave open, filled in where known. */
function concrete(texts: readonly string[], names: { keyId?: string; username?: string; requestId: string }, publicUrl?: string): string[] {
  return texts.map((text) => {
    let out = fillTemplate(text, { base_url: publicUrl });
    if (names.keyId) out = out.replace(/<id>|<key id[^>]*>/g, names.keyId);
    if (names.username) out = out.replace(/<name>/g, names.username);
    return out.replace(/<request-id[^>]*>/g, names.requestId);
  });
}

async function contextOf(store: Store, entry: RequestLogRecord): Promise<EntryContext & { username?: string }> {
  const context: EntryContext & { username?: string } = {};
  if (entry.keyFingerprint) {
    const deleted = await store.deletedKeys.findByFingerprint(entry.keyFingerprint);
    if (deleted) {
      context.deletedKey = { ...deleted, deletedBy: (await deletedBy(store, deleted)) ?? undefined };
      context.username = deleted.username;
    }
  }
  if (entry.keyId) {
    const key = await store.keys.findById(entry.keyId);
    context.keyNow = key ? { hint: key.hint, expiresAt: key.limits.expiresAt } : null;
  }
  if (entry.userId) {
    const owner = await store.users.findById(entry.userId);
    context.ownerNow = owner ? { username: owner.username, disabled: owner.disabled } : null;
    if (owner) context.username = owner.username;
  }
  return context;
}

export async function explainRequest(store: Store, requestId: string, options: ExplainOptions = {}): Promise<RequestVerdict | undefined> {
  const entry = await store.requestLog.findByRequestId(requestId.trim());
  if (!entry) return undefined;
  return verdictOf(entry, await contextOf(store, entry), options);
}

function verdictOf(entry: RequestLogRecord, context: EntryContext & { username?: string }, options: ExplainOptions): RequestVerdict {
  const { cause, facts } = causeOfEntry(entry, context);
  const text = causeEntry(cause);
  const requestId = entry.requestId ?? String(entry.id);
  const names = { keyId: entry.keyId || context.deletedKey?.keyId, username: context.username, requestId };
  return {
    requestId,
    at: new Date(entry.at).toISOString(),
    status: entry.status,
    cause,
    summary: text.summary,
    why: text.why,
    remedy: fillTemplate(text.operatorRemedy, { base_url: options.publicUrl }),
    userRemedy: fillTemplate(text.userRemedy, { base_url: options.publicUrl }),
    operatorCommands: concrete(text.operatorCommands, names, options.publicUrl),
    userCommands: concrete(text.commands, names, options.publicUrl),
    facts,
    request: {
      method: entry.method,
      path: entry.path,
      protocol: entry.protocol,
      user: context.username ?? null,
      keyId: entry.keyId || context.deletedKey?.keyId || null,
      keyHint: context.keyNow?.hint ?? context.deletedKey?.hint ?? entry.keyHint,
      keyFingerprint: entry.keyFingerprint,
      model: entry.model === '(none)' ? null : entry.model,
      requestedModel: entry.requestedModel,
      errorCode: entry.errorCode,
      provider: entry.provider,
      upstreamStatus: entry.upstreamStatus,
      upstreamRequestId: entry.upstreamRequestId,
      attempts: entry.attempts,
      latencyMs: entry.latencyMs,
      sessionId: entry.sessionId,
      outcome: entry.outcome,
      inputTokens: entry.inputTokens,
      outputTokens: entry.outputTokens,
    },
  };
}

export type { RequestVerdict };
