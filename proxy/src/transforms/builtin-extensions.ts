import type { BuiltinExtension } from './types.ts';
import { bootstrapDefense } from './bootstrap-defense.ts';
import { ttlTierDetect } from './ttl-tier-detect.ts';
import { fingerprintStrip } from './fingerprint-strip.ts';
import { sortStabilization } from './sort-stabilization.ts';
import { identityNormalization } from './identity-normalization.ts';
import { cacheControlNormalize } from './cache-control-normalize.ts';
import { ttlManagement } from './ttl-management.ts';
import { auto1mGuard } from './auto-1m-guard.ts';
import { thinkingBlockSanitize } from './thinking-block-sanitize.ts';
import { sessionHealth } from './session-health.ts';
import { cacheTelemetry } from './cache-telemetry.ts';

/** The default chain of 4.2.1 that is active without any variable set (reference section 3). */
export const BUILTIN_EXTENSIONS: readonly BuiltinExtension[] = [
  bootstrapDefense,
  ttlTierDetect,
  fingerprintStrip,
  sortStabilization,
  identityNormalization,
  cacheControlNormalize,
  ttlManagement,
  auto1mGuard,
  thinkingBlockSanitize,
  sessionHealth,
  cacheTelemetry,
];
