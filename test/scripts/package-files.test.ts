// Every file a message points users to ships in the package (`files` in package.json), and the
// documents that ship with the gateway cite nothing users do not have (the spec, DESIGN.md, section
// numbers). Messages are the string literals of the code that runs for users (comments excluded).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const files = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] }).files;

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

function shipped(path: string): boolean {
  return files.some((entry) => path === entry || path.startsWith(`${entry}/`));
}

/** Code without its comments (line comments, block comments), string contents kept. */
function withoutComments(code: string): string {
  return code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** The coding clients' own instruction files in the user's folders, which `gwctl start` carries into a launch: not ours to ship. */
const CLIENT_INSTRUCTION_FILES = new Set(['CLAUDE.md', 'AGENTS.md', 'GEMINI.md', 'QWEN.md']);

test('every .md file a user-facing message names ships in the package', () => {
  const cited = new Map<string, string>();
  for (const file of ['server', 'cli', 'core', 'tui'].flatMap(sources)) {
    for (const match of withoutComments(readFileSync(join(ROOT, file), 'utf8')).matchAll(/\b((?:[\w.-]+\/)*[\w.-]+\.md)\b/g)) cited.set(match[1]!, file);
  }
  assert.ok(cited.has('server/README.md'), 'control: the providers-file error names server/README.md');
  const missing = [...cited].filter(([path]) => !shipped(path) && !CLIENT_INSTRUCTION_FILES.has(path)).map(([path, file]) => `${path} (named in ${relative(ROOT, join(ROOT, file))})`);
  assert.deepEqual(missing, []);
});

test('the documents shipped with the gateway cite no file users do not have', () => {
  for (const doc of files.filter((f) => f.endsWith('.md') && f !== 'README.md')) {
    const text = readFileSync(join(ROOT, doc), 'utf8');
    assert.doesNotMatch(text, /spec\/service\.md|DESIGN\.md|§\s*\d/, doc);
  }
});
