// The kind of client a diagnosis is for (`gwctl diagnose --client`): its protocol decides which
// address it uses and which checks concern it. The proxy is only for messages-protocol clients.
import type { ClientProfile } from '../config/client-profile.ts';
import type { RouteType } from './classify-models-call.ts';

export type ClientKind = RouteType;
export const CLIENT_KINDS: readonly ClientKind[] = ['messages', 'chat', 'images'];

/** The configured client profile's protocol: both profiles (claude, custom) are messages clients. */
export function defaultClientKind(_profile: Pick<ClientProfile, 'name'>): ClientKind {
  return 'messages';
}
