// The Gemini CLI speaks the Gemini API. GOOGLE_GEMINI_BASE_URL is the root (the SDK appends
// /v1beta/models/…); GEMINI_API_KEY is sent as x-goog-api-key. Its settings live under
// GEMINI_CLI_HOME/.gemini; 0.61.0 exits 41 unless security.auth.selectedType is "gemini-api-key".
import type { ProfileDefaults } from './profile-defaults.ts';

export const GEMINI: ProfileDefaults = {
  name: 'gemini',
  describe: 'Gemini CLI (command gemini, Gemini API)',
  command: 'gemini',
  protocol: 'gemini',
  basePath: '',
  baseUrlVar: 'GOOGLE_GEMINI_BASE_URL',
  tokenVar: 'GEMINI_API_KEY',
  apiKeyVar: 'GOOGLE_API_KEY',
  modelVar: 'GEMINI_MODEL',
  backgroundModelVars: [],
  settingsFiles: ['~/.gemini/settings.json', '.gemini/settings.json', '$GEMINI_CLI_HOME/.gemini/settings.json'],
  printFlag: '-p',
  resumeFlag: '--resume',
  ownModelPrefix: 'gemini-',
  clientDefaultModel: null,
  modelPick: 'always',
  isolation: 'gemini',
};
