// Single sign-on settings of the web console (`--oidc-*` flags, the secret from
// GWCTL_OIDC_CLIENT_SECRET). Absent = local passwords only.

export interface OidcSettings {
  /** The provider's issuer URL (its discovery document is `{issuer}/.well-known/openid-configuration`). */
  issuer: string;
  clientId: string;
  /** Absent = a public client (PKCE only). */
  clientSecret?: string;
  /** The claim that lists the person's groups (default `groups`). */
  groupsClaim: string;
  /** Members of any of these groups sign in as operators. */
  adminGroups: string[];
  /** Members of any of these groups (and not of an admin group) sign in as viewers. */
  viewerGroups: string[];
  /** The button's text: "Sign in with {displayName}" (default: the issuer's host). */
  displayName?: string;
}

export const DEFAULT_GROUPS_CLAIM = 'groups';

/** "a, b ,c" → ['a', 'b', 'c']. */
export function groupList(text: string | undefined): string[] {
  return (text ?? '').split(',').map((g) => g.trim()).filter(Boolean);
}
