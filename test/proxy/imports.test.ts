// The proxy package installs alone: its sources import node built-ins, each other, and of core/ only
// the SSE parser (pure code the build bundles, itself importing nothing); the bundle imports node
// built-ins only.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CORE_ALLOWED = new Set(['core/protocol/sse.ts']);
const specifiers = (text: string) => [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm)].map((m) => m[1] ?? m[2]!);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
}

test('proxy sources import node built-ins, proxy sources and core\'s SSE parser only', () => {
  const outside: string[] = [];
  for (const file of sources(join(ROOT, 'proxy', 'src'))) {
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('node:')) continue;
      const target = relative(ROOT, resolve(dirname(file), spec));
      if (spec.startsWith('.') && (target.startsWith('proxy/src/') || CORE_ALLOWED.has(target))) continue;
      outside.push(`${relative(ROOT, file)} → ${spec}`);
    }
  }
  assert.deepEqual(outside, []);
  for (const file of CORE_ALLOWED) assert.deepEqual(specifiers(readFileSync(join(ROOT, file), 'utf8')), [], `${file} imports nothing`);
});

test('the bundle imports node built-ins only', () => {
  const bundle = readFileSync(join(ROOT, 'proxy', 'dist', 'cache-fix-proxy.js'), 'utf8');
  const imports = specifiers(bundle).filter((spec) => !spec.startsWith('node:'));
  assert.deepEqual(imports, []);
  assert.match(bundle, /\bSseParser = class\b/, 'the SSE parser is bundled');
  assert.ok(specifiers(bundle).some((spec) => spec === 'node:http'), 'imports are found at all');
});
