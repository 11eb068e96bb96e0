// esbuild plugin: keeps `import.meta.url` meaning "where this file sits in the installed package"
// after bundling. Some modules find files next to themselves (the web assets, the proxy tarball, a
// require() base, yargs' locales); bundled into dist/<chunk>.js they would look next to the chunk
// instead. Every output file sits directly in dist/, so a file's own URL is `../<path from the
// root>` resolved against the chunk's URL.
import { readFile } from 'node:fs/promises';
import { extname, relative, sep } from 'node:path';

const LOADERS = { '.ts': 'ts', '.mts': 'ts', '.tsx': 'tsx', '.js': 'js', '.mjs': 'js', '.cjs': 'js' };

export function sourceUrlPlugin(root) {
  return {
    name: 'source-url',
    setup(build) {
      build.onLoad({ filter: /\.(ts|mts|tsx|js|mjs|cjs)$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const fromOutput = `../${relative(root, args.path).split(sep).join('/')}`;
        const contents = text.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromOutput)}, import.meta.url).href`);
        return { contents, loader: LOADERS[extname(args.path)] };
      });
    },
  };
}
