// Stack traces of the build name the TypeScript lines, through dist/*.js.map. Node's own source-map
// support (--enable-source-maps) reads and parses the map of every chunk as it loads, which costs
// each command tens of milliseconds; here a map is read only when a stack that passes through its
// chunk is formatted (an error being printed or logged).
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const LOCATION = /(?:file:\/\/)?(\/[^\s()]+\.js):(\d+):(\d+)/g;
const maps = new Map();

function mapOf(file) {
  if (!maps.has(file)) {
    let map = null;
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      // No map (or not ours): the location stays as it is.
    }
    maps.set(file, map);
  }
  return maps.get(file);
}

function original(location, file, line, column) {
  if (!file.startsWith(DIST)) return location;
  const entry = mapOf(file)?.findEntry(Number(line) - 1, Number(column) - 1);
  if (!entry?.originalSource) return location;
  return `${resolve(dirname(file), entry.originalSource)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
}

Error.prepareStackTrace = (error, callSites) => {
  let header;
  try {
    header = Error.prototype.toString.call(error);
  } catch {
    header = 'Error';
  }
  return [header, ...callSites.map((site) => `    at ${String(site).replace(LOCATION, original)}`)].join('\n');
};
