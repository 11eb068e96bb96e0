// The client settings that start, diagnose and config take as flags, so each can be given once
// on the command line (e.g. `gwctl start --profile custom --client my-client`).
import type { SettingKey } from '../../../core/config/setting-definitions.ts';

export const CLIENT_SETTING_KEYS: readonly SettingKey[] = [
  'client.profile',
  'client.command',
  'client.auth',
  'client.baseUrlVar',
  'client.tokenVar',
  'client.apiKeyVar',
  'client.model',
  'client.modelVar',
  'client.backgroundModelVars',
  'client.settingsFiles',
];
