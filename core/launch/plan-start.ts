// Safe start as plain data: route, credential, model, the client's environment and the pinned
// settings that would be cleaned, each finding with a cause code. Nothing is changed or launched
// here; the caller decides (dry run, refusal, or clean + launch).
import type { HttpGet } from '../client/http-get.ts';
import { findPinned, type PinScan } from '../client-settings/find-pinned.ts';
import { clientProfile, type ClientProfile } from '../config/client-profile.ts';
import type { ResolvedSettings } from '../config/resolve-settings.ts';
import { serviceAddress } from '../config/service-address.ts';
import { SettingError } from '../config/setting-error.ts';
import type { CauseCode } from '../doctor/cause-codes.ts';
import { lintKey } from '../doctor/key-lint.ts';
import { maskCredential } from '../doctor/mask-credential.ts';
import { shellStartupFiles, tildePath } from '../paths.ts';
import { findCredential, notSetText, type CredentialLookup } from './client-credential.ts';
import { buildClientEnv } from './client-env.ts';
import { executionPlane } from './execution-plane.ts';
import type { LaunchRequest } from './launch-client.ts';
import type { ModelChoice } from './model-choice.ts';
import { startModel } from './start-model.ts';
import { resolveCommand } from './resolve-command.ts';
import { decideRoute, type RouteDecision, type StartWarning } from './route-decision.ts';
import { HEALTH_TIMEOUT_MS } from '../client/proxy-client.ts';
import { codexArgs } from './isolation/codex-isolation.ts';
import type { IsolationSpec } from './isolation/isolation-spec.ts';
import { planIsolation, type IsolationPlan } from './isolation/prepare-isolation.ts';
import { inGitRepository } from './in-git-repository.ts';

export interface StartRefusal {
  cause: CauseCode;
  message: string;
  remedy: string;
  commands: string[];
}

export interface StartPlan {
  schemaVersion: 1;
  ok: boolean;
  dryRun: boolean;
  profile: ClientProfile['name'];
  route: Omit<RouteDecision, 'warnings'>;
  /** Every finding, each with a cause code (pinned settings included, also those a start removes). */
  warnings: StartWarning[];
  refused: StartRefusal | null;
  /** Where the key was found and the one variable the client gets it in; null on the oauth path. */
  credential: { clientVar: string; foundIn: string | null; sources: string[] } | null;
  model: ModelChoice;
  /** path null: not found (only on a dry run; a start refuses with a usage error). */
  client: { command: string; path: string | null; args: string[]; env: Record<string, string | null> };
  /** The launch's own temporary configuration; null = environment only. */
  isolation: IsolationPlan | null;
  /** Vendor credentials inherited from the shell and removed from the client's environment. */
  stripped: string[];
  pinned: PinScan;
}

export interface StartInput {
  settings: ResolvedSettings;
  env: NodeJS.ProcessEnv;
  cwd: string;
  clientArgs: string[];
  dryRun: boolean;
  http: HttpGet;
  procVersion?: () => string;
  probeTimeoutMs?: number;
  /** Bound for the model-list request that picks an automatic model. */
  requestTimeoutMs?: number;
}

function refusal(credential: CredentialLookup | null, directRoot: string, pinned: PinScan, env: NodeJS.ProcessEnv): StartRefusal | null {
  if (!credential) return null;
  const variable = credential.clientVar;
  const pin = pinned.entries.find((e) => e.fileKind === 'settings' && e.variable === variable);
  const pinNote = pin ? ` It is pinned in ${tildePath(pin.file, env)} (${pin.shown}), but that entry wins over the shell and is removed by a safe start; export the key in the shell instead.` : '';
  const keep = credential.sources[0]!;
  if (!credential.value) {
    return {
      cause: 'TOKEN_MISSING_IN_SHELL',
      message: `${notSetText(credential)} in this shell, so the client would send no credential: the direct route (${directRoot}) and the proxy alike answer 401, which is missing authentication, not a fault of the service or the upstream.${pinNote}`,
      remedy: `Export the key for this shell only (never in a file)${credential.sources.length > 1 ? `, in ${credential.sources.join(' or ')}` : ''}; the client gets it as ${variable}.`,
      commands: [`read -rs ${keep} && export ${keep}   # paste the key`, 'gwctl start'],
    };
  }
  const bad = lintKey(credential.value).find((f) => f.severity === 'fail');
  if (bad) {
    return {
      cause: bad.cause,
      message: `${credential.foundIn} (${maskCredential(credential.value)}) ${bad.detail}; the service would answer 401 for it.`,
      remedy: 'Copy the key again and export it bare: no spaces, line breaks or quotes.',
      commands: [`read -rs ${credential.foundIn} && export ${credential.foundIn}   # paste the bare key`, 'gwctl verify', 'gwctl start'],
    };
  }
  return null;
}

export interface PlannedStart {
  plan: StartPlan;
  /** What to run if the plan is carried out; holds the credential, so it is never printed. */
  launch: LaunchRequest;
}

function pinFindings(pinned: PinScan, env: NodeJS.ProcessEnv): StartWarning[] {
  const out: StartWarning[] = [];
  for (const entry of pinned.entries) {
    const where = `${tildePath(entry.file, env)}${entry.line ? `:${entry.line}` : ''}`;
    const what = `${entry.fileKind === 'settings' ? 'env.' : ''}${entry.variable}=${entry.shown}`;
    out.push({
      cause: 'BASE_URL_PINNED_IN_SETTINGS',
      ...(entry.removable ? { removedByStart: true } : {}),
      message: entry.removable
        ? `${where} pins ${what}${entry.fileKind === 'settings' ? ', which would win over what gwctl start sets' : ''}; a start backs the file up and removes it (undo: gwctl start --restore)`
        : `${where} sets ${entry.variable}, but ${entry.note}`,
    });
  }
  for (const problem of pinned.problems) out.push({ cause: 'BASE_URL_PINNED_IN_SETTINGS', message: `${tildePath(problem.file, env)} could not be inspected: ${problem.reason}` });
  return out;
}

export async function planStart(input: StartInput): Promise<PlannedStart> {
  const profile = clientProfile(input.settings, input.env, input.cwd);
  const service = serviceAddress(input.settings);
  const path = resolveCommand(profile.command, input.env, input.cwd) ?? null;
  if (!path && !input.dryRun) {
    throw new SettingError(`The client command "${profile.command}" is not found on PATH.`, 'Install the client, or name it: `gwctl config set client.command /path/to/client` or `gwctl start --client <cmd>`.');
  }
  const plane = executionPlane(input.env, path ?? undefined, input.procVersion);
  const route = await decideRoute({ proxyUrl: input.settings.proxyUrl.value as string, service, auth: profile.auth, protocol: profile.protocol, basePath: profile.basePath, plane, http: input.http, timeoutMs: input.probeTimeoutMs ?? HEALTH_TIMEOUT_MS });
  const pinned = findPinned({
    settingsFiles: profile.settingsFiles,
    shellFiles: shellStartupFiles(input.env),
    vars: { baseUrl: profile.baseUrlVar, token: profile.tokenVar, apiKey: profile.apiKeyVar },
  });
  const warnings = [...route.warnings, ...pinFindings(pinned, input.env)];
  if (!path) warnings.unshift({ cause: 'CLIENT_NOT_FOUND', message: `the client command "${profile.command}" is not found on PATH; install it, or name it with --client <path> (gwctl config set client.command <path>)` });
  const credential = findCredential(profile, input.env);
  const prefix = profile.auth === 'service' && credential?.value ? lintKey(credential.value).find((f) => f.cause === 'KEY_PREFIX') : undefined;
  if (prefix) warnings.push({ cause: 'KEY_PREFIX', message: `${credential!.foundIn} (${maskCredential(credential!.value)}) ${prefix.detail}` });
  const refused = refusal(credential, profile.auth === 'service' ? service.root : "the client's default upstream", pinned, input.env);
  const model = await startModel({ profile, env: input.env, http: input.http, root: service.root, key: refused ? undefined : credential?.value, timeoutMs: input.requestTimeoutMs ?? 10_000 });
  if (model.warning) warnings.push(model.warning);
  const { env, shown, stripped } = buildClientEnv(input.env, profile, route, model);
  const { warnings: _routeWarnings, ...routeFields } = route;
  let isolation: { plan: IsolationPlan; spec: IsolationSpec } | null = null;
  if (profile.isolation && profile.auth === 'service' && route.baseUrl) {
    isolation = planIsolation(profile.isolation, { profile, env: input.env, cwd: input.cwd, args: input.clientArgs, baseUrl: route.baseUrl, model: model.id });
    for (const note of isolation.plan.notes) warnings.push({ cause: 'BASE_URL_PINNED_IN_SETTINGS', message: note });
  }
  let args = input.clientArgs;
  if (profile.name === 'codex') {
    const adjusted = codexArgs(args, inGitRepository(input.cwd));
    args = adjusted.args;
    if (adjusted.note && isolation) isolation.plan.notes.push(adjusted.note);
  }
  const plan: StartPlan = {
    schemaVersion: 1,
    ok: refused === null,
    dryRun: input.dryRun,
    profile: profile.name,
    route: routeFields,
    warnings,
    refused,
    credential: credential ? { clientVar: credential.clientVar, foundIn: credential.foundIn, sources: credential.sources } : null,
    model,
    client: { command: profile.command, path, args, env: shown },
    isolation: isolation?.plan ?? null,
    stripped,
    pinned,
  };
  return { plan, launch: { file: path ?? profile.command, args, env, cwd: input.cwd, ...(isolation ? { isolation: { kind: isolation.plan.kind, spec: isolation.spec } } : {}) } };
}
