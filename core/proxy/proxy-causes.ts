// Stable cause codes of proxy management and acceptance, next to the diagnosis codes of
// core/doctor/cause-codes.ts (which the acceptance layers also name when a diagnosis explains them).
import type { CauseCode } from '../doctor/cause-codes.ts';
import type { CheckResult } from '../doctor/check.ts';
import type { DoctorReport } from '../doctor/report.ts';

export const PROXY_CAUSE_CODES = {
  PROXY_NOT_INSTALLED: 'The cache proxy package is not installed (no cache-fix-proxy in the npm global prefix or on PATH).',
  PROXY_VERSION_MISMATCH: 'The installed proxy is not version 4.2.1, the only documented one.',
  PROXY_PORT_CONTESTED: 'Several processes listen on or compete for the proxy port.',
  VERSION_REFUSED: 'Another version than 4.2.1 was asked for; install and upgrade are pinned.',
  PACKAGE_NOT_FOUND: 'The package to install (a tarball path) does not exist or cannot be read.',
  NPM_FAILED: '`npm install -g` failed.',
  IN_CLIENT_SESSION: 'This process runs inside a client session that talks through the proxy port.',
  DEBUG_NOT_CONFIRMED: 'Debug logging was asked for without confirming that sensitive context may be logged.',
  SERVICE_NOT_INSTALLED: 'No service definition file: enabling fails with "unit or property-list file not found".',
  SUPERVISOR_UNAVAILABLE: 'No user supervisor here (no systemd user manager, e.g. a container; or not Linux/macOS).',
  SERVICE_ALREADY_INSTALLED: 'A service definition exists already; regenerating it needs --force (the old one is backed up).',
  SERVICE_PORT_MISMATCH: 'The service definition listens on another port than the proxyUrl setting names.',
  DEBUG_LOGGING_ON: 'The service definition has debug logging on (it may record sensitive context).',
  SUPERVISOR_FAILED: 'A systemctl or launchctl command failed.',
  INSTALL_SERVICE_FAILED: '`cache-fix-proxy install-service` failed.',
  HEALTH_NOT_OK: 'After the change the proxy did not answer /health with 200 {"status":"ok"} in time.',
  CLIENT_FAILED: 'The client did not give a normal reply to the short request.',
  TELEMETRY_UNWRITABLE: 'The proxy cannot write ~/.claude/quota-status/ (not a directory, or not writable).',
  CACHE_NOT_OBSERVED: 'No account or session file under ~/.claude/quota-status/ appeared or was updated after the session.',
  RELAY_CHAT_COMPLETIONS: 'The relay address is a chat-completions /v1 address, not a messages-protocol root.',
  RELAY_NO_MESSAGES: 'The relay has no /v1/messages endpoint.',
  RELAY_NO_SSE: 'The relay does not stream server-sent events for a streamed request.',
  RELAY_AUTH_REJECTED: "The relay does not accept the client's authentication header.",
  RELAY_SIGNATURE_REQUIRED: 'The relay demands a private signature or extra headers the proxy cannot produce.',
  RELAY_UNFAITHFUL_STATUS: 'The relay does not return 200/401/4xx/429/5xx faithfully (e.g. 200 or 500 for a wrong key).',
  RELAY_UNREACHABLE: 'The relay address does not answer.',
} as const;

export type ProxyCauseCode = keyof typeof PROXY_CAUSE_CODES;
export type AnyCauseCode = CauseCode | ProxyCauseCode;

/** A check result whose cause may also be a proxy cause code. */
export type ProxyCheckResult = Omit<CheckResult, 'cause'> & { cause: AnyCauseCode | null };

export interface AcceptanceLayer {
  /** The spec's layer name: proxy_running, claude_routed, cache_observed. */
  id: 'proxy_running' | 'claude_routed' | 'cache_observed';
  /** What was observed as evidence (paths, times, status lines), in order. */
  evidence: string[];
  /** The diagnosis run because this layer failed (null when it passed or was skipped). */
  diagnosis: DoctorReport | null;
}

/** The issue-6 report document ({"schemaVersion":1,"ok","checks"}) plus the evidence of each layer. */
export interface CheckReport {
  schemaVersion: 1;
  ok: boolean;
  checks: ProxyCheckResult[];
  layers: AcceptanceLayer[];
}
