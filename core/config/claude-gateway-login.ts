// The managed-settings file that makes Claude Code's /login open on the Cloud gateway screen with
// this gateway's address filled in and locked. Claude Code honours these keys only from the
// machine's managed settings (administrator-owned), never from a user's own settings.

export const CLAUDE_MANAGED_SETTINGS_PATHS = {
  linux: '/etc/claude-code/managed-settings.json',
  darwin: '/Library/Application Support/ClaudeCode/managed-settings.json',
  win32: 'C:\\Program Files\\ClaudeCode\\managed-settings.json',
} as const;

export function claudeGatewayLoginSettings(gatewayRoot: string): Record<string, unknown> {
  return {
    forceLoginMethod: 'gateway',
    forceLoginGatewayUrl: gatewayRoot.replace(/\/+$/, ''),
    // Sessions started by Claude Desktop combine these with the desktop's own settings.
    parentSettingsBehavior: 'merge',
  };
}
