// The proxy operations the Proxy and Acceptance screens use (the ProxyOperations contract of
// core/proxy/proxy-operations.ts). The screens get an object of this shape through the engine
// context, so tests hand in a fake; the real one is created only in tui/production-deps.ts.
import type { CheckReport } from '../../core/proxy/proxy-causes.ts';
import type { OperationResult, PlannedChange, ProxyAction, ProxyActionOptions } from '../../core/proxy/proxy-action-types.ts';
import type { ProxyStatusReport } from '../../core/proxy/proxy-status.ts';

export type { OperationResult, PlannedChange, ProxyAction, ProxyActionOptions };

export interface ProxyOperationsPort {
  status(): Promise<ProxyStatusReport>;
  plan(action: ProxyAction, options?: ProxyActionOptions): Promise<PlannedChange>;
  run(action: ProxyAction, options?: ProxyActionOptions): Promise<OperationResult>;
  acceptance(options?: { onProgress?: (checkId: string) => void; signal?: AbortSignal }): Promise<CheckReport>;
}
