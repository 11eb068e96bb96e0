// Stack traces of the build name the TypeScript lines, through dist/*.js.map. Node's own source-map
// support (--enable-source-maps) reads and parses the map of every chunk as it loads, which costs
// each command tens of milliseconds; here a map is read only when a stack that passes through its
// chunk is formatted (an error being printed or logged). A map takes tens of milliseconds to parse
// and megabytes to keep, and node itself formats the stack of every error a stream is destroyed with
// (a client that goes away, a reset connection): those connection errors keep their built locations,
// so the gateway's first client disconnect neither stalls it nor grows it.
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

/** Errors of the connection, not of the code: a reset or closed socket or stream, an aborted request. */
const CONNECTION_ERROR = /^(?:ECONNRESET|EPIPE|ECONNABORTED|ECONNREFUSED|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ERR_STREAM_PREMATURE_CLOSE|ERR_STREAM_DESTROYED|ABORT_ERR|UND_ERR_[A-Z_]+)$/;

/** Whether the stack of `error` is worth mapping back to the TypeScript lines. */
export function mapsStackOf(error) {
  const code = error !== null && typeof error === 'object' ? error.code : undefined;
  return !(typeof code === 'string' && CONNECTION_ERROR.test(code)) && error?.name !== 'AbortError';
}

Error.prepareStackTrace = (error, callSites) => {
  let header;
  try {
    header = Error.prototype.toString.call(error);
  } catch {
    header = 'Error';
  }
  const map = mapsStackOf(error);
  return [header, ...callSites.map((site) => `    at ${map ? String(site).replace(LOCATION, original) : String(site)}`)].join('\n');
};
