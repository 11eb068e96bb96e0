// Lints a key value before it is used: missing, whitespace or line breaks, quotes
// (straight around it, or typographic anywhere), and a missing `sk-` prefix (warning only).
import type { CauseCode } from './cause-codes.ts';

export interface KeyFinding {
  cause: CauseCode;
  severity: 'fail' | 'warn';
  detail: string;
}

const TYPOGRAPHIC = /[\u2018\u2019\u201A\u201B\u201C\u201D\u201E\u201F\u00AB\u00BB\u2039\u203A]/;

export function lintKey(value: string | undefined): KeyFinding[] {
  if (value === undefined || value === '') return [{ cause: 'KEY_MISSING', severity: 'fail', detail: 'empty or not set' }];
  const findings: KeyFinding[] = [];
  if (/[\r\n]/.test(value)) findings.push({ cause: 'KEY_WHITESPACE', severity: 'fail', detail: 'contains a line break' });
  else if (/^\s|\s$/.test(value)) findings.push({ cause: 'KEY_WHITESPACE', severity: 'fail', detail: 'starts or ends with a space or tab' });
  else if (/\s/.test(value)) findings.push({ cause: 'KEY_WHITESPACE', severity: 'fail', detail: 'contains a space or tab' });
  const bare = value.trim();
  if (TYPOGRAPHIC.test(value)) findings.push({ cause: 'KEY_QUOTES', severity: 'fail', detail: 'contains typographic quotes (“ ” ‘ ’), usually pasted from a document or chat' });
  else if (/^(["']).*\1$/s.test(bare) || /^["']|["']$/.test(bare)) findings.push({ cause: 'KEY_QUOTES', severity: 'fail', detail: 'is wrapped in quotes; the quotes became part of the value' });
  const cleaned = bare.replace(/^["'\u2018\u2019\u201C\u201D]+|["'\u2018\u2019\u201C\u201D]+$/g, '').trim();
  // gwa-: a short-lived access token of a device sign-in (gwctl login), as good as a key.
  if (!cleaned.startsWith('sk-') && !cleaned.startsWith('gwa-')) findings.push({ cause: 'KEY_PREFIX', severity: 'warn', detail: 'does not start with sk- (keys of this service normally do)' });
  return findings;
}
