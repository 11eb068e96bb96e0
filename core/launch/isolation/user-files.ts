// Reading the user's own client configuration for a launch: never written, missing is normal, an
// unreadable or invalid file is a note (the launch then goes without it).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { IsolationLink, IsolationSpec } from './isolation-spec.ts';

export function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** JSON with // and /* comments and trailing commas tolerated (Gemini and Qwen settings allow them). */
export function parseLooseJson(text: string): unknown {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2);
      if (i === -1) break;
      i++;
    } else out += c;
  }
  return JSON.parse(out.replace(/,(\s*[}\]])/g, '$1'));
}

/** The user's JSON object file, or {} with a note when it is not one. */
export function readJsonObject(file: string, spec: Pick<IsolationSpec, 'notes'>): Record<string, unknown> | undefined {
  const text = readText(file);
  if (text === undefined) return undefined;
  try {
    const value = parseLooseJson(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  spec.notes.push(`${file} is not a JSON object; the launch goes without it`);
  return undefined;
}

/** Links for those of `names` that exist in `from` (folders and files the client only reads). */
export function linksFor(from: string, names: string[], to = ''): IsolationLink[] {
  const out: IsolationLink[] = [];
  for (const name of names) {
    const target = join(from, name);
    if (existsSync(target)) out.push({ path: to ? join(to, name) : name, target });
  }
  return out;
}

export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Deep merge of plain objects: `over` wins, arrays and scalars replace. */
export function mergeObjects(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const old = out[key];
    out[key] = value && typeof value === 'object' && !Array.isArray(value) && old && typeof old === 'object' && !Array.isArray(old) ? mergeObjects(old as Record<string, unknown>, value as Record<string, unknown>) : value;
  }
  return out;
}
