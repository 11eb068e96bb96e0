// Writes esbuild's in-memory output to disk, touching only files whose bytes changed and removing
// the ones a build no longer makes (chunk names carry a hash, so old chunks would pile up). Files
// whose names `keep` accepts are left alone (e.g. the proxy tarball next to the proxy bundle).
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

function filesUnder(dir) {
  let names;
  try {
    names = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return names.flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]));
}

function sameBytes(path, contents) {
  try {
    return Buffer.compare(readFileSync(path), contents) === 0;
  } catch {
    return false;
  }
}

/** Returns how many files were written and removed. */
export function writeOutputs(outdir, outputFiles, { keep = () => false, mode } = {}) {
  const produced = new Set(outputFiles.map((file) => file.path));
  let written = 0;
  let removed = 0;
  for (const file of outputFiles) {
    if (sameBytes(file.path, file.contents)) continue;
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.contents, mode && file.path.endsWith('.js') ? { mode } : undefined);
    written += 1;
  }
  for (const path of filesUnder(outdir)) {
    if (produced.has(path) || keep(path)) continue;
    rmSync(path, { force: true });
    removed += 1;
  }
  return { written, removed };
}
