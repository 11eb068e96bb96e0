// The gateway's run state shared by the listeners: whether it is still ready, whether it is draining
// after a stop signal, and how many API responses are still open, so the stop waits for the last
// one to report its usage.

export class Lifecycle {
  /** Set at the stop signal: /ready answers 503 while requests are still served for a grace period. */
  notReady = false;
  /** Set after the grace period: new requests get 503 while the rest drains. */
  draining = false;
  private open = 0;
  private onIdle: (() => void) | undefined;

  begin(): void {
    this.open += 1;
  }

  /** Called from a response's 'close' event, after its usage was recorded. */
  end(): void {
    this.open -= 1;
    if (this.open === 0) this.onIdle?.();
  }

  get openResponses(): number {
    return this.open;
  }

  /** Resolves when no response is open, or after `boundMs` in any case. */
  whenIdle(boundMs: number): Promise<void> {
    if (this.open === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, boundMs);
      const self = this;
      function done() {
        clearTimeout(timer);
        self.onIdle = undefined;
        resolve();
      }
      this.onIdle = done;
    });
  }
}
