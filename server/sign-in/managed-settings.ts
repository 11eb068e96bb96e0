// What GET /managed/settings serves a signed-in Claude Code: the operator's base document (the
// managed-settings file given with --claude-managed-settings, if any) with `availableModels` set to
// the models the person may use (their account's list within their groups' allowlists). No base
// document and no restriction: no policy (404). The envelope {uuid, checksum, settings} and its
// ETag are the SHA-256 of the settings as sent, so an unchanged policy answers 304.
import { createHash } from 'node:crypto';
import { allowedModels } from '../limits/key-enforcement.ts';
import type { AuthContext } from '../auth/key-authenticator.ts';

export interface ManagedSettingsEnvelope {
  uuid: string;
  checksum: string;
  settings: Record<string, unknown>;
}

/** Keys sorted at every level, so the same settings always hash the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value as Record<string, unknown>).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function managedSettingsFor(auth: AuthContext, base: Record<string, unknown> | undefined): ManagedSettingsEnvelope | undefined {
  const models = allowedModels(auth);
  if (!base && !models) return undefined;
  const settings: Record<string, unknown> = { ...(base ?? {}) };
  if (models) settings.availableModels = models;
  const checksum = `sha256:${createHash('sha256').update(canonical(settings)).digest('hex')}`;
  return { uuid: checksum, checksum, settings };
}
