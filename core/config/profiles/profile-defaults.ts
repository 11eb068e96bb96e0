// The shape of a client profile, and the variable names shared by every profile.

export type ProfileName = 'claude' | 'codex' | 'gemini' | 'opencode' | 'qwen' | 'custom';

/** The protocol the client speaks to the gateway. Only messages clients may go through the cache proxy. */
export type ClientProtocol = 'messages' | 'responses' | 'gemini' | 'chat';

/** How a launch gets a configuration of its own (core/launch/isolation/); null = environment only. */
export type IsolationKind = 'claude' | 'codex' | 'gemini' | 'opencode' | 'qwen';

export interface ProfileDefaults {
  name: ProfileName;
  describe: string;
  /** Null: the profile knows no client, so client.command must be set. */
  command: string | null;
  protocol: ClientProtocol;
  /** What the client's base address is: {base_url} as is ('') or with /v1 (the client appends the rest). */
  basePath: '' | '/v1';
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
   * `gwctl start` picks a model the gateway serves. Null: unknown.
   */
  ownModelPrefix: string | null;
  /**
   * The model the client asks for when nothing names another (Claude Code 2.1.197: claude-opus-4-8).
   * The diagnosis' short request uses it when no served model is known, to see what the client sees.
   */
  clientDefaultModel: string | null;
  /** 'own': pick a served model only when the client's own is not served; 'always': the client's configuration must name one. */
  modelPick: 'own' | 'always';
  isolation: IsolationKind | null;
}

/** The neutral names users may keep their key in whatever the profile. */
export const NEUTRAL_VARS = { baseUrl: 'MSGAPI_BASE_URL', token: 'MSGAPI_AUTH_TOKEN', apiKey: 'MSGAPI_API_KEY', model: 'MSGAPI_MODEL' } as const;

/**
 * Vendor credentials a shell may hold that would make a client bypass the gateway or send the wrong
 * key; removed from every client's environment (except the one variable gwctl fills with the key).
 */
export const VENDOR_CREDENTIALS: readonly string[] = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'OPENAI_API_KEY',
  'CODEX_API_KEY',
  'AZURE_OPENAI_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'GOOGLE_GENAI_USE_VERTEXAI',
  'GOOGLE_GENAI_USE_GCA',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'OPENROUTER_API_KEY',
  'DASHSCOPE_API_KEY',
  'QWEN_OAUTH',
  'AWS_BEARER_TOKEN_BEDROCK',
  'CLAUDE_CODE_USE_BEDROCK',
  'CLAUDE_CODE_USE_VERTEX',
];
