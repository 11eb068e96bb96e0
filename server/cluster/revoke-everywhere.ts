// After this process deleted a key or disabled a user: drop it from this instance's cache now, and
// tell the other instances through Redis when configured (PostgreSQL's NOTIFY, sent by the store in
// the same transaction, reaches them too).
import type { GatewayDeps } from '../gateway-deps.ts';
import type { RevocationEvent } from './revocation.ts';

export function revokeEverywhere(deps: Pick<GatewayDeps, 'authenticator' | 'cluster'>, event: RevocationEvent): void {
  deps.authenticator.revoke(event);
  void deps.cluster?.publishRevocation(event).catch(() => undefined);
}
