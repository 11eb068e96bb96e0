// Named client profiles: which variables a messages-protocol client reads, where it keeps its
// settings, and which model names it asks for by itself. A profile only supplies defaults; every
// value is also a setting, and a setting given explicitly (file, environment, flag) wins.

export type ProfileName = 'claude' | 'custom';

export interface ProfileDefaults {
  name: ProfileName;
  describe: string;
  /** Null: the profile knows no client, so client.command must be set. */
  command: string | null;
  baseUrlVar: string;
  tokenVar: string;
  apiKeyVar: string;
  modelVar: string;
  /** Variables naming the models the client uses for background work and its model aliases. */
  backgroundModelVars: string[];
  settingsFiles: string[];
  printFlag: string;
  resumeFlag: string;
  /**
   * Model ids the client asks for on its own start with this; when the gateway lists none of them,
   * `gwctl start` picks a model the gateway serves. Null: unknown, so no automatic model.
   */
  ownModelPrefix: string | null;
  /**
   * The model the client asks for when nothing names another (Claude Code 2.1.197: claude-opus-4-8).
   * The diagnosis' short request uses it when no served model is known, to see what the client sees.
   */
  clientDefaultModel: string | null;
}

/** The neutral names users may keep their key in whatever the profile (the client never reads them). */
export const NEUTRAL_VARS = { baseUrl: 'MSGAPI_BASE_URL', token: 'MSGAPI_AUTH_TOKEN', apiKey: 'MSGAPI_API_KEY', model: 'MSGAPI_MODEL' } as const;

// The Claude Code CLI reads ANTHROPIC_BASE_URL (the root, it appends /v1/messages itself), sends
// ANTHROPIC_AUTH_TOKEN as `Authorization: Bearer` and ANTHROPIC_API_KEY as `x-api-key`, and asks
// for claude-… models unless ANTHROPIC_MODEL and the per-alias variables name others.
const CLAUDE: ProfileDefaults = {
  name: 'claude',
  describe: 'Claude Code CLI (command claude)',
  command: 'claude',
  baseUrlVar: 'ANTHROPIC_BASE_URL',
  tokenVar: 'ANTHROPIC_AUTH_TOKEN',
  apiKeyVar: 'ANTHROPIC_API_KEY',
  modelVar: 'ANTHROPIC_MODEL',
  backgroundModelVars: ['ANTHROPIC_DEFAULT_HAIKU_MODEL', 'ANTHROPIC_DEFAULT_SONNET_MODEL', 'ANTHROPIC_DEFAULT_OPUS_MODEL'],
  settingsFiles: ['~/.claude/settings.json', '.claude/settings.json', '.claude/settings.local.json', '$CLAUDE_CONFIG_DIR/settings.json', '$CLAUDE_CONFIG_DIR/settings.local.json'],
  printFlag: '-p',
  resumeFlag: '--continue',
  ownModelPrefix: 'claude-',
  clientDefaultModel: 'claude-opus-4-8',
};

const CUSTOM: ProfileDefaults = {
  name: 'custom',
  describe: 'any other messages-protocol client: set client.command and the variable names it reads',
  command: null,
  baseUrlVar: NEUTRAL_VARS.baseUrl,
  tokenVar: NEUTRAL_VARS.token,
  apiKeyVar: NEUTRAL_VARS.apiKey,
  modelVar: NEUTRAL_VARS.model,
  backgroundModelVars: [],
  settingsFiles: [],
  printFlag: '-p',
  resumeFlag: '--continue',
  ownModelPrefix: null,
  clientDefaultModel: null,
};

export const CLIENT_PROFILES: Readonly<Record<ProfileName, ProfileDefaults>> = { claude: CLAUDE, custom: CUSTOM };

export const PROFILE_NAMES = Object.keys(CLIENT_PROFILES) as ProfileName[];
