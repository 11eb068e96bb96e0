// The model the client is started with. A client asks for its own vendor's model names by itself
// (the Claude Code CLI for claude-…); a gateway that serves none of them answers every request with
// "model not found". So, unless the user chose a model (client.model, or the client's model variable
// in the shell), a model the gateway lists is picked and set in the client's model variable and its
// background-model variables, so every request the client makes names a model the gateway has.
import type { ClientProfile } from '../config/client-profile.ts';
import type { CauseCode } from '../doctor/cause-codes.ts';

export type ModelSource = 'setting' | 'shell' | 'automatic' | 'none';

export interface ModelChoice {
  /** The model the client will ask for when gwctl knows it; null = the client's own choice. */
  id: string | null;
  source: ModelSource;
  /** Why this model, in words. */
  reason: string;
  /** How to choose another one. */
  override: string;
  /** The client variables gwctl sets to `id`. */
  variables: string[];
  /** The ids the gateway lists, when it was asked. */
  served: string[] | null;
  /** Something the user should know (the list could not be read, no text model served). */
  warning: { cause: CauseCode; message: string } | null;
}

/** The answer of GET {base_url}/v1/models, reduced to what the choice needs. */
export type ModelList = { ids: string[] } | { problem: { cause: CauseCode; observed: string } };

export interface ModelChoiceInput {
  profile: ClientProfile;
  /** The environment the client starts from (the shell). */
  env: NodeJS.ProcessEnv;
  /** Undefined when the list was not asked for (see needsModelList). */
  list?: ModelList;
}

const OVERRIDE = 'gwctl config set client.model <model id>   (or gwctl start --model <model id>)';

/**
 * Image and embedding models cannot answer a chat request; the model list carries no kind, so the
 * name tells.
 */
export function isTextModel(id: string): boolean {
  return !/image|embed/i.test(id);
}

function shellValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** True when the choice depends on what the gateway serves (only then is the list asked for). */
export function needsModelList(profile: ClientProfile, env: NodeJS.ProcessEnv): boolean {
  return profile.auth === 'service' && profile.model === null && shellValue(env, profile.modelVar) === undefined && (profile.ownModelPrefix !== null || profile.modelPick === 'always');
}

function settingVariables(profile: ClientProfile, env: NodeJS.ProcessEnv): string[] {
  // A background variable the user set in the shell stays as it is.
  return [profile.modelVar, ...profile.backgroundModelVars.filter((name) => shellValue(env, name) === undefined)];
}

export function chooseModel(input: ModelChoiceInput): ModelChoice {
  const { profile, env } = input;
  const none = (reason: string, warning: ModelChoice['warning'] = null, served: string[] | null = null): ModelChoice => ({ id: null, source: 'none', reason, override: OVERRIDE, variables: [], served, warning });
  if (profile.model) {
    return { id: profile.model.id, source: 'setting', reason: `setting client.model (from ${profile.model.origin})`, override: OVERRIDE, variables: settingVariables(profile, env), served: null, warning: null };
  }
  const exported = shellValue(env, profile.modelVar);
  if (exported !== undefined) return { id: exported, source: 'shell', reason: `${profile.modelVar} is set in this shell`, override: OVERRIDE, variables: [], served: null, warning: null };
  if (profile.auth !== 'service') return none(`the ${profile.auth === 'vendor' ? 'vendor' : 'subscription'} path serves the client's own models`);
  if (profile.ownModelPrefix === null && profile.modelPick !== 'always') return none(`the ${profile.name} profile does not know which models the client asks for by itself, so gwctl picks none`);
  const list = input.list;
  if (!list) return none('the gateway was not asked for its models');
  if ('problem' in list) {
    return none('the gateway\'s model list could not be read, so the client keeps its own choice', { cause: list.problem.cause, message: `no model chosen: ${list.problem.observed}` });
  }
  const text = list.ids.filter(isTextModel);
  const prefix = profile.ownModelPrefix;
  const own = prefix === null ? [] : text.filter((id) => id.startsWith(prefix));
  const fallback = profile.clientDefaultModel;
  // The client's own choice works when the gateway serves its default; when the default is unknown,
  // any model of the client's kind is taken as one it may ask for. A client whose configuration
  // must name a model ('always') gets one in any case.
  if (profile.modelPick === 'own' && (fallback ? text.includes(fallback) : own.length > 0)) {
    return none(`the gateway serves ${fallback ?? `${profile.ownModelPrefix}… models (${own.slice(0, 3).join(', ')})`}, so the client's own choice is left alone`, null, list.ids);
  }
  if (text.length === 0) {
    return none('the gateway lists no text model', { cause: 'MODEL_NOT_AVAILABLE', message: `the gateway lists no text model for this key (${list.ids.join(', ') || 'an empty list'}), so the client's requests will be refused` }, list.ids);
  }
  const pick = own[0] ?? text[0]!;
  const why =
    profile.modelPick === 'always'
      ? `the client's configuration names a model the gateway serves; ${pick} is the first ${own.length > 0 ? `${prefix}… ` : 'text '}model it lists`
      : own.length > 0
        ? `the gateway does not serve ${fallback}, the model the client asks for by itself; ${pick} is the first ${prefix}… model it serves`
        : `the gateway lists no ${prefix}… model, which the client asks for by itself; ${pick} is the first text model it serves`;
  return {
    id: pick,
    source: 'automatic',
    reason: `automatic: ${why} (${text.join(', ')})`,
    override: OVERRIDE,
    variables: settingVariables(profile, env),
    served: list.ids,
    warning: null,
  };
}

/** One short line for narrow screens: the model and where it came from. */
export function modelSummary(choice: ModelChoice): string {
  if (!choice.id) return "the client's own choice";
  if (choice.source === 'setting') return `${choice.id} (setting client.model)`;
  if (choice.source === 'shell') return `${choice.id} (${choice.reason})`;
  return `${choice.id} (automatic: the gateway serves none of the client's own; setting client.model overrides)`;
}
