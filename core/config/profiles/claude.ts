// The Claude Code CLI reads ANTHROPIC_BASE_URL (the root, it appends /v1/messages itself), sends
// ANTHROPIC_AUTH_TOKEN as `Authorization: Bearer` and ANTHROPIC_API_KEY as `x-api-key`, and asks
// for claude-… models unless ANTHROPIC_MODEL and the per-alias variables name others.
import type { ProfileDefaults } from './profile-defaults.ts';

export const CLAUDE: ProfileDefaults = {
  name: 'claude',
  describe: 'Claude Code CLI (command claude)',
  command: 'claude',
  protocol: 'messages',
  basePath: '',
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
  modelPick: 'own',
  isolation: 'claude',
};
