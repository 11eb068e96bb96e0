// What to paste for one named coding client so that it talks to this gateway: the variables (as
// shell lines), the files (path and content) and the model, with the base address that client
// family needs. The key is never a value: the variables refer to $MSGAPI_AUTH_TOKEN, where the user
// keeps it. Same facts as a `gwctl start` launch (core/launch/isolation/), for users who start the
// client themselves.
import { codexConfig } from '../launch/isolation/codex-isolation.ts';
import { opencodeConfig } from '../launch/isolation/opencode-isolation.ts';
import { CLIENT_PROFILES, NEUTRAL_VARS, type ProfileName } from './client-profiles.ts';

export type NamedClient = Exclude<ProfileName, 'custom'>;
export const NAMED_CLIENTS: readonly NamedClient[] = ['claude', 'codex', 'gemini', 'opencode', 'qwen'];

export interface NamedClientSetup {
  client: NamedClient;
  title: string;
  baseUrl: string;
  baseUrlNote: string;
  /** In order; values may refer to $MSGAPI_AUTH_TOKEN. An empty value clears a variable. */
  env: Record<string, string>;
  files: Array<{ path: string; text: string; note: string }>;
  model: string;
  /** A one-shot command to try it. */
  tryIt: string;
}

const KEY_REF = `$${NEUTRAL_VARS.token}`;
const json = (value: unknown) => JSON.stringify(value, null, 2);

/** `root` is {base_url} without /v1; `model` a model the gateway serves (or a placeholder). */
export function namedClientSetup(client: NamedClient, root: string, model: string): NamedClientSetup {
  const title = CLIENT_PROFILES[client].describe;
  const v1 = `${root}/v1`;
  switch (client) {
    case 'claude':
      return {
        client,
        title,
        baseUrl: root,
        baseUrlNote: 'without /v1: the Anthropic SDK appends /v1/messages',
        // Exactly one credential variable; the model variables so that every request names a served model.
        env: { ANTHROPIC_BASE_URL: root, ANTHROPIC_AUTH_TOKEN: KEY_REF, ANTHROPIC_API_KEY: '', ANTHROPIC_MODEL: model, ANTHROPIC_DEFAULT_HAIKU_MODEL: model, ANTHROPIC_DEFAULT_SONNET_MODEL: model, ANTHROPIC_DEFAULT_OPUS_MODEL: model },
        files: [],
        model,
        tryIt: 'claude -p "say pong"',
      };
    case 'codex':
      return {
        client,
        title,
        baseUrl: v1,
        baseUrlNote: 'ends with /v1: the client appends /responses (wire_api = "responses")',
        env: {},
        files: [{ path: '~/.codex/config.toml', text: codexConfig('', v1, model), note: `the provider reads the key from ${NEUTRAL_VARS.token} (env_key); this replaces the file: merge by hand if you keep one` }],
        model,
        tryIt: 'codex exec --skip-git-repo-check "say pong"   # the flag only outside a git repository',
      };
    case 'gemini':
      return {
        client,
        title,
        baseUrl: root,
        baseUrlNote: 'without /v1: the client appends /v1beta/models/…',
        env: { GOOGLE_GEMINI_BASE_URL: root, GEMINI_API_KEY: KEY_REF, GEMINI_MODEL: model },
        files: [{ path: '~/.gemini/settings.json', text: json({ security: { auth: { selectedType: 'gemini-api-key' } } }), note: 'without this auth type the CLI exits 41 when a base URL is set; this replaces the file: merge by hand if you keep one' }],
        model,
        tryIt: 'gemini -p "say pong"   # in a folder you trust (or GEMINI_CLI_TRUST_WORKSPACE=true)',
      };
    case 'opencode':
      return {
        client,
        title,
        baseUrl: v1,
        baseUrlNote: 'ends with /v1: the AI SDK appends /chat/completions (its anthropic provider, too, needs …/v1: it appends /messages)',
        env: {},
        files: [{ path: '~/.config/opencode/opencode.json', text: json(opencodeConfig(v1, model)), note: `the provider reads the key from ${NEUTRAL_VARS.token}; this replaces the file: merge by hand if you keep one` }],
        model,
        tryIt: 'opencode run "say pong"',
      };
    case 'qwen':
      return {
        client,
        title,
        baseUrl: v1,
        baseUrlNote: 'ends with /v1: the client appends /chat/completions',
        env: { OPENAI_BASE_URL: v1, OPENAI_API_KEY: KEY_REF, OPENAI_MODEL: model },
        files: [],
        model,
        tryIt: 'qwen -p "say pong"',
      };
  }
}

/** Shell text that does what the setup says when pasted: export lines, then each file written with a here-document. */
export function setupShellText(setup: NamedClientSetup): string {
  const out: string[] = [];
  for (const [name, value] of Object.entries(setup.env)) out.push(`export ${name}=${value === '' ? '' : value.startsWith('$') ? `"${value}"` : value}`);
  for (const file of setup.files) {
    const path = file.path.replace(/^~\//, '"$HOME"/');
    const dir = path.replace(/\/[^/]+$/, '');
    out.push(`# ${file.path}: ${file.note}`, `mkdir -p ${dir} && cat > ${path} <<'GWCTL_EOF'`, file.text, 'GWCTL_EOF');
  }
  return out.join('\n');
}
