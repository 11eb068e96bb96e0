import type { IncomingMessage } from 'node:http';

export type Collected =
  | { complete: true; body: Buffer }
  /** The answer is larger than the cap: what was read so far, with the stream paused after it. */
  | { complete: false; head: Buffer[] };

/**
 * Reads an upstream answer whole for the hooks that need it, up to `cap` bytes. A larger answer is
 * not held: the caller passes it through untouched, so an endless or huge body costs no more memory
 * than the cap (one string of a few GiB would end the process, with no error to catch).
 */
export function collectUpTo(stream: IncomingMessage, cap: number): Promise<Collected> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      size += chunk.length;
      if (size <= cap) return;
      stream.pause();
      cleanup();
      resolve({ complete: false, head: chunks });
    };
    const onEnd = (): void => {
      cleanup();
      resolve({ complete: true, body: Buffer.concat(chunks, size) });
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const onClose = (): void => {
      cleanup();
      reject(new Error('upstream closed the answer before it ended'));
    };
    function cleanup(): void {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
    }
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
    stream.once('close', onClose);
  });
}
