// Collects the request ids of every answer the diagnosis gets (x-request-id and request-id headers),
// so a support bundle names the requests the service operator can look up in its request log.
import type { HttpGet } from '../client/http-get.ts';
import type { HttpPost } from '../proxy/http-post.ts';

const ID_HEADERS = ['x-request-id', 'request-id'];

export interface RequestIdLog {
  http: HttpGet;
  post: HttpPost;
  /** Every id seen, first seen first, each once. */
  ids(): string[];
}

export function requestIdLog(http: HttpGet, post: HttpPost): RequestIdLog {
  const seen = new Set<string>();
  const note = (outcome: { kind: string; headers?: Record<string, string> }) => {
    if (outcome.kind !== 'response' || !outcome.headers) return;
    for (const [name, value] of Object.entries(outcome.headers)) {
      if (ID_HEADERS.includes(name.toLowerCase()) && value) seen.add(value);
    }
  };
  return {
    http: async (request) => {
      const outcome = await http(request);
      note(outcome);
      return outcome;
    },
    post: async (request) => {
      const outcome = await post(request);
      note(outcome);
      return outcome;
    },
    ids: () => [...seen],
  };
}
