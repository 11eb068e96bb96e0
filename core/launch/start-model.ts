// The model gwctl gives the client, asking the gateway's model list only when the choice depends on
// it. Shared by `gwctl start` and the client runs of acceptance and regression, so every client gwctl
// starts asks for the same model.
import { fetchModels } from '../client/gateway-client.ts';
import type { HttpGet } from '../client/http-get.ts';
import type { ClientProfile } from '../config/client-profile.ts';
import { classifyModelsCall } from '../doctor/classify-models-call.ts';
import { lintKey } from '../doctor/key-lint.ts';
import { chooseModel, needsModelList, type ModelChoice, type ModelList } from './model-choice.ts';

export interface StartModelInput {
  profile: ClientProfile;
  env: NodeJS.ProcessEnv;
  http: HttpGet;
  /** {base_url} without /v1. */
  root: string;
  /** The key the client will send; without it the list is not asked for. */
  key: string | undefined;
  timeoutMs: number;
}

async function modelList(input: StartModelInput, key: string): Promise<ModelList> {
  const call = await fetchModels(input.http, `${input.root}/v1/models`, key, input.timeoutMs);
  if (call.models) return { ids: call.models };
  const verdict = classifyModelsCall(call, { routeType: 'messages', baseUrl: input.root, vars: { base_url: input.root }, keyFindings: lintKey(key), timeoutMs: input.timeoutMs });
  return { problem: { cause: verdict.cause === 'OK' || verdict.cause === null ? 'UPSTREAM_FAULT' : verdict.cause, observed: verdict.observed } };
}

export async function startModel(input: StartModelInput): Promise<ModelChoice> {
  const list = input.key && needsModelList(input.profile, input.env) ? await modelList(input, input.key) : undefined;
  return chooseModel({ profile: input.profile, env: input.env, list });
}
