// Provider health shared by every instance: each verdict reached here (a failure, or a recovery) is
// published, and verdicts from the others are applied to this instance's circuit breakers, so a
// provider that fails for one instance cools down for all. Lost messages only delay that.
import type { HealthVerdict, ProviderHealth } from '../providers/routing/provider-health.ts';
import type { RedisCluster } from './redis-cluster.ts';

export function shareProviderHealth(health: ProviderHealth, cluster: RedisCluster, instanceId: string): void {
  health.observe((verdict) => {
    void cluster.publish('health', JSON.stringify({ from: instanceId, ...verdict })).catch(() => undefined);
  });
  cluster.on('health', (message) => {
    let verdict: HealthVerdict & { from?: string };
    try {
      verdict = JSON.parse(message);
    } catch {
      return;
    }
    if (verdict.from === instanceId || typeof verdict.provider !== 'string') return;
    health.apply(verdict);
  });
}
