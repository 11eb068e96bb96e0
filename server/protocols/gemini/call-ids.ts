// Gemini's thought signatures ride in tool call ids. A Gemini model answers 400 when a function
// call of the current turn comes back without the signature it was issued with, and clients of the
// other protocols keep nothing but the call's id; so the id handed to them carries the signature
// (base64url, after a marker), and the Gemini encoder takes it out again. Ids stay within the
// characters every protocol accepts ([A-Za-z0-9_-]).
const MARKER = '__ts_';

function toBase64Url(base64: string): string {
  return base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  return base64 + '='.repeat((4 - (base64.length % 4)) % 4);
}

/** A client-facing call id: the call's own id, and its signature when it has one. */
export function callIdWithSignature(id: string, signature: string | undefined): string {
  const safe = id.replace(/[^A-Za-z0-9_-]/g, '_');
  return signature ? `${safe}${MARKER}${toBase64Url(signature)}` : safe;
}

/** The call's own id and the signature a client-facing id carries. */
export function splitCallId(id: string): { id: string; signature?: string } {
  const at = id.indexOf(MARKER);
  if (at === -1) return { id };
  return { id: id.slice(0, at), signature: fromBase64Url(id.slice(at + MARKER.length)) };
}

/**
 * What Gemini accepts in place of a signature for a call it did not issue (a turn that came from
 * another model), as its documentation gives it; without one, a Gemini 3 model refuses the request.
 */
export const SKIP_SIGNATURE = 'skip_thought_signature_validator';
