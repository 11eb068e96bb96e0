// A diagnosis with faked HTTP under a temp HOME, shared by the scenario and verdict tests: the proxy's
// /health, the model lists of the text and image addresses, and the short real request are answered
// by the test; settings and service-definition files are written under the temp HOME.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { HttpGet, HttpOutcome } from '../../../core/client/http-get.ts';
import { resolveSettings } from '../../../core/config/resolve-settings.ts';
import { SettingsFile } from '../../../core/config/settings-file.ts';
import type { ClientKind } from '../../../core/doctor/client-kind.ts';
import { runDiagnosis } from '../../../core/doctor/run-diagnosis.ts';
import type { HttpPost, PostOutcome, PostRequest } from '../../../core/proxy/http-post.ts';
import type { ProxyEnvironmentReader } from '../../../core/proxy/running-proxy-environment.ts';

export const BASE = 'https://gw.example.com';
export const IMAGES = 'https://img.gw.example.com';
export const PROXY = 'http://127.0.0.1:9801';
export const KEY = 'sk-' + 'g'.repeat(44) + 'Gg12';
export const GATEWAY = { 'x-request-id': 'req_gw7', 'request-id': 'req_gw7' };

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): HttpOutcome => ({ kind: 'response', status, headers, body: JSON.stringify(body) });
export const answer = (status: number, body: unknown, headers: Record<string, string> = GATEWAY): PostOutcome => ({ kind: 'response', status, headers, body: JSON.stringify(body), eventStream: false });
export const refused: HttpOutcome = { kind: 'error', failure: { kind: 'refused', code: 'ECONNREFUSED', message: 'refused' } };
export const MODELS = json(200, { object: 'list', data: [{ id: 'demo-chat' }] });
export const REPLY = answer(200, { type: 'message', content: [{ type: 'text', text: 'Demo' }] }, { ...GATEWAY, 'x-gateway-provider': 'demo' });
export const CHAT_REPLY = answer(200, { object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'Demo' }, finish_reason: 'length' }] }, { ...GATEWAY, 'x-gateway-provider': 'demo' });

const root = mkdtempSync(join(tmpdir(), 'gwctl-diag-h-'));
process.on('exit', () => rmSync(root, { recursive: true, force: true }));
let n = 0;

export interface Scenario {
  env?: NodeJS.ProcessEnv;
  /** Files to write, relative to the temp HOME. */
  files?: Record<string, string>;
  flags?: Record<string, string>;
  status?: number;
  client?: ClientKind;
  sendRequest?: boolean;
  /** Answers by URL; unlisted: /health ok, the models lists 200. */
  get?: Record<string, HttpOutcome>;
  messages?: PostOutcome;
  /** The answer to a chat client's short chat-completions request (default: a normal one). */
  chat?: PostOutcome;
  /** The running proxy's process environment as gwctl reads it; absent: not read. */
  proxyEnvironment?: ProxyEnvironmentReader;
}

export async function diagnose(s: Scenario) {
  const home = join(root, `h${++n}`);
  mkdirSync(home, { recursive: true });
  for (const [file, text] of Object.entries(s.files ?? {})) {
    mkdirSync(dirname(join(home, file)), { recursive: true });
    writeFileSync(join(home, file), text);
  }
  // The addresses as configured (not flags): a flag's base URL is taken as the client's, as given.
  const env: NodeJS.ProcessEnv = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), PATH: '/nonexistent', GWCTL_BASE_URL: BASE, GWCTL_IMAGE_BASE_URL: IMAGES, GWCTL_PROXY_URL: PROXY, ...s.env };
  const settings = resolveSettings({ file: new SettingsFile(env), env, flags: { ...s.flags } });
  const gets: string[] = [];
  const http: HttpGet = async ({ url }) => {
    gets.push(url);
    if (s.get && url in s.get) return s.get[url]!;
    if (url === `${PROXY}/health`) return json(200, { status: 'ok' });
    if (url.endsWith('/models')) return MODELS;
    throw new Error(`unexpected GET ${url}`);
  };
  const posts: PostRequest[] = [];
  const post: HttpPost = async (request) => {
    posts.push(request);
    // A chat client's short request in its own protocol gets a chat-completions answer.
    if (request.url.endsWith('/v1/chat/completions')) return s.chat ?? CHAT_REPLY;
    return s.messages ?? REPLY;
  };
  const report = await runDiagnosis({ env, cwd: join(home, 'project'), settings, http, post, status: s.status, client: s.client, sendRequest: s.sendRequest, procVersion: () => '', proxyEnvironment: s.proxyEnvironment });
  const by = Object.fromEntries(report.checks.map((c) => [c.id, c]));
  return { report, by, gets, posts, home };
}
