import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BuiltinExtension, RequestMeta } from './types.ts';
import { errorMessage } from '../errors.ts';
import { isObject, type JsonObject } from '../util/json-value.ts';
import { sha256Hex } from '../util/sha256.ts';
import { VERSION } from '../version.ts';

type BootstrapMode = 'audit' | 'block' | 'allowlist';

const LEGACY_KEY = 'tengu_heron_brook';
const ROTATE_BYTES = 5 * 1024 * 1024;
const MAX_DEPTH = 8;

interface Surface {
  surface: 'legacy_key' | 'gb_feature';
  key: string;
  holder: JsonObject;
}

function findSurfaces(value: unknown, keys: Map<string, Surface['surface']>, depth = 0, found: Surface[] = []): Surface[] {
  if (depth > MAX_DEPTH) return found;
  if (Array.isArray(value)) for (const item of value) findSurfaces(item, keys, depth + 1, found);
  else if (isObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      const surface = keys.get(key);
      if (surface) found.push({ surface, key, holder: value });
      else findSurfaces(child, keys, depth + 1, found);
    }
  }
  return found;
}

/**
 * The bootstrap response can carry remotely configured system-prompt text. Audit (the default)
 * forwards it untouched and records only a hash, so a change of prompt source is visible without
 * the prompt itself landing on disk. block and allowlist are explicit opt-ins because they change
 * what the client receives.
 */
export const bootstrapDefense: BuiltinExtension = {
  name: 'bootstrap-defense',
  order: 45,
  create(services) {
    const raw = (services.env.CACHE_FIX_BOOTSTRAP_MODE ?? '').trim().toLowerCase();
    let mode: BootstrapMode = 'audit';
    if (raw === 'block' || raw === 'allowlist') mode = raw;
    else if (raw !== '' && raw !== 'audit') services.warn(`[bootstrap-defense] CACHE_FIX_BOOTSTRAP_MODE="${raw}" is not audit, block or allowlist; using audit`);
    const logPath = services.env.CACHE_FIX_BOOTSTRAP_LOG_PATH || join(services.homeDir, '.claude', 'cache-fix-bootstrap-log.jsonl');
    const allowedRaw = services.env.CACHE_FIX_BOOTSTRAP_ALLOWED_KEYS;
    const allowed = new Set(
      allowedRaw === undefined ? [LEGACY_KEY] : allowedRaw.split(',').map((k) => k.trim()).filter((k) => k !== ''),
    );
    const surfaceKeys = new Map<string, Surface['surface']>([[LEGACY_KEY, 'legacy_key']]);
    const gbFeature = services.env.CLAUDE_CODE_SYSTEM_PROMPT_GB_FEATURE?.trim();
    if (gbFeature) surfaceKeys.set(gbFeature, 'gb_feature');

    function log(meta: RequestMeta, fields: JsonObject): void {
      const record = {
        schema_version: 2,
        extension_version: VERSION,
        timestamp: services.now().toISOString(),
        phase: null,
        mode,
        status: null,
        body_bytes: null,
        upstream_host: meta.upstreamHost,
        request_id: meta.requestId,
        baseline_hash: null,
        anomaly_status: null,
        error: null,
        surface: null,
        prompt_key: null,
        prompt_value_hash: null,
        remote_mode: services.env.CLAUDE_CODE_REMOTE ?? null,
        stripped_keys: [],
        ...fields,
      };
      try {
        mkdirSync(dirname(logPath), { recursive: true });
        try {
          if (statSync(logPath).size >= ROTATE_BYTES) renameSync(logPath, `${logPath}.1`);
        } catch {
          // No log yet.
        }
        appendFileSync(logPath, `${JSON.stringify(record)}\n`, { mode: 0o600 });
      } catch (error) {
        services.warn(`[bootstrap-defense] could not write ${logPath}: ${errorMessage(error)}`);
      }
    }

    return {
      routes: ['bootstrap'],
      onRequest(ctx) {
        if (mode !== 'block') return;
        log(ctx.meta, { phase: 'request_blocked', status: 200 });
        return { skip: true, status: 200, body: {} };
      },
      onResponse(ctx) {
        if (ctx.status >= 400) {
          log(ctx.meta, { phase: 'upstream_error_audited', status: ctx.status, error: `upstream answered ${ctx.status}` });
          return;
        }
        if (!isObject(ctx.body)) return;
        const bodyBytes = Buffer.byteLength(JSON.stringify(ctx.body));
        const surfaces = findSurfaces(ctx.body, surfaceKeys);
        const stripped: string[] = [];
        for (const found of surfaces) {
          const value = found.holder[found.key];
          const removed = mode === 'allowlist' && !allowed.has(found.key);
          if (removed) {
            delete found.holder[found.key];
            stripped.push(found.key);
          }
          log(ctx.meta, {
            phase: removed ? 'response_stripped' : 'response_audited',
            status: ctx.status,
            body_bytes: bodyBytes,
            surface: found.surface,
            prompt_key: found.key,
            prompt_value_hash: sha256Hex(JSON.stringify(value) ?? 'null').slice(0, 16),
            stripped_keys: removed ? [found.key] : [],
          });
        }
        if (stripped.length > 0) ctx.markChanged();
      },
    };
  },
};
