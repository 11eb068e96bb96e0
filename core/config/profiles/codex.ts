// The Codex CLI speaks the Responses API only (wire_api = "responses"). Its provider lives in
// config.toml under CODEX_HOME; a launch writes a temporary CODEX_HOME whose provider reads the key
// from MSGAPI_AUTH_TOKEN (env_key), so the file never holds it. OPENAI_BASE_URL and OPENAI_API_KEY
// only steer its built-in provider, which a launch does not use.
import type { ProfileDefaults } from './profile-defaults.ts';

export const CODEX: ProfileDefaults = {
  name: 'codex',
  describe: 'Codex CLI (command codex, Responses API)',
  command: 'codex',
  protocol: 'responses',
  basePath: '/v1',
  baseUrlVar: 'OPENAI_BASE_URL',
  tokenVar: 'MSGAPI_AUTH_TOKEN',
  apiKeyVar: 'OPENAI_API_KEY',
  modelVar: 'MSGAPI_MODEL',
  backgroundModelVars: [],
  // Its config.toml pins nothing gwctl must clear: a launch uses a CODEX_HOME of its own.
  settingsFiles: [],
  printFlag: 'exec',
  resumeFlag: 'resume --last',
  ownModelPrefix: 'gpt-',
  clientDefaultModel: null,
  modelPick: 'always',
  isolation: 'codex',
};
