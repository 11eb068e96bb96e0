// What must reach every gateway instance at once: a key deleted, a user disabled. Instances cache
// key lookups and drop the entries these events name; while any feed that carries them is
// disconnected, they stop trusting the cache and check the database on every request.

export type RevocationEvent = { kind: 'key'; id: string } | { kind: 'user'; id: string };

export const REVOCATION_CHANNEL = 'gwctl_revocations';

export function encodeRevocation(event: RevocationEvent): string {
  return `${event.kind}:${event.id}`;
}

export function decodeRevocation(text: string): RevocationEvent | undefined {
  const [kind, id] = [text.slice(0, text.indexOf(':')), text.slice(text.indexOf(':') + 1)];
  if ((kind === 'key' || kind === 'user') && id) return { kind, id };
  return undefined;
}

/** A source of revocation events from other processes. */
export interface RevocationFeed {
  readonly name: string;
  /** True while subscribed: events cannot be missed. */
  readonly connected: boolean;
  /**
   * `event` for each revocation; `resync` when the feed (re)connects, since events may have been
   * missed while it was down.
   */
  start(handlers: { event: (event: RevocationEvent) => void; resync: () => void }): Promise<void>;
  close(): Promise<void>;
}
