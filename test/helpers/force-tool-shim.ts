// A loopback pass-through in front of the gateway that makes a request offering tools force one
// (chat and Responses tool_choice "required", messages {"type":"any"}, Gemini mode ANY), so the
// demo answers with a tool call and a real client's tool round trip can be seen. It records each
// request's path and whether it carried a tool result back. Bodies otherwise pass unchanged.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ShimRecord {
  path: string;
  forced: boolean;
  /** The request carries a tool's result (the second half of a round trip). */
  toolResult: boolean;
}

function force(path: string, body: any): boolean {
  if (!body || typeof body !== 'object') return false;
  if (/:(stream)?generateContent/i.test(path)) {
    if (!Array.isArray(body.tools) || body.tools.length === 0) return false;
    body.toolConfig = { functionCallingConfig: { mode: 'ANY' } };
    return true;
  }
  if (!Array.isArray(body.tools) || body.tools.length === 0) return false;
  if (path.includes('/messages')) body.tool_choice = { type: 'any' };
  else body.tool_choice = 'required';
  return true;
}

function carriesToolResult(body: any): boolean {
  const text = JSON.stringify(body ?? {});
  return /"tool_result"|"role":"tool"|"function_call_output"|"functionResponse"/.test(text);
}

export class ForceToolShim {
  readonly records: ShimRecord[] = [];
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(target: string): Promise<ForceToolShim> {
    let shim!: ForceToolShim;
    const server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      let raw = Buffer.concat(chunks);
      const path = req.url ?? '/';
      let forced = false;
      let toolResult = false;
      if (raw.length > 0 && /json/.test(String(req.headers['content-type'] ?? ''))) {
        try {
          const body = JSON.parse(raw.toString('utf8'));
          toolResult = carriesToolResult(body);
          // Once a result came back the demo may answer in text: forcing again would loop (some
          // clients append a reminder after the tool result, so the demo would not see it last).
          forced = !toolResult && force(path, body);
          if (forced) raw = Buffer.from(JSON.stringify(body));
        } catch {
          // not JSON: passed on as it came
        }
      }
      shim.records.push({ path, forced, toolResult });
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value === undefined || ['host', 'content-length', 'connection', 'transfer-encoding'].includes(name)) continue;
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      try {
        const answer = await fetch(`${target}${path}`, { method: req.method, headers, body: raw.length > 0 ? raw : undefined });
        const out: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name)) out[name] = value;
        });
        res.writeHead(answer.status, out);
        if (answer.body) for await (const chunk of answer.body) res.write(chunk);
        res.end();
      } catch (error) {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `shim: ${(error as Error).message}` } }));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    shim = new ForceToolShim(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return shim;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
