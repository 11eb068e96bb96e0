// One non-interactive client run through the proxy (acceptance layer claude_routed, the regression
// step): the client from the profile, its base address set to the proxy, exactly one
// credential variable, the model gwctl start would give it, a short prompt asking for a one-word reply.
import { serviceAddress } from '../config/service-address.ts';
import { findCredential } from '../launch/client-credential.ts';
import { buildClientEnv } from '../launch/client-env.ts';
import type { ModelChoice } from '../launch/model-choice.ts';
import { startModel } from '../launch/start-model.ts';
import { resolveCommand } from '../launch/resolve-command.ts';
import type { RouteDecision } from '../launch/route-decision.ts';
import { commandLine, describeRun } from './command-runner.ts';
import { profileOf, proxyUrlOf, type ProxyOperationDeps } from './operation-deps.ts';

export const ONE_WORD_PROMPT = 'Reply with exactly one word: ok';

export interface ClientRun {
  ok: boolean;
  /** The command as run, without secrets. */
  command: string;
  exitCode: number | null;
  /** What the client printed on stdout (trimmed, bounded). */
  reply: string;
  /** stdout and stderr, bounded, for evidence. */
  output: string;
  /** An HTTP status the client reported, when its output names one. */
  status?: number;
  notFound?: boolean;
  aborted?: boolean;
  observed: string;
}

export interface ClientRunOptions {
  prompt?: string;
  /** Resume the last session (the resume run of the regression step). */
  resume?: boolean;
  signal?: AbortSignal;
  onOutput?: (line: string) => void;
}

/** The environment the client gets for the proxy route (the one `gwctl start` would give it). */
export function proxyRouteEnv(deps: ProxyOperationDeps, model?: ModelChoice): NodeJS.ProcessEnv {
  const proxyUrl = proxyUrlOf(deps);
  const route: RouteDecision = { kind: 'proxy', baseUrl: proxyUrl, reason: 'acceptance through the proxy', proxy: { url: proxyUrl, state: 'ok', observed: '' }, warnings: [] };
  return buildClientEnv(deps.env, profileOf(deps), route, model).env;
}

/** The model `gwctl start` would give the client (a served one when the gateway has none of its own). */
async function clientModel(deps: ProxyOperationDeps): Promise<ModelChoice | undefined> {
  const profile = profileOf(deps);
  if (deps.settings.baseUrl.value === null) return undefined;
  return startModel({ profile, env: deps.env, http: deps.http, root: serviceAddress(deps.settings).root, key: findCredential(profile, deps.env)?.value, timeoutMs: deps.probeTimeoutMs * 4 });
}

function statusIn(output: string): number | undefined {
  const match = /(?:error|status|http)[^0-9\n]{0,24}\b([45]\d\d)\b/i.exec(output) ?? /^\s*([45]\d\d)\b/m.exec(output);
  return match ? Number(match[1]) : undefined;
}

function bounded(text: string, max = 400): string {
  const flat = text.trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

export async function runClient(deps: ProxyOperationDeps, options: ClientRunOptions = {}): Promise<ClientRun> {
  const profile = profileOf(deps);
  const env = proxyRouteEnv(deps, await clientModel(deps));
  const printFlag = deps.settings['client.printFlag'].value as string;
  const resumeFlag = deps.settings['client.resumeFlag'].value as string;
  const prompt = options.prompt ?? ONE_WORD_PROMPT;
  const args = [...(options.resume ? [resumeFlag] : []), printFlag, prompt];
  const path = resolveCommand(profile.command, env, deps.cwd);
  const shown = `${profile.baseUrlVar}=${proxyUrlOf(deps)} ${commandLine(profile.command, args)}`;
  if (!path) {
    return { ok: false, command: shown, exitCode: null, reply: '', output: '', notFound: true, observed: `the client \`${profile.command}\` is not found on PATH` };
  }
  const result = await deps.run({ command: path, args, env, cwd: deps.cwd, timeoutMs: deps.clientTimeoutMs, signal: options.signal, onOutput: options.onOutput });
  const reply = bounded(result.stdout, 200);
  const ok = result.exitCode === 0 && reply !== '';
  const status = ok ? undefined : statusIn(result.output);
  const how = describeRun(result);
  const observed = ok
    ? `${shown} → ${how}, reply "${reply}"`
    : `${shown} → ${how}${reply === '' && result.exitCode === 0 ? ', but no reply' : ''}${status ? `, the client reports ${status}` : ''}${result.output.trim() ? `: ${bounded(result.output, 200).replace(/\s+/g, ' ')}` : ''}`;
  return { ok, command: shown, exitCode: result.exitCode, reply, output: bounded(result.output), status, aborted: result.aborted, observed };
}
