// A budget for request bodies held in memory at once, across all requests of a listener pair. A
// body is reserved at its declared size (Content-Length, or the body limit when it streams without
// one) before it is read, and released when its response closes. Requests that would overrun the
// budget wait for nothing: they get 503 with Retry-After, so memory stays bounded under a burst of
// large prompts instead of growing with it. A lone request is always admitted (the body limit
// still caps it).

export class BodyBudget {
  private reserved = 0;

  constructor(readonly limitBytes: number) {}

  /** Reserves `bytes`; false when that would overrun the budget while others hold some. */
  reserve(bytes: number): boolean {
    if (bytes <= 0) return true;
    if (this.reserved > 0 && this.reserved + bytes > this.limitBytes) return false;
    this.reserved += bytes;
    return true;
  }

  release(bytes: number): void {
    if (bytes > 0) this.reserved = Math.max(0, this.reserved - bytes);
  }

  get reservedBytes(): number {
    return this.reserved;
  }
}
