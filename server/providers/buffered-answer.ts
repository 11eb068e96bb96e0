// An answer the provider made or rewrote itself (a mapped error, a converted count), already whole.
import type { ProviderResponse } from './provider.ts';

async function* once(bytes: Buffer): AsyncGenerator<Uint8Array> {
  yield bytes;
}

export function bufferedAnswer(status: number, headers: Record<string, string>, bytes: Buffer): ProviderResponse {
  return { status, headers: { ...headers, 'content-type': 'application/json' }, body: once(bytes), bytes };
}
