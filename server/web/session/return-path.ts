// Where a page may send the browser back to (`next` after login, and any other redirect built from
// input): a path on this site only. Browsers repair what they are given (they drop tabs and line
// breaks, read `\` as `/`, and resolve `/.//x` to `//x`), so the value is resolved the way a browser
// would and refused unless the result stays on this origin; the path sent is the resolved one.

/** Where a refused value leads instead. */
export const FALLBACK_RETURN_PATH = '/keys';
/** Where a login leads when nothing was asked for. */
export const DEFAULT_RETURN_PATH = '/apps/chat';

// Any origin does: only whether resolving keeps it matters.
const ORIGIN = 'http://gateway.invalid';

export type ReturnPath = { ok: true; path: string } | { ok: false };

export function resolveReturnPath(raw: unknown): ReturnPath {
  if (raw === undefined || raw === '') return { ok: true, path: DEFAULT_RETURN_PATH };
  if (typeof raw !== 'string' || raw.length > 2048) return { ok: false };
  // Control characters, spaces and any other whitespace (browsers strip some of them silently).
  if (/[\u0000-\u0020\u007f-\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f\u3000\ufeff]/.test(raw)) return { ok: false };
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return { ok: false };
  let url: URL;
  try {
    url = new URL(raw, ORIGIN);
  } catch {
    return { ok: false };
  }
  if (url.origin !== ORIGIN) return { ok: false };
  const path = `${url.pathname}${url.search}${url.hash}`;
  // `/.//evil` resolves to the path `//evil`, which a browser would read as another host.
  if (path.startsWith('//') || new URL(path, ORIGIN).origin !== ORIGIN) return { ok: false };
  return { ok: true, path };
}

/** The path to go to: the value when it is safe, else the fallback. */
export function safeReturnPath(raw: unknown): string {
  const resolved = resolveReturnPath(raw);
  return resolved.ok ? resolved.path : FALLBACK_RETURN_PATH;
}
