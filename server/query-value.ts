// One value of a request URL's query, read without building a URLSearchParams (which costs about a
// microsecond a request on the hot path): a query whose names and values are plain text is scanned
// directly; one with percent-escapes or '+' is handed to URLSearchParams, which decodes them.

/** The first value of `name` in the query of `url` (undefined when absent), decoded as URLSearchParams would. */
export function queryValue(url: string, name: string): string | undefined {
  const query = url.indexOf('?');
  if (query === -1) return undefined;
  const text = url.slice(query + 1);
  if (text.indexOf('%') !== -1 || text.indexOf('+') !== -1) return new URLSearchParams(text).get(name) ?? undefined;
  for (let start = 0; start <= text.length; ) {
    let end = text.indexOf('&', start);
    if (end === -1) end = text.length;
    const equals = text.indexOf('=', start);
    const nameEnd = equals === -1 || equals > end ? end : equals;
    if (nameEnd - start === name.length && text.startsWith(name, start)) return nameEnd === end ? '' : text.slice(nameEnd + 1, end);
    start = end + 1;
  }
  return undefined;
}
