// The model a client configuration printed by `gwctl config client` names: client.model when set,
// else the first text model the gateway lists for the key (one of the client's own kind first),
// else a placeholder with the reason.
import { fetchModels } from '../client/gateway-client.ts';
import type { HttpGet } from '../client/http-get.ts';
import { isTextModel } from '../launch/model-choice.ts';

export interface ServedModel {
  id: string;
  /** Where it came from, in words. */
  source: string;
  /** True when `id` is a placeholder the user must replace. */
  placeholder: boolean;
}

export async function servedModel(input: { setting: string | null; root: string; key: string | undefined; ownPrefix: string | null; http: HttpGet; timeoutMs?: number }): Promise<ServedModel> {
  if (input.setting) return { id: input.setting, source: 'setting client.model', placeholder: false };
  if (!input.key) return { id: '<MODEL>', source: 'MSGAPI_AUTH_TOKEN is not set, so the gateway was not asked for its models: replace <MODEL> with an id from GET /v1/models', placeholder: true };
  const call = await fetchModels(input.http, `${input.root}/v1/models`, input.key, input.timeoutMs ?? 10_000);
  const text = (call.models ?? []).filter(isTextModel);
  const own = input.ownPrefix ? text.find((id) => id.startsWith(input.ownPrefix!)) : undefined;
  const pick = own ?? text[0];
  if (pick) return { id: pick, source: `the gateway serves it (GET /v1/models: ${text.slice(0, 5).join(', ')})`, placeholder: false };
  return { id: '<MODEL>', source: `the gateway's model list could not be read or names no text model${call.errorMessage ? ` (${call.errorMessage})` : ''}: replace <MODEL>`, placeholder: true };
}
