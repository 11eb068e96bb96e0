// The kind of client a diagnosis is for (`gwctl diagnose --client`): its protocol decides which
// address it uses and which checks concern it. The proxy is only for messages-protocol clients.
import type { ClientProfile } from '../config/client-profile.ts';
import type { RouteType } from './classify-models-call.ts';

export type ClientKind = RouteType;
export const CLIENT_KINDS: readonly ClientKind[] = ['messages', 'chat', 'images'];

/**
 * The configured client profile's protocol: claude and custom are messages clients; the others
 * (Responses, Gemini and chat-completions clients) are diagnosed on the direct route with the
 * OpenAI-shaped short request, since the proxy is not theirs.
 */
export function defaultClientKind(profile: Pick<ClientProfile, 'protocol'>): ClientKind {
  return profile.protocol === 'messages' ? 'messages' : 'chat';
}
