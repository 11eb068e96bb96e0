// Bundles gwctl (CLI, TUI and gateway) from cli/main.ts into plain ESM in dist/: one entry file and
// chunks split at every dynamic import(), so a command loads only the chunks its handler imports.
// npm packages stay external (resolved from node_modules at run time, native ones included), except
// those where loading hundreds of small files costs more than the code: yargs (every command loads
// it; ~60 files), kysely (~300 modules, tree-shaken here; the idle gateway holds ~10 MiB less) and
// the TUI's ink and react (ink pulls in ~400 es-toolkit modules; bundled, with React's production
// build chosen at build time, the first frame needs about a third of the CPU time). They stay
// dependencies (yargs reads its locale files from its installed package). scripts/bench/startup
// measures the effect.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, sep } from 'node:path';
import { sourceUrlPlugin } from './source-url-plugin.mjs';
import { writeOutputs } from './write-outputs.mjs';

const BUILTINS = new Set(builtinModules);
const BUNDLED = new Set(['yargs', 'kysely', 'ink', 'react', 'react-reconciler']);
// Reached only through ink's devtools (DEV=true) and ws's optional speed-ups: left unresolved.
const OPTIONAL = new Set(['react-devtools-core', 'bufferutil', 'utf-8-validate']);
const isBuiltin = (specifier) => specifier.startsWith('node:') || BUILTINS.has(specifier.split('/')[0]);

/** The package name of a bare import specifier (`@scope/name/sub` -> `@scope/name`). */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * Like `packages: 'external'`, but BUNDLED packages (and what they import) go into the bundle, and
 * the string-width they use is cli/string-width.ts (see there why).
 */
function externalPackages(root) {
  return {
    name: 'external-packages',
    setup(build) {
      build.onResolve({ filter: /^string-width$/ }, (args) => (args.importer.includes('/node_modules/') ? { path: join(root, 'cli', 'string-width.ts') } : undefined));
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (OPTIONAL.has(packageName(args.path))) return { path: args.path, external: true };
        if (isBuiltin(args.path) || args.importer.includes('/node_modules/') || BUNDLED.has(packageName(args.path))) return undefined;
        return { path: args.path, external: true };
      });
    },
  };
}

export async function buildGwctl(root) {
  const outdir = join(root, 'dist');
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const result = await build({
    absWorkingDir: root,
    entryPoints: { gwctl: 'cli/main.ts' },
    outdir,
    entryNames: '[name]',
    chunkNames: '[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    jsx: 'automatic',
    sourcemap: 'linked',
    // V8 keeps every loaded module's source text in the heap for as long as the process runs (an idle
    // gateway holds ~2 MB of it); without comments and indentation it is ~20% smaller, and the chunks
    // that had a non-ASCII character only in a comment (kysely's) become one-byte strings, half the
    // size. Stack traces still name the TypeScript lines through the source maps. Names stay.
    minifyWhitespace: true,
    // Stack traces need the mappings only; leaving the sources out keeps the package small.
    sourcesContent: false,
    // Bundled packages' license notices are kept, at the end of each chunk.
    legalComments: 'eof',
    metafile: true,
    // React's production build (its development build checks what only a React developer needs).
    define: { 'process.env.NODE_ENV': '"production"' },
    // Bundled CommonJS code (signal-exit, stack-utils in ink) calls require() for node builtins.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    write: false,
    logLevel: 'warning',
    plugins: [externalPackages(root), sourceUrlPlugin(root)],
  });

  const declared = new Set(Object.keys(manifest.dependencies ?? {}));
  const undeclared = new Set();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const imported of output.imports) {
      if (imported.external && !isBuiltin(imported.path) && !OPTIONAL.has(packageName(imported.path)) && !declared.has(packageName(imported.path))) undeclared.add(packageName(imported.path));
    }
  }
  if (undeclared.size > 0) {
    throw new Error(`the build imports packages that are not in "dependencies" (an installed gwctl would not find them): ${[...undeclared].join(', ')}`);
  }
  // dist/web/ holds the browser bundles (build-web.mjs), not made here.
  const web = join(outdir, 'web') + sep;
  return { ...writeOutputs(outdir, result.outputFiles, { keep: (path) => path.startsWith(web) }), metafile: result.metafile };
}
