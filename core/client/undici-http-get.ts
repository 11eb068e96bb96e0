// The real HttpGet: undici with a connect and first-byte deadline, a bounded body, and header values
// sent byte for byte (a key pasted with typographic quotes goes out as its UTF-8 bytes, as curl would
// send it, so the server's answer is what the user's client sees).
import type { HttpGet, HttpOutcome } from './http-get.ts';
import { classifyNetworkError } from './network-error.ts';

const MAX_BODY_BYTES = 256 * 1024;

function headerBytes(value: string): string {
  // undici takes header strings as latin1; characters above U+00FF are sent as their UTF-8 bytes.
  return /[^\x00-\xff]/.test(value) ? Buffer.from(value, 'utf8').toString('latin1') : value;
}

export const undiciGet: HttpGet = async ({ url, headers = {}, timeoutMs }): Promise<HttpOutcome> => {
  // Loaded on first use: commands that never make a request (explain, config, --help) skip undici.
  const { Agent, request } = await import('undici');
  const dispatcher = new Agent({ connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  try {
    const sent: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) sent[name] = headerBytes(value);
    const response = await request(url, { method: 'GET', headers: sent, dispatcher, signal: AbortSignal.timeout(timeoutMs * 2) });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) break;
      chunks.push(chunk as Buffer);
    }
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    // Done with the connection: a graceful close. destroy() would end the socket with an error
    // whose stack Node formats (through the source maps), which costs more than the request.
    void dispatcher.close().catch(() => undefined);
    return { kind: 'response', status: response.statusCode, headers: flat, body: Buffer.concat(chunks).toString('utf8') };
  } catch (error) {
    void dispatcher.destroy().catch(() => undefined);
    return { kind: 'error', failure: classifyNetworkError(error) };
  }
};
