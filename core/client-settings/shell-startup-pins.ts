// Variables pinned in shell startup files (`export NAME=…`, fish `set -gx NAME …`). Only a line that
// is exactly one assignment is changed; it becomes a no-op (`true  # …`) rather than disappearing, so
// an `if … then … fi` around it stays valid shell. Anything more complex is reported, not touched.
import { makeEntry, type PinnedEntry, type PinRole, type PinVariables } from './pinned-entry.ts';

interface Word {
  value: string;
  end: number;
  computed: boolean;
}

/** Reads one shell word from `at`: quotes and escapes resolved; `$(…)`/backticks mark it computed. */
function readWord(line: string, at: number): Word | undefined {
  let value = '';
  let i = at;
  let computed = false;
  while (i < line.length) {
    const c = line[i]!;
    if (/\s|[;&|<>()]/.test(c)) break;
    if (c === "'") {
      const close = line.indexOf("'", i + 1);
      if (close < 0) return undefined;
      value += line.slice(i + 1, close);
      i = close + 1;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && j + 1 < line.length) j++;
        if (line[j] === '`' || (line[j] === '$' && line[j + 1] === '(')) computed = true;
      }
      if (j >= line.length) return undefined;
      value += line.slice(i + 1, j).replace(/\\(.)/g, '$1');
      i = j + 1;
    } else if (c === '\\') {
      if (i + 1 >= line.length) return undefined;
      value += line[i + 1];
      i += 2;
    } else {
      if (c === '`' || (c === '$' && line[i + 1] === '(')) computed = true;
      value += c;
      i++;
    }
  }
  return { value, end: i, computed };
}

function restIsEmpty(line: string, at: number): boolean {
  const rest = line.slice(at).trim();
  return rest === '' || rest.startsWith('#');
}

const POSIX = /^(\s*)(?:export\s+|declare\s+-x\s+|typeset\s+-x\s+)?([A-Za-z_][A-Za-z0-9_]*)=/;
const FISH = /^(\s*)set\s+((?:-[A-Za-z]+\s+|--[a-z]+\s+)*)([A-Za-z_][A-Za-z0-9_]*)(?:\s+|$)/;

const NO_OP_PREFIX = 'true  # gwctl start removed a pinned ';

export const shellStartupPins = {
  find(file: string, text: string, vars: PinVariables): PinnedEntry[] {
    const wanted = new Map<string, PinRole>([
      [vars.baseUrl, 'baseUrl'],
      [vars.token, 'token'],
      [vars.apiKey, 'apiKey'],
    ]);
    const entries: PinnedEntry[] = [];
    text.split(/\r?\n/).forEach((line, index) => {
      if (/^\s*#/.test(line) || line.startsWith(NO_OP_PREFIX.trimEnd())) return;
      const lineNo = index + 1;
      const posix = POSIX.exec(line);
      const fish = posix ? null : FISH.exec(line);
      const name = posix?.[2] ?? fish?.[3];
      if (name && wanted.has(name) && !(fish && /-[A-Za-z]*[eqn]/.test(fish[2]!))) {
        const role = wanted.get(name)!;
        const start = (posix ?? fish)![0].length;
        const word = readWord(line, start);
        const clean = word !== undefined && !word.computed && restIsEmpty(line, word.end) && !/\\\s*$/.test(line);
        const value = word?.value ?? '';
        entries.push(
          makeEntry(
            clean
              ? { file, fileKind: 'shell', variable: name, role, line: lineNo, removable: true }
              : { file, fileKind: 'shell', variable: name, role, line: lineNo, removable: false, note: 'the line does more than set the variable (or computes its value); edit it by hand' },
            value,
          ),
        );
        return;
      }
      for (const [variable, role] of wanted) {
        if (new RegExp(`(^|[^A-Za-z0-9_])${variable}=`).test(line)) {
          entries.push(makeEntry({ file, fileKind: 'shell', variable, role, line: lineNo, removable: false, note: 'set inside a longer command (alias, function or prefix); edit it by hand' }, ''));
        }
      }
    });
    return entries;
  },

  /** The text with the given 1-based lines replaced by a no-op naming the variable; line endings kept. */
  remove(text: string, lines: Map<number, string>): string {
    const parts = text.split(/(\r?\n)/);
    for (let i = 0, lineNo = 1; i < parts.length; i += 2, lineNo++) {
      const variable = lines.get(lineNo);
      if (variable === undefined) continue;
      const indent = /^\s*/.exec(parts[i]!)![0];
      parts[i] = `${indent}${NO_OP_PREFIX}${variable} (gwctl start --restore puts it back)`;
    }
    return parts.join('');
  },
};
