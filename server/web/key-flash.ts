// Hands a just-created key from the form POST to the very next page view of the same session,
// once, then forgets it. Used only when the browser runs without JavaScript.
import type { CreatedApiKey } from '../store/keys-repo.ts';

const TTL_MS = 5 * 60_000;

export class KeyFlash {
  private readonly pending = new Map<string, { key: CreatedApiKey; at: number }>();

  put(sessionId: string, key: CreatedApiKey): void {
    this.pending.set(sessionId, { key, at: Date.now() });
  }

  take(sessionId: string): CreatedApiKey | undefined {
    const entry = this.pending.get(sessionId);
    this.pending.delete(sessionId);
    for (const [id, e] of this.pending) if (Date.now() - e.at > TTL_MS) this.pending.delete(id);
    return entry && Date.now() - entry.at <= TTL_MS ? entry.key : undefined;
  }
}
