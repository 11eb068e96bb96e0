// Safe start (spec 4.4 rules 1-3 and 9) as plain data: route, credential, the client's environment
// and the pinned settings that would be cleaned. Nothing is changed or launched here; the caller
// decides (dry run, refusal, or clean + launch).
import type { HttpGet } from '../client/http-get.ts';
import { findPinned, type PinScan } from '../client-settings/find-pinned.ts';
import { clientProfile, type ClientProfile } from '../config/client-profile.ts';
import type { ResolvedSettings } from '../config/resolve-settings.ts';
import { serviceAddress } from '../config/service-address.ts';
import { SettingError } from '../config/setting-error.ts';
import type { CauseCode } from '../doctor/cause-codes.ts';
import { lintKey } from '../doctor/key-lint.ts';
import { shellStartupFiles, tildePath } from '../paths.ts';
import { maskCredential } from '../doctor/mask-credential.ts';
import { buildClientEnv } from './client-env.ts';
import { executionPlane } from './execution-plane.ts';
import type { LaunchRequest } from './launch-client.ts';
import { resolveCommand } from './resolve-command.ts';
import { decideRoute, type RouteDecision, type StartWarning } from './route-decision.ts';

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
  route: Omit<RouteDecision, 'warnings'>;
  warnings: StartWarning[];
  refused: StartRefusal | null;
  client: { command: string; path: string; args: string[]; env: Record<string, string | null> };
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
}

function refusal(profile: ClientProfile, directRoot: string, pinned: PinScan, env: NodeJS.ProcessEnv): StartRefusal | null {
  if (profile.auth === 'oauth') return null;
  const variable = profile.auth === 'service' ? profile.tokenVar : profile.apiKeyVar;
  const value = env[variable];
  const pin = pinned.entries.find((e) => e.fileKind === 'settings' && e.variable === variable);
  const pinNote = pin ? ` It is pinned in ${tildePath(pin.file, env)} (${pin.shown}), but that entry wins over the shell and is removed by a safe start; export the key in the shell instead.` : '';
  if (!value) {
    return {
      cause: 'TOKEN_MISSING_IN_SHELL',
      message:
        `${variable} is not set in this shell. The client gets its credential from the shell that starts it; without it the direct route (${directRoot}) answers 401, ` +
        `which is missing authentication, not a fault of the service or the upstream (spec 4.4 rule 3). The proxy forwards the same missing credential, so it answers 401 as well.${pinNote}`,
      remedy: 'Export the key for this shell only (spec 5.6), then start again.',
      commands: [`read -rs ${variable} && export ${variable}   # paste the key`, 'gwctl start'],
    };
  }
  const bad = lintKey(value).find((f) => f.severity === 'fail');
  if (bad) {
    return {
      cause: bad.cause,
      message: `${variable} (${maskCredential(value)}) ${bad.detail}; the service would answer 401 for it (spec 5.1).`,
      remedy: 'Copy the key again and export it bare.',
      commands: [`read -rs ${variable} && export ${variable}   # paste the bare key`, 'gwctl verify', 'gwctl start'],
    };
  }
  return null;
}

export interface PlannedStart {
  plan: StartPlan;
  /** What to run if the plan is carried out; holds the credential, so it is never printed. */
  launch: LaunchRequest;
}

export async function planStart(input: StartInput): Promise<PlannedStart> {
  const profile = clientProfile(input.settings, input.env, input.cwd);
  const service = serviceAddress(input.settings);
  const path = resolveCommand(profile.command, input.env, input.cwd);
  if (!path) {
    throw new SettingError(`The client command "${profile.command}" is not found on PATH.`, 'Install the client, or name it: `gwctl config set client.command /path/to/client` or `gwctl start --client <cmd>`.');
  }
  const plane = executionPlane(input.env, path, input.procVersion);
  const route = await decideRoute({ proxyUrl: input.settings.proxyUrl.value as string, service, auth: profile.auth, plane, http: input.http, timeoutMs: input.probeTimeoutMs ?? 1500 });
  const pinned = findPinned({
    settingsFiles: profile.settingsFiles,
    shellFiles: shellStartupFiles(input.env),
    vars: { baseUrl: profile.baseUrlVar, token: profile.tokenVar, apiKey: profile.apiKeyVar },
  });
  const warnings = [...route.warnings];
  for (const entry of pinned.entries.filter((e) => !e.removable)) {
    warnings.push({ cause: 'BASE_URL_PINNED_IN_SETTINGS', message: `${tildePath(entry.file, input.env)}:${entry.line} sets ${entry.variable}, but ${entry.note}` });
  }
  for (const problem of pinned.problems) {
    warnings.push({ cause: 'BASE_URL_PINNED_IN_SETTINGS', message: `${tildePath(problem.file, input.env)} could not be inspected: ${problem.reason}` });
  }
  const credential = profile.auth === 'service' ? input.env[profile.tokenVar] : undefined;
  const prefix = credential ? lintKey(credential).find((f) => f.cause === 'KEY_PREFIX') : undefined;
  if (prefix) warnings.push({ cause: 'KEY_PREFIX', message: `${profile.tokenVar} (${maskCredential(credential)}) ${prefix.detail}` });
  const refused = refusal(profile, profile.auth === 'service' ? service.root : "the client's default upstream", pinned, input.env);
  const { env, shown } = buildClientEnv(input.env, profile, route);
  const { warnings: _routeWarnings, ...routeFields } = route;
  const plan: StartPlan = {
    schemaVersion: 1,
    ok: refused === null,
    dryRun: input.dryRun,
    route: routeFields,
    warnings,
    refused,
    client: { command: profile.command, path, args: input.clientArgs, env: shown },
    pinned,
  };
  return { plan, launch: { file: path, args: input.clientArgs, env, cwd: input.cwd } };
}
