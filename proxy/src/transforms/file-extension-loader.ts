import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Extension, RouteName } from './types.ts';
import { errorMessage } from '../errors.ts';
import { isObject } from '../util/json-value.ts';

export interface LoadFailure {
  file: string;
  error: string;
  lastAttempt: string;
}

export interface FileLoadResult {
  extensions: Extension[];
  failures: LoadFailure[];
}

const ROUTES: readonly RouteName[] = ['messages', 'bootstrap'];

function hook<T>(owner: object, value: unknown): T | undefined {
  // Bound so that hooks written as methods keep `this` pointing at their extension object.
  return typeof value === 'function' ? (value.bind(owner) as T) : undefined;
}

/**
 * Extra extensions are `*.mjs` files in the extensions directory, imported in file-name order.
 * A file that throws while importing is a load failure and makes /health degraded; a file whose
 * default export has no name is a helper and is skipped. A missing directory means none.
 */
export async function loadFileExtensions(dir: string, generation: number, now: () => Date): Promise<FileLoadResult> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.mjs')).sort();
  } catch {
    return { extensions: [], failures: [] };
  }
  const extensions: Extension[] = [];
  const failures: LoadFailure[] = [];
  for (const file of names) {
    let mod: { default?: unknown };
    try {
      // The query defeats the ESM cache so a hot reload sees the file as it is now.
      mod = (await import(`${pathToFileURL(join(dir, file)).href}?generation=${generation}`)) as { default?: unknown };
    } catch (error) {
      failures.push({ file, error: errorMessage(error), lastAttempt: now().toISOString() });
      continue;
    }
    const ext = mod.default;
    if (!isObject(ext) || typeof ext.name !== 'string' || ext.name === '') continue;
    const routes = Array.isArray(ext.routes) ? ext.routes.filter((r): r is RouteName => ROUTES.includes(r as RouteName)) : ['messages' as const];
    extensions.push({
      name: ext.name,
      order: typeof ext.order === 'number' ? ext.order : 1000,
      enabled: typeof ext.enabled === 'boolean' ? ext.enabled : true,
      routes,
      file,
      builtin: false,
      onRequest: hook(ext, ext.onRequest),
      onResponseStart: hook(ext, ext.onResponseStart),
      onStreamEvent: hook(ext, ext.onStreamEvent),
      onResponse: hook(ext, ext.onResponse),
      close: hook(ext, ext.close),
    });
  }
  return { extensions, failures };
}
