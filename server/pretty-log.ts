// The human-readable log format (`--log-format pretty`, the default on a terminal): one line per
// entry, "2026-11-27 04:42:10 UTC INFO  request method=GET path=/v1/models status=200 ms=3", from
// pino's JSON lines. Machines get the JSON (the default elsewhere, e.g. under systemd).
import { formatTime } from '../core/format-time.ts';

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
const SKIPPED = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'v']);

function value(v: unknown): string {
  if (typeof v === 'string') return /[\s"=]/.test(v) ? JSON.stringify(v) : v;
  return JSON.stringify(v);
}

export function prettyLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const time = typeof entry.time === 'number' ? formatTime(new Date(entry.time).toISOString(), { seconds: true }) : '';
  const fields: string[] = [];
  let stack = '';
  for (const [name, v] of Object.entries(entry)) {
    if (SKIPPED.has(name) || v === undefined) continue;
    if (name === 'err' && v && typeof v === 'object') {
      const err = v as { message?: string; stack?: string };
      fields.push(`err=${value(err.message ?? '')}`);
      if (err.stack) stack = `\n    ${err.stack.split('\n').slice(1).join('\n    ').trim()}`;
      continue;
    }
    fields.push(`${name}=${value(v)}`);
  }
  return `${time} ${LEVELS[entry.level as number] ?? String(entry.level)} ${String(entry.msg ?? '')}${fields.length ? ` ${fields.join(' ')}` : ''}${stack}\n`;
}

/** A pino destination that writes pretty lines to a stream (stderr). */
export function prettyDestination(out: { write(text: string): unknown } = process.stderr): { write(line: string): void } {
  return { write: (line) => void out.write(prettyLine(line)) };
}
