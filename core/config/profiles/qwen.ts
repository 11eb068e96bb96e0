// Qwen Code (a Gemini CLI fork) on its OpenAI auth type reads OPENAI_BASE_URL (…/v1),
// OPENAI_API_KEY and OPENAI_MODEL, and its settings from QWEN_HOME (default ~/.qwen).
import type { ProfileDefaults } from './profile-defaults.ts';

export const QWEN: ProfileDefaults = {
  name: 'qwen',
  describe: 'Qwen Code (command qwen, chat completions)',
  command: 'qwen',
  protocol: 'chat',
  basePath: '/v1',
  baseUrlVar: 'OPENAI_BASE_URL',
  tokenVar: 'OPENAI_API_KEY',
  apiKeyVar: 'DASHSCOPE_API_KEY',
  modelVar: 'OPENAI_MODEL',
  backgroundModelVars: [],
  settingsFiles: ['~/.qwen/settings.json', '.qwen/settings.json', '$QWEN_HOME/settings.json'],
  printFlag: '-p',
  resumeFlag: '--continue',
  ownModelPrefix: 'qwen',
  clientDefaultModel: null,
  modelPick: 'always',
  isolation: 'qwen',
};
