// OpenCode: OPENCODE_CONFIG names one more config file, merged by OpenCode over the user's global
// one (~/.config/opencode, whose MCP servers, permissions, agents and instructions stay in force)
// and under the project's. The launch's file adds the gateway as a chat-completions provider whose
// key is read from MSGAPI_AUTH_TOKEN, and names the model. A file the shell already named in
// OPENCODE_CONFIG is merged in.
import { join } from 'node:path';
import { NEUTRAL_VARS } from '../../config/client-profiles.ts';
import { DIR, type IsolationInput, type IsolationSpec } from './isolation-spec.ts';
import { mergeObjects, readJsonObject } from './user-files.ts';

export const OPENCODE_PROVIDER_ID = 'gwctl';

export function opencodeConfig(baseUrl: string, model: string | null): Record<string, unknown> {
  return {
    $schema: 'https://opencode.ai/config.json',
    provider: {
      [OPENCODE_PROVIDER_ID]: {
        npm: '@ai-sdk/openai-compatible',
        name: 'gwctl gateway',
        options: { baseURL: baseUrl, apiKey: `{env:${NEUTRAL_VARS.token}}` },
        ...(model ? { models: { [model]: { name: model } } } : {}),
      },
    },
    ...(model ? { model: `${OPENCODE_PROVIDER_ID}/${model}`, small_model: `${OPENCODE_PROVIDER_ID}/${model}` } : {}),
  };
}

export function opencodeIsolation(input: IsolationInput): IsolationSpec {
  const spec: IsolationSpec = { env: { OPENCODE_CONFIG: join(DIR, 'opencode.json') }, files: [], links: [], carried: [], notes: [] };
  const named = input.env.OPENCODE_CONFIG;
  const user = named ? readJsonObject(named, spec) : undefined;
  const config = mergeObjects(user ?? {}, opencodeConfig(input.baseUrl, input.model));
  spec.files.push({ path: 'opencode.json', content: `${JSON.stringify(config, null, 2)}\n` });
  spec.carried.push('~/.config/opencode and the project\'s opencode.json: read by OpenCode itself, under the launch\'s file');
  if (user) spec.carried.push(`${named} (OPENCODE_CONFIG in this shell), merged in`);
  return spec;
}
