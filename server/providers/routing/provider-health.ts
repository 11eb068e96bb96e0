// Failure memory per provider (a circuit breaker): after N consecutive failures a provider is
// skipped for a cool-down; when it ends, one request at a time probes it. A successful probe
// closes the circuit, a failed one starts another cool-down.

export type HealthState = 'healthy' | 'cooling' | 'probing';

interface Entry {
  failures: number;
  /** Set while the circuit is open (cooling) or half-open (cool-down over, waiting for a probe). */
  openUntil?: number;
  probeStartedAt?: number;
}

export interface HealthPolicy {
  cooldownAfterFailures: number;
  cooldownMs: number;
}

/** A verdict on a provider, as other instances learn it (see cluster/shared-health.ts). */
export interface HealthVerdict {
  provider: string;
  kind: 'success' | 'failure';
  policy?: HealthPolicy;
}

export class ProviderHealth {
  private readonly entries = new Map<string, Entry>();
  /** Told about every verdict reached here (other instances, metrics). */
  private readonly observers: Array<(verdict: HealthVerdict) => void> = [];

  constructor(private readonly now: () => number = Date.now) {}

  observe(observer: (verdict: HealthVerdict) => void): void {
    this.observers.push(observer);
  }

  private tell(verdict: HealthVerdict): void {
    for (const observer of this.observers) observer(verdict);
  }

  /** A verdict reached by another instance: counted like a local one, not passed on again. */
  apply(verdict: HealthVerdict): void {
    if (verdict.kind === 'success') this.entries.delete(verdict.provider);
    else if (verdict.policy) this.recordFailure(verdict.provider, verdict.policy);
  }

  state(name: string): HealthState {
    const entry = this.entries.get(name);
    if (entry?.openUntil === undefined) return 'healthy';
    if (this.now() < entry.openUntil) return 'cooling';
    return 'probing';
  }

  /** Whether a request may go to the provider now (a half-open provider takes one probe at a time). */
  available(name: string, policy: HealthPolicy): boolean {
    const entry = this.entries.get(name);
    if (entry?.openUntil === undefined) return true;
    const now = this.now();
    if (now < entry.openUntil) return false;
    // A probe whose request vanished (e.g. the process lost track of it) does not block forever.
    return entry.probeStartedAt === undefined || now - entry.probeStartedAt > policy.cooldownMs;
  }

  /** Call before sending; marks the probe of a half-open provider as taken. */
  begin(name: string): void {
    const entry = this.entries.get(name);
    if (entry?.openUntil !== undefined && this.now() >= entry.openUntil) entry.probeStartedAt = this.now();
  }

  success(name: string): void {
    // Only a change is news for the other instances: a healthy provider answering stays healthy.
    if (this.entries.delete(name)) this.tell({ provider: name, kind: 'success' });
  }

  failure(name: string, policy: HealthPolicy): void {
    this.recordFailure(name, policy);
    this.tell({ provider: name, kind: 'failure', policy });
  }

  private recordFailure(name: string, policy: HealthPolicy): void {
    const entry = this.entries.get(name) ?? { failures: 0 };
    entry.failures += 1;
    const now = this.now();
    const probeFailed = entry.openUntil !== undefined && now >= entry.openUntil;
    if (probeFailed || (policy.cooldownAfterFailures > 0 && entry.failures >= policy.cooldownAfterFailures)) {
      entry.openUntil = now + policy.cooldownMs;
    }
    entry.probeStartedAt = undefined;
    this.entries.set(name, entry);
  }

  /** The request ended without a verdict (the client left): free the probe slot. */
  release(name: string): void {
    const entry = this.entries.get(name);
    if (entry) entry.probeStartedAt = undefined;
  }
}
