import type { ServerResponse } from 'node:http';

export function sendJson(res: ServerResponse, status: number, body: unknown, extraHeaders: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...extraHeaders, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
