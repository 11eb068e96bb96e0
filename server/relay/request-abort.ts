// Stops one request's upstream work when its client leaves (or a shutdown cuts it short). It takes
// the place of an AbortController, which builds an EventTarget and an AbortSignal for every request
// (a few percent of the gateway's CPU per request): here a flag and the few listeners undici and
// the retry back-off register, in the EventEmitter form undici accepts as a request's `signal`.

/** The error an aborted wait or upstream call ends with (as an AbortSignal's default reason). */
function abortError(): Error {
  const error = new Error('The request was aborted: its client went away.');
  error.name = 'AbortError';
  return error;
}

type Listener = () => void;

export class RequestAbort {
  aborted = false;
  reason: Error | undefined = undefined;
  private listeners: Listener[] | undefined = undefined;

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = abortError();
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners) for (const listener of listeners) listener();
  }

  /** EventEmitter's form, as undici calls it: the listener runs at most once, on abort. */
  on(_event: 'abort', listener: Listener): this {
    if (!this.aborted) (this.listeners ??= []).push(listener);
    return this;
  }

  once(event: 'abort', listener: Listener): this {
    return this.on(event, listener);
  }

  removeListener(_event: 'abort', listener: Listener): this {
    const listeners = this.listeners;
    if (listeners) {
      const at = listeners.indexOf(listener);
      if (at !== -1) listeners.splice(at, 1);
    }
    return this;
  }

  off(event: 'abort', listener: Listener): this {
    return this.removeListener(event, listener);
  }

  /** Resolves after `ms`, or rejects with the abort's reason as soon as the request is aborted. */
  wait(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.aborted) return reject(this.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(this.reason);
      };
      const timer = setTimeout(() => {
        this.removeListener('abort', onAbort);
        resolve();
      }, ms);
      this.on('abort', onAbort);
    });
  }
}
