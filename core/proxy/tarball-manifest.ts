// Reads package/package.json out of a packed npm tarball (gzip + ustar), so a tarball of another
// version is refused before anything is installed.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export interface PackageManifest {
  name?: string;
  version?: string;
  bin?: string | Record<string, string>;
}

function text(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? raw.length : end).toString('utf8');
}

/** Throws when the file is not a gzip tarball or has no top-level package.json. */
export function readTarballManifest(path: string): PackageManifest {
  const tar = gunzipSync(readFileSync(path));
  let longName: string | undefined;
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const size = parseInt(text(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] || 48);
    const prefix = text(header, 345, 155);
    let name = longName ?? (prefix ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100));
    longName = undefined;
    const body = tar.subarray(offset + 512, offset + 512 + size);
    if (type === 'x') {
      const path = /\d+ path=([^\n]*)\n/.exec(body.toString('utf8'))?.[1];
      if (path) longName = path;
    } else if (type === 'L') {
      longName = text(body, 0, body.length);
    } else if ((type === '0' || type === '\0') && /^[^/]+\/package\.json$/.test(name)) {
      return JSON.parse(body.toString('utf8')) as PackageManifest;
    }
    name = '';
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error('no package.json at the top of the tarball');
}

export function binNames(manifest: PackageManifest): string[] {
  if (typeof manifest.bin === 'string') return manifest.name ? [manifest.name.replace(/^@[^/]+\//, '')] : [];
  return manifest.bin ? Object.keys(manifest.bin) : [];
}
