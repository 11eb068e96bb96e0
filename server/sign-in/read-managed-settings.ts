// Reads the operator's managed-settings document for Claude Code (--claude-managed-settings): a
// JSON object, as Claude Code's managed-settings.json. A bad file stops the start with its reason.
import { readFileSync } from 'node:fs';
import { ConfigError } from '../errors/config-error.ts';

export function readManagedSettings(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError('managed_settings_unreadable', `Cannot read the Claude Code managed settings ${path}: ${(error as Error).message}.`, 'Check the path given with --claude-managed-settings.');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError('managed_settings_invalid', `The Claude Code managed settings ${path} are not valid JSON (${(error as Error).message}).`, 'Fix the file: it is a managed-settings.json document, one JSON object.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError('managed_settings_invalid', `The Claude Code managed settings ${path} must be one JSON object.`, 'Fix the file: it is a managed-settings.json document, one JSON object.');
  }
  return value as Record<string, unknown>;
}
