// Every setting of `gwctl serve`, as data: its environment variable, its flag (none for the secrets
// that exist only in the environment, so they never show in a process list), its default and what it
// does. One source for the env-only part of `gwctl serve --help` and for server/deploy/gwctl.env
// (rendered by renderEnvFile; a test keeps the file, the table, the defaults and the flags in step).
// Loaded by every `gwctl serve --help`: it imports no database code (the pool defaults are checked by the test).
import { DEFAULT_BODY_LIMIT_BYTES, DEFAULT_INFLIGHT_BODY_BYTES, DEFAULT_JSON_MAX_DEPTH, DEFAULT_RATE_LIMIT_RPM, DEFAULT_REQUEST_TIMEOUT_MS } from '../serve-options.ts';

export interface ServeSetting {
  env: string;
  /** The `gwctl serve` flag; undefined: environment only. */
  flag?: string;
  /** The value the file shows: the default (set), or an example (commented out). */
  value: string;
  /** The line is active in the file (the unit's choice), not a commented-out example. */
  active?: boolean;
  describe: string;
}

export interface SettingsSection {
  title: string;
  settings: ServeSetting[];
}

export const SERVE_SETTINGS: SettingsSection[] = [
  {
    title: 'Where the text API ({base_url}) and the image API ({image_base_url}) listen.',
    settings: [
      { env: 'GWCTL_HOST', flag: 'host', value: '127.0.0.1', active: true, describe: 'Address to bind' },
      { env: 'GWCTL_PORT', flag: 'port', value: '8080', active: true, describe: 'Text API port; 0 picks a free one' },
      { env: 'GWCTL_IMAGE_PORT', flag: 'image-port', value: '8081', active: true, describe: 'Image API port; 0 picks a free one' },
    ],
  },
  {
    title: 'The addresses clients use (behind a reverse proxy or TLS terminator), for the hints the gateway prints.',
    settings: [
      { env: 'GWCTL_PUBLIC_URL', flag: 'public-url', value: 'https://gateway.example.com', describe: '{base_url} as clients reach it' },
      { env: 'GWCTL_PUBLIC_IMAGE_URL', flag: 'public-image-url', value: 'https://images.example.com', describe: '{image_base_url} as clients reach it' },
      {
        env: 'GWCTL_TRUST_PROXY',
        flag: 'trust-proxy',
        value: '127.0.0.1',
        describe:
          'The reverse proxies in front whose X-Forwarded-For names the client (login throttling and the audit log key on it): addresses, ranges or a hop count; off by default, so every visitor seems to come from the proxy and 50 failed logins from anyone lock everyone out',
      },
      { env: 'GWCTL_HSTS_MAX_AGE', flag: 'hsts-max-age', value: '31536000', describe: 'With an https public URL: Strict-Transport-Security on the web pages, max-age in seconds' },
    ],
  },
  {
    title: 'Database: the embedded SQLite file under GWCTL_DATA_DIR (the unit\'s state directory, /var/lib/gwctl), or PostgreSQL for several instances.',
    settings: [
      { env: 'GWCTL_DATA_DIR', flag: 'data-dir', value: '/var/lib/gwctl', describe: 'Directory of the embedded database' },
      { env: 'GWCTL_DATABASE_URL', flag: 'database-url', value: 'postgres://gwctl:secret@127.0.0.1:5432/gwctl', describe: 'sqlite://<file> or postgres://…' },
      { env: 'GWCTL_DB_POOL_SIZE', flag: 'db-pool-size', value: '10', describe: 'PostgreSQL connections per instance' },
      { env: 'GWCTL_DB_STATEMENT_TIMEOUT_MS', flag: 'db-statement-timeout-ms', value: '10000', describe: 'PostgreSQL statement timeout, 0 = none' },
    ],
  },
  {
    title: 'Several instances: Redis shares limits, login throttling, provider health and revocations.',
    settings: [
      { env: 'GWCTL_REDIS_URL', flag: 'redis-url', value: 'redis://127.0.0.1:6379', describe: 'Redis shared by several gateway instances' },
      { env: 'GWCTL_REDIS_PREFIX', flag: 'redis-prefix', value: 'gwctl:', describe: 'Prefix of every Redis key and channel' },
      {
        env: 'GWCTL_INSTANCE_NAME',
        flag: 'instance-name',
        value: 'gateway-1',
        describe: 'Names this instance\'s usage journal (GWCTL_DATA_DIR/usage-journal/<name>), replayed when an instance of that name starts again after a crash; default the host name; instances sharing a data directory need different names',
      },
    ],
  },
  {
    title: 'Upstream providers (YAML or JSON); without it the built-in demo provider answers.',
    settings: [{ env: 'GWCTL_CONFIG', flag: 'config', value: '/etc/gwctl/providers.yaml', describe: 'Providers file' }],
  },
  {
    title: 'Single sign-on of the web console through an OpenID provider (register {public_url}/login/oidc/callback there), and device sign-in tokens.',
    settings: [
      { env: 'GWCTL_OIDC_ISSUER', flag: 'oidc-issuer', value: 'https://idp.example.com', describe: "The provider's issuer URL" },
      { env: 'GWCTL_OIDC_CLIENT_ID', flag: 'oidc-client-id', value: 'gwctl', describe: "The gateway's client id at the provider" },
      { env: 'GWCTL_OIDC_GROUPS_CLAIM', flag: 'oidc-groups-claim', value: 'groups', describe: "Claim that lists a person's groups" },
      { env: 'GWCTL_OIDC_ADMIN_GROUPS', flag: 'oidc-admin-groups', value: 'gateway-operators', describe: 'Comma-separated groups whose members sign in as operators' },
      { env: 'GWCTL_OIDC_VIEWER_GROUPS', flag: 'oidc-viewer-groups', value: 'gateway-viewers', describe: 'Comma-separated groups whose members sign in as viewers' },
      { env: 'GWCTL_OIDC_NAME', flag: 'oidc-name', value: 'Example SSO', describe: 'Name on the "Sign in with …" button' },
      { env: 'GWCTL_LOCAL_PASSWORDS', flag: 'local-passwords', value: 'true', describe: 'Sign-in with gateway passwords on /login; false when the provider signs everyone in' },
      { env: 'GWCTL_ACCESS_TOKEN_TTL', flag: 'access-token-ttl', value: '3600', describe: 'Lifetime of device sign-in access tokens (gwctl login, Claude Code), in seconds' },
      { env: 'GWCTL_CLAUDE_MANAGED_SETTINGS', flag: 'claude-managed-settings', value: '/etc/gwctl/claude-managed-settings.json', describe: 'managed-settings.json served to Claude Code signed in through the gateway (availableModels set per person)' },
    ],
  },
  {
    title: 'Secrets, environment only (never a flag, so they never show in a process list).',
    settings: [
      {
        env: 'GWCTL_ADMIN_PASSWORD',
        value: '',
        describe: 'Password of the operator account "admin", used on the first start only (otherwise a random one is printed once, in a framed block on stdout: journalctl -u gwctl); at least 8 characters and not a common password, like every other account',
      },
      { env: 'GWCTL_METRICS_TOKEN', value: '', describe: 'Bearer token GET /metrics requires; unset = /metrics is off' },
      { env: 'GWCTL_OIDC_CLIENT_SECRET', value: '', describe: "The gateway's client secret at the OpenID provider (single sign-on); unset = a public client with PKCE only" },
    ],
  },
  {
    title: 'Limits and timeouts.',
    settings: [
      { env: 'GWCTL_RATE_LIMIT', flag: 'rate-limit', value: String(DEFAULT_RATE_LIMIT_RPM), describe: 'Requests per minute per key, 0 = off' },
      { env: 'GWCTL_BODY_LIMIT', flag: 'body-limit', value: String(DEFAULT_BODY_LIMIT_BYTES), describe: 'Largest request body in bytes' },
      { env: 'GWCTL_INFLIGHT_BODY_LIMIT', flag: 'inflight-body-limit', value: String(DEFAULT_INFLIGHT_BODY_BYTES), describe: 'Request bodies held in memory at once, in bytes; beyond it 503 + Retry-After' },
      { env: 'GWCTL_REQUEST_TIMEOUT_MS', flag: 'request-timeout-ms', value: String(DEFAULT_REQUEST_TIMEOUT_MS), describe: 'Time a client has to send its whole request' },
      { env: 'GWCTL_JSON_MAX_DEPTH', flag: 'json-max-depth', value: String(DEFAULT_JSON_MAX_DEPTH), describe: 'Deepest JSON nesting accepted in request bodies' },
      { env: 'GWCTL_MAX_KEYS_PER_USER', flag: 'max-keys-per-user', value: '100', describe: 'Keys one user may have, 0 = no cap' },
      { env: 'GWCTL_SESSION_IDLE_MINUTES', flag: 'session-idle-minutes', value: '720', describe: 'How long an unused web session lasts, in minutes; 0 = only the 7-day lifetime' },
    ],
  },
  {
    title: 'Stopping: how long /ready answers 503 before draining, and how long in-flight requests may finish.',
    settings: [
      { env: 'GWCTL_SHUTDOWN_GRACE_MS', flag: 'shutdown-grace-ms', value: '0', describe: 'Grace before draining' },
      { env: 'GWCTL_DRAIN_MS', flag: 'drain-ms', value: '10000', describe: 'Drain time after SIGTERM' },
    ],
  },
  {
    title: 'Logs go to the journal: fatal, error, warn, info, debug or silent; json lines (pretty on a terminal).',
    settings: [
      { env: 'GWCTL_LOG_LEVEL', flag: 'log-level', value: 'info', active: true, describe: 'Log level' },
      { env: 'GWCTL_LOG_FORMAT', flag: 'log-format', value: 'json', describe: 'pretty or json' },
    ],
  },
];

export const ENV_ONLY_SETTINGS = SERVE_SETTINGS.flatMap((s) => s.settings).filter((s) => s.flag === undefined);

/** The part of `gwctl serve --help` for settings that have no flag. */
export function envOnlyHelp(): string {
  return ['Settings only in the environment (secrets: no flag, so they never show in a process list):', ...ENV_ONLY_SETTINGS.map((s) => `  ${s.env.padEnd(26)} ${s.describe}`)].join('\n');
}

/** server/deploy/gwctl.env, the EnvironmentFile of the systemd unit. */
export function renderEnvFile(): string {
  const head = [
    '# Settings of the gwctl gateway service (EnvironmentFile of gwctl.service).',
    '# Install as /etc/gwctl/gwctl.env, owned by root, group gwctl, mode 0640 (it may hold a password).',
    '# One VARIABLE=value per line; no quotes needed; a line starting with # is ignored.',
    '# Each variable is the `gwctl serve` flag named after it (`gwctl serve --help`), except the secrets.',
    '# Generated from server/deploy/serve-settings.ts; lines with a value set are the defaults.',
  ];
  const sections = SERVE_SETTINGS.map((section) =>
    [`# ${section.title}`, ...section.settings.map((s) => `# ${s.describe}${s.flag ? ` (--${s.flag})` : ''}\n${s.active ? '' : '#'}${s.env}=${s.value}`)].join('\n'),
  );
  return `${head.join('\n')}\n\n${sections.join('\n\n')}\n`;
}
