// The support desk's answers as text: one request's verdict, a key lookup, an account overview.
// The same documents go out as JSON with --json; these are for people reading a terminal.
import { formatTime } from '../../core/format-time.ts';
import type { FailureCount, KeyFindResult, RequestVerdict, SupportVerdict } from '../../core/support/support-documents.ts';
import type { UserOverview } from '../../server/support/user-overview.ts';
import { formatTable } from './format-table.ts';

const indent = (lines: readonly string[], prefix = '  '): string[] => lines.map((l) => `${prefix}${l}`);
const commandLines = (commands: readonly string[]): string[] => commands.map((c) => `  $ ${c}`);

export function renderRequestVerdict(v: RequestVerdict): string {
  const r = v.request;
  const who = [r.user ? `user ${r.user}` : null, r.keyId ? `key ${r.keyId}` : null, r.keyHint ? `(${r.keyHint})` : null].filter(Boolean).join(' ');
  const upstream = r.provider ? `provider ${r.provider}${r.upstreamStatus ? ` answered ${r.upstreamStatus}` : ''}${r.upstreamRequestId ? `, its id ${r.upstreamRequestId}` : ''}` : null;
  const lines = [
    `Request ${v.requestId}  ${formatTime(v.at, { seconds: true })}`,
    `  ${r.method ?? '?'} ${r.path ?? '?'} (${r.protocol ?? 'unknown protocol'}) -> ${v.status}${r.errorCode ? ` ${r.errorCode}` : ''}${r.outcome ? ` [${r.outcome}]` : ''}, ${Math.round(r.latencyMs)} ms`,
    ...(who ? [`  ${who}`] : []),
    ...(r.model ? [`  model ${r.model}${r.requestedModel ? ` (asked for ${r.requestedModel})` : ''}${r.inputTokens || r.outputTokens ? `, ${r.inputTokens} in / ${r.outputTokens} out tokens` : ''}`] : []),
    ...(upstream ? [`  ${upstream}`] : []),
    '',
    `Cause: ${v.cause}  ${v.summary}`,
    ...indent(v.facts.map((f) => `- ${f}`)),
    `Why: ${v.why}`,
    '',
    `Operator: ${v.remedy}`,
    ...commandLines(v.operatorCommands),
    `Tell the user: ${v.userRemedy}`,
    ...commandLines(v.userCommands),
  ];
  return `${lines.join('\n')}\n`;
}

function failureLines(failures: readonly FailureCount[], days: number): string[] {
  if (failures.length === 0) return [`  no failures in the last ${days} days`];
  return failures.map((f) => `  ${String(f.count).padStart(5)} ${f.cause}  last ${formatTime(f.lastAt)}${f.lastRequestId ? `  (gwctl admin request ${f.lastRequestId})` : ''}`);
}

export function renderKeyFind(result: KeyFindResult): string {
  const out: string[] = [];
  if (result.keys.length === 0 && result.refusedValues.length === 0) {
    return `No key, deleted key or refused value matches ${result.query} (read as a ${result.kind}; the request log covers ${result.days} days).\n`;
  }
  for (const k of result.keys) {
    out.push(`Key ${k.keyId} ${k.hint}${k.name ? ` "${k.name}"` : ''}  owner ${k.owner ?? '(unknown)'}  state ${k.state.toUpperCase()}`);
    if (k.state === 'deleted') out.push(`  deleted ${formatTime(k.deletedAt, { seconds: true })}${k.deletedBy ? ` by ${k.deletedBy}` : ''}`);
    out.push(`  created ${formatTime(k.createdAt)}, last used ${formatTime(k.lastUsedAt)}${k.fingerprint ? `, fingerprint ${k.fingerprint}` : ''}`);
    if (k.limits) {
      const budgets = Object.entries(k.limits.budgets).filter(([, v]) => v !== null).map(([n, v]) => `${n} ${v}`);
      const limits = [
        k.limits.expiresAt ? `expires ${formatTime(k.limits.expiresAt)}` : null,
        k.limits.models ? `models ${k.limits.models.join(', ')}` : null,
        k.limits.rateLimit !== null ? `${k.limits.rateLimit} requests/min` : null,
        ...budgets,
      ].filter(Boolean);
      out.push(`  limits: ${limits.length ? limits.join('; ') : 'none'}`);
    }
    out.push(`  failures, last ${result.days} days:`, ...failureLines(k.recentFailures, result.days), '');
  }
  if (result.refusedValues.length > 0) {
    out.push(`Values no key ever had (mistyped or incomplete), last ${result.days} days:`);
    out.push(...indent(formatTable(['HINT', 'FINGERPRINT', 'REQUESTS', 'LAST', 'LAST REQUEST'], result.refusedValues.map((v) => [v.hint, v.fingerprint, v.requests, formatTime(v.lastAt), v.lastRequestId])).trimEnd().split('\n')));
  }
  return `${out.join('\n').trimEnd()}\n`;
}

export function renderUserOverview(o: UserOverview): string {
  const budgets = Object.entries(o.limits.budgets).filter(([, v]) => v !== null).map(([n, v]) => `${n} ${v}`);
  const limits = [o.limits.models ? `models ${o.limits.models.join(', ')}` : null, ...budgets].filter(Boolean);
  const out = [
    `User ${o.username} (${o.userId})  ${o.disabled ? 'DISABLED' : 'active'}${o.isAdmin ? ', operator' : ''}, created ${formatTime(o.createdAt)}`,
    `  limits: ${limits.length ? limits.join('; ') : 'none'}`,
    '',
    'Keys:',
    ...indent(formatTable(['ID', 'HINT', 'NAME', 'STATE', 'CREATED', 'LAST USED', 'EXPIRES/DELETED'], o.keys.map((k) => [k.keyId, k.hint, k.name, k.state, formatTime(k.createdAt), formatTime(k.lastUsedAt), k.deletedAt ? formatTime(k.deletedAt) : k.expiresAt ? formatTime(k.expiresAt) : null])).trimEnd().split('\n')),
    '',
    `Requests in the last ${o.days} days: ${o.recentRequests}; failures by cause:`,
    ...failureLines(o.recentFailures, o.days),
  ];
  return `${out.join('\n')}\n`;
}

export function renderSupportVerdict(result: SupportVerdict): string {
  const v = result.verdict;
  const lines = [
    `Verdict: ${v.cause}  ${v.summary}`,
    `  decided by ${v.source === 'service' ? 'what the gateway recorded' : "the user's diagnosis"}`,
    ...indent(v.facts.map((f) => `- ${f}`)),
    '',
    `Operator: ${v.remedy}`,
    `Tell the user: ${v.userRemedy}`,
    '',
    `User's diagnosis: ${result.client.cause ?? 'none'}${result.client.createdAt ? ` (bundle of ${formatTime(result.client.createdAt, { seconds: true })})` : ''}`,
    `Requests found: ${result.requests.length}${result.unknownRequestIds.length ? `; not in this gateway's log: ${result.unknownRequestIds.join(', ')}` : ''}`,
    ...indent(formatTable(['REQUEST', 'WHEN', 'STATUS', 'CAUSE', 'PATH'], result.requests.map((r) => [r.requestId, formatTime(r.at, { seconds: true }), r.status, r.cause, r.request.path])).trimEnd().split('\n')),
  ];
  return `${lines.join('\n')}\n`;
}
