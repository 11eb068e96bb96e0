// The provider block of the Codex CLI's config.toml (~/.codex/config.toml) for this gateway: a
// custom model provider speaking the Responses API (wire_api = "responses"), its key read from an
// environment variable (env_key) so the file never holds it. web_search is turned off because a
// model the gateway serves through translation (a chat-completions or messages upstream) has no
// hosted tools and refuses requests that offer them; with models on a Responses upstream the line
// may go.

/** TOML keys above the first [table] belong to the top level; below it, to that table. */
export const CODEX_CONFIG_NOTE = 'merge into it: the first three lines go above any [table]';

/** The variable gwctl keeps the key in for any client (verify and start read it too). */
export const CODEX_KEY_VAR = 'MSGAPI_AUTH_TOKEN';

const quote = (value: string) => JSON.stringify(value);

export function codexConfigToml(baseUrl: string, model: string | null): string {
  return [
    `model = ${quote(model ?? '<MODEL>')}${model ? '' : '   # a model id from GET /v1/models'}`,
    'model_provider = "gwctl"',
    'web_search = "disabled"   # translated models have no hosted tools',
    '',
    '[model_providers.gwctl]',
    'name = "gwctl gateway"',
    `base_url = ${quote(baseUrl)}`,
    `env_key = ${quote(CODEX_KEY_VAR)}   # export ${CODEX_KEY_VAR}=<API_KEY> before starting codex`,
    'wire_api = "responses"',
  ].join('\n');
}
