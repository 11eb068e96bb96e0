// What an account may do on the gateway's pages and operator API. Operators change anything;
// viewers read everything operators read (the /admin pages, the operator API's GET routes) and
// change nothing; members use the gateway and manage their own keys.

export const ROLES = ['operator', 'viewer', 'member'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function parseRole(value: string, where: string): Role {
  if (isRole(value)) return value;
  throw new RangeError(`${where} must be one of ${ROLES.join(', ')}, got "${value.slice(0, 20)}".`);
}

/** May read what operators read. */
export function canView(role: Role): boolean {
  return role === 'operator' || role === 'viewer';
}
