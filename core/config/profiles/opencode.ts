// OpenCode reads providers from its config files; OPENCODE_CONFIG names one more, merged over the
// user's global file (whose MCP servers, permissions and instructions stay in force). A launch
// writes one holding a chat-completions provider (@ai-sdk/openai-compatible, baseURL …/v1) whose
// key is read from MSGAPI_AUTH_TOKEN, and the model as provider/model.
import type { ProfileDefaults } from './profile-defaults.ts';

export const OPENCODE: ProfileDefaults = {
  name: 'opencode',
  describe: 'OpenCode (command opencode, chat completions)',
  command: 'opencode',
  protocol: 'chat',
  basePath: '/v1',
  baseUrlVar: 'MSGAPI_BASE_URL',
  tokenVar: 'MSGAPI_AUTH_TOKEN',
  apiKeyVar: 'OPENAI_API_KEY',
  modelVar: 'MSGAPI_MODEL',
  backgroundModelVars: [],
  // Its files hold no variables; pins are looked for in the shell startup files.
  settingsFiles: [],
  printFlag: 'run',
  resumeFlag: '--continue',
  ownModelPrefix: null,
  clientDefaultModel: null,
  modelPick: 'always',
  isolation: 'opencode',
};
