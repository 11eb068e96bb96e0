// Any other messages-protocol client: the user names the command and the variables it reads.
import { NEUTRAL_VARS, type ProfileDefaults } from './profile-defaults.ts';

export const CUSTOM: ProfileDefaults = {
  name: 'custom',
  describe: 'any other messages-protocol client: set client.command and the variable names it reads',
  command: null,
  protocol: 'messages',
  basePath: '',
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
  modelPick: 'own',
  isolation: null,
};
