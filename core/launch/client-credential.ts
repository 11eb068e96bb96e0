// Which credential the client gets and where it was found. Users may keep the key in the client's
// own variable or in the neutral name (MSGAPI_AUTH_TOKEN / MSGAPI_API_KEY); either way the client
// receives it in the one variable it reads, and no other credential variable reaches it.
import type { ClientProfile } from '../config/client-profile.ts';

export interface CredentialLookup {
  /** The variable the client reads it from (tokenVar for the service path, apiKeyVar for vendor). */
  clientVar: string;
  /** The variables searched, in order. */
  sources: string[];
  /** The first source that holds a non-empty value; null when none does. */
  foundIn: string | null;
  value: string | undefined;
}

/** Null for the oauth path, where the client needs no key variable. */
export function findCredential(profile: ClientProfile, env: NodeJS.ProcessEnv): CredentialLookup | null {
  if (profile.auth === 'oauth') return null;
  const clientVar = profile.auth === 'service' ? profile.tokenVar : profile.apiKeyVar;
  const sources = profile.auth === 'service' ? profile.tokenSources : profile.apiKeySources;
  const foundIn = sources.find((name) => env[name] !== undefined && env[name] !== '') ?? null;
  return { clientVar, sources, foundIn, value: foundIn ? env[foundIn] : undefined };
}

/** Every credential variable gwctl removes from the client's environment (except the one it sets). */
export function credentialVariables(profile: ClientProfile): string[] {
  return [...new Set([profile.tokenVar, profile.apiKeyVar, ...profile.tokenSources, ...profile.apiKeySources])];
}

/** "ANTHROPIC_AUTH_TOKEN and MSGAPI_AUTH_TOKEN are not set" / "X is not set". */
export function notSetText(lookup: Pick<CredentialLookup, 'sources'>): string {
  return lookup.sources.length > 1 ? `${lookup.sources.join(' and ')} are not set` : `${lookup.sources[0]} is not set`;
}
