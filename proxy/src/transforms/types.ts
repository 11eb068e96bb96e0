import type { Env } from '../config/env.ts';
import type { JsonObject } from '../util/json-value.ts';

/** `bootstrap` is Claude Code's config fetch; only bootstrap-defense is scoped to it by default. */
export type RouteName = 'messages' | 'bootstrap';

/** Lower-case header names, as node delivers them. */
export type HeaderMap = Record<string, string | string[] | undefined>;

export interface SessionGroups {
  health?: JsonObject;
  sanitize?: JsonObject;
  auto1m?: JsonObject;
  divergence?: JsonObject;
}

/** One object flows through every hook of a request, so extensions can hand facts to later ones. */
export interface RequestMeta {
  route: RouteName;
  requestId: string;
  sessionId: string | null;
  upstreamHost: string;
  requestedModel: string | null;
  /** Set by ttl-tier-detect: a 5m marker already in the request pins the whole request to 5m. */
  ttlTier?: '5m' | '1h';
  /** Fields for quota-status/sessions/<id>.json, grouped so cache-telemetry can keep key order. */
  session: SessionGroups;
  /** Filled by the relay before stream hooks run. */
  servedModel?: string;
  startUsage?: JsonObject;
  deltaUsage?: JsonObject;
  /** Free space for file extensions. */
  extra: JsonObject;
}

export interface RequestContext {
  /** Parsed JSON body, or null when the body is empty or not JSON (it is then forwarded unchanged). */
  body: unknown;
  /** Mutable: changes here reach the upstream (the auth headers excepted, see forward/request-headers). */
  headers: HeaderMap;
  meta: RequestMeta;
  /** Call after mutating body; untouched bodies are forwarded byte for byte. */
  markChanged(): void;
}

export interface LocalReply {
  skip: true;
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface ResponseStartContext {
  status: number;
  headers: HeaderMap;
  meta: RequestMeta;
}

export interface StreamEventContext {
  event: JsonObject;
  eventName: string | null;
  status: number;
  responseHeaders: HeaderMap;
  meta: RequestMeta;
  drop(): void;
}

export interface ResponseContext {
  status: number;
  headers: HeaderMap;
  body: unknown;
  meta: RequestMeta;
  markChanged(): void;
}

type MaybePromise<T> = T | Promise<T>;

export interface Extension {
  name: string;
  order: number;
  enabled: boolean;
  routes: readonly RouteName[];
  /** Where it came from, for /health and logs: `builtin:<name>` or the .mjs file name. */
  file: string;
  builtin: boolean;
  /**
   * Built-ins that only read stream events say so, which lets the relay forward upstream bytes
   * untouched. File extensions may rewrite events, so the relay re-emits lines for them.
   */
  streamObserverOnly?: boolean;
  /** SSE event names the stream hook needs; the relay does not parse other events for it. */
  streamEvents?: readonly string[];
  onRequest?(ctx: RequestContext): MaybePromise<void | LocalReply | undefined>;
  onResponseStart?(ctx: ResponseStartContext): MaybePromise<void>;
  onStreamEvent?(ctx: StreamEventContext): void | JsonObject | undefined;
  onResponse?(ctx: ResponseContext): MaybePromise<void>;
  /** Finishes pending work (e.g. file writes) when the proxy stops or the chain is reloaded. */
  close?(): MaybePromise<void>;
}

export interface ExtensionServices {
  env: Env;
  homeDir: string;
  warn(line: string): void;
  now(): Date;
}

export type BuiltinHooks = Partial<Omit<Extension, 'name' | 'order' | 'file' | 'builtin'>>;

/** A built-in is created per registry load, so its state starts clean exactly like a re-import. */
export interface BuiltinExtension {
  name: string;
  order: number;
  create(services: ExtensionServices): BuiltinHooks;
}
