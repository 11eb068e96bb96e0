// Listens to a node stream's data, end and error events until an outcome is known, then removes
// every listener it added: one promise for the whole stream instead of one per chunk.
import type { Readable } from 'node:stream';

export type Settled<T> = { value: T } | { error: Error };

/**
 * `data` returns undefined to keep listening, or the outcome; `end` gives the outcome when the
 * stream ends first. An 'error' event rejects.
 */
export function settleOnEvents<T>(body: Readable, data: (chunk: Buffer) => Settled<T> | undefined, end: () => T): Promise<T> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      const outcome = data(chunk);
      if (outcome === undefined) return;
      cleanup();
      if ('error' in outcome) reject(outcome.error);
      else resolve(outcome.value);
    };
    const onEnd = () => {
      cleanup();
      resolve(end());
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onError);
  });
}
