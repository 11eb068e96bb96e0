// The demo model's stored responses (what `store` asks for): enough to answer GET and DELETE
// /v1/responses/{id} and to continue a conversation from previous_response_id. Kept in this
// process's memory only, bounded in number and age, like the rest of the demo: a stand-in for a
// provider that keeps responses, not a durable store.
export interface StoredResponse {
  /** The response object as it was answered. */
  response: Record<string, unknown>;
  /** The conversation's text up to and including this response (the demo's context for a follow-up). */
  conversation: string;
}

export class ResponseStore {
  private readonly entries = new Map<string, { stored: StoredResponse; at: number }>();

  constructor(
    private readonly limit = 1000,
    private readonly ttlMs = 60 * 60 * 1000,
    private readonly now: () => number = Date.now,
  ) {}

  put(id: string, stored: StoredResponse): void {
    this.entries.delete(id);
    this.entries.set(id, { stored, at: this.now() });
    // A Map iterates in insertion order: the first entries are the oldest.
    while (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
  }

  get(id: string): StoredResponse | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (this.now() - entry.at > this.ttlMs) {
      this.entries.delete(id);
      return undefined;
    }
    return entry.stored;
  }

  delete(id: string): boolean {
    return this.get(id) !== undefined && this.entries.delete(id);
  }
}
