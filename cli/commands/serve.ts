// gwctl serve: run the gateway (text API + image API) until SIGINT/SIGTERM, then drain and exit 0.
// `--print-systemd-unit` prints the unit that runs it as a system service instead.
import { realpathSync } from 'node:fs';
import { DEFAULT_GROUPS_CLAIM, groupList } from '../../server/oidc/oidc-settings.ts';
import type { CommandModule } from 'yargs';
import { renderGatewayUnit, UNIT_DEFAULTS } from '../../server/deploy/systemd-unit.ts';
import { envOnlyHelp } from '../../server/deploy/serve-settings.ts';
import { describeDatabaseUrl } from '../../server/store/database-url.ts';
import { defaultServeOptions, type ServeOptions } from '../../server/serve-options.ts';
import { EXIT, type CliContext } from '../cli-context.ts';
import { envBoolean, envNumber, envString } from '../env-defaults.ts';
import { resolveDatabaseUrl, withStoreOptions, type StoreArgs } from './admin/store-options.ts';
import { ADMIN_USERNAME } from '../../server/bootstrap-admin.ts';
import { parseTrustProxy } from '../../server/config/trust-proxy.ts';
import { gwctlInvocation } from '../gwctl-invocation.ts';
import { framedBlock } from '../output/framed-block.ts';

interface Args extends StoreArgs {
  host: string;
  port: number;
  imagePort: number;
  config?: string;
  publicUrl?: string;
  publicImageUrl?: string;
  rateLimit?: number;
  bodyLimit?: number;
  inflightBodyLimit?: number;
  requestTimeoutMs?: number;
  jsonMaxDepth?: number;
  redisPrefix?: string;
  dbPoolSize?: number;
  dbStatementTimeoutMs?: number;
  shutdownGraceMs?: number;
  trustProxy?: string;
  hstsMaxAge?: number;
  maxKeysPerUser?: number;
  sessionIdleMinutes?: number;
  oidcIssuer?: string;
  oidcClientId?: string;
  oidcGroupsClaim?: string;
  oidcAdminGroups?: string;
  oidcViewerGroups?: string;
  oidcName?: string;
  localPasswords?: boolean;
  accessTokenTtl?: number;
  claudeManagedSettings?: string;
  drainMs: number;
  instanceName?: string;
  logLevel: string;
  logFormat?: 'pretty' | 'json';
  printSystemdUnit?: boolean;
}

export function serveCommand(ctx: CliContext): CommandModule<object, Args> {
  const defaults = defaultServeOptions(ctx.env);
  const env = ctx.env;
  return {
    command: 'serve',
    describe: 'Run the gateway: text API ({base_url}) and image API ({image_base_url})',
    builder: (y) =>
      withStoreOptions(y)
        .option('host', { type: 'string', default: envString(env, 'GWCTL_HOST') ?? defaults.host, describe: 'Address to bind [env GWCTL_HOST]' })
        .option('port', { type: 'number', default: envNumber(env, 'GWCTL_PORT') ?? defaults.port, describe: 'Text API port; 0 picks a free one [env GWCTL_PORT]' })
        .option('image-port', { type: 'number', default: envNumber(env, 'GWCTL_IMAGE_PORT') ?? defaults.imagePort, describe: 'Image API port; 0 picks a free one [env GWCTL_IMAGE_PORT]' })
        .option('config', { type: 'string', default: envString(env, 'GWCTL_CONFIG'), describe: 'Providers file, YAML or JSON (default: built-in demo provider) [env GWCTL_CONFIG]' })
        .option('public-url', { type: 'string', default: envString(env, 'GWCTL_PUBLIC_URL'), describe: '{base_url} as clients reach it, for hints [env GWCTL_PUBLIC_URL]' })
        .option('trust-proxy', {
          type: 'string',
          default: envString(env, 'GWCTL_TRUST_PROXY'),
          describe: 'Reverse proxies in front whose X-Forwarded-For names the client (login throttling, audit): hop count, or addresses/ranges such as 10.0.0.5,loopback (default off) [env GWCTL_TRUST_PROXY]',
        })
        .option('hsts-max-age', { type: 'number', default: envNumber(env, 'GWCTL_HSTS_MAX_AGE'), describe: 'Send Strict-Transport-Security with this max-age (seconds) on the web pages; needs an https --public-url (default off) [env GWCTL_HSTS_MAX_AGE]' })
        .option('public-image-url', { type: 'string', default: envString(env, 'GWCTL_PUBLIC_IMAGE_URL'), describe: '{image_base_url} as clients reach it [env GWCTL_PUBLIC_IMAGE_URL]' })
        .option('rate-limit', { type: 'number', default: envNumber(env, 'GWCTL_RATE_LIMIT'), describe: 'Requests per minute per key, 0 = off (default 600) [env GWCTL_RATE_LIMIT]' })
        .option('body-limit', { type: 'number', default: envNumber(env, 'GWCTL_BODY_LIMIT'), describe: 'Largest request body in bytes (default 16 MiB) [env GWCTL_BODY_LIMIT]' })
        .option('inflight-body-limit', { type: 'number', default: envNumber(env, 'GWCTL_INFLIGHT_BODY_LIMIT'), describe: 'Request bodies held in memory at once, in bytes; beyond it 503 + Retry-After (default 64 MiB) [env GWCTL_INFLIGHT_BODY_LIMIT]' })
        .option('request-timeout-ms', { type: 'number', default: envNumber(env, 'GWCTL_REQUEST_TIMEOUT_MS'), describe: 'Time a client has to send its whole request; 408 after it (default 120000) [env GWCTL_REQUEST_TIMEOUT_MS]' })
        .option('json-max-depth', { type: 'number', default: envNumber(env, 'GWCTL_JSON_MAX_DEPTH'), describe: 'Deepest JSON nesting accepted in request bodies (default 128) [env GWCTL_JSON_MAX_DEPTH]' })
        .option('redis-prefix', { type: 'string', default: envString(env, 'GWCTL_REDIS_PREFIX'), describe: 'Prefix of every Redis key and channel, to share one Redis (default "gwctl:") [env GWCTL_REDIS_PREFIX]' })
        .option('db-pool-size', { type: 'number', default: envNumber(env, 'GWCTL_DB_POOL_SIZE'), describe: 'PostgreSQL connections per instance (default 10) [env GWCTL_DB_POOL_SIZE]' })
        .option('db-statement-timeout-ms', { type: 'number', default: envNumber(env, 'GWCTL_DB_STATEMENT_TIMEOUT_MS'), describe: 'PostgreSQL statement timeout, 0 = none (default 10000) [env GWCTL_DB_STATEMENT_TIMEOUT_MS]' })
        .option('shutdown-grace-ms', { type: 'number', default: envNumber(env, 'GWCTL_SHUTDOWN_GRACE_MS'), describe: 'After a stop signal, how long /ready answers 503 while requests are still served, before draining (default 0) [env GWCTL_SHUTDOWN_GRACE_MS]' })
        .option('max-keys-per-user', { type: 'number', default: envNumber(env, 'GWCTL_MAX_KEYS_PER_USER'), describe: 'Keys one user may have, 0 = no cap (default 100) [env GWCTL_MAX_KEYS_PER_USER]' })
        .option('session-idle-minutes', { type: 'number', default: envNumber(env, 'GWCTL_SESSION_IDLE_MINUTES'), describe: 'Log a web session out after this long unused, 0 = only the 7-day lifetime (default 720) [env GWCTL_SESSION_IDLE_MINUTES]' })
        .option('oidc-issuer', { type: 'string', default: envString(env, 'GWCTL_OIDC_ISSUER'), describe: 'Single sign-on of the web console: the OpenID provider\'s issuer URL (the client secret comes from GWCTL_OIDC_CLIENT_SECRET; callback {public_url}/login/oidc/callback) [env GWCTL_OIDC_ISSUER]' })
        .option('oidc-client-id', { type: 'string', default: envString(env, 'GWCTL_OIDC_CLIENT_ID'), describe: 'The gateway\'s client id at the OpenID provider [env GWCTL_OIDC_CLIENT_ID]' })
        .option('oidc-groups-claim', { type: 'string', default: envString(env, 'GWCTL_OIDC_GROUPS_CLAIM'), describe: 'Claim that lists a person\'s groups (default groups) [env GWCTL_OIDC_GROUPS_CLAIM]' })
        .option('oidc-admin-groups', { type: 'string', default: envString(env, 'GWCTL_OIDC_ADMIN_GROUPS'), describe: 'Comma-separated groups whose members sign in as operators [env GWCTL_OIDC_ADMIN_GROUPS]' })
        .option('oidc-viewer-groups', { type: 'string', default: envString(env, 'GWCTL_OIDC_VIEWER_GROUPS'), describe: 'Comma-separated groups whose members sign in as viewers (read the operator pages, change nothing) [env GWCTL_OIDC_VIEWER_GROUPS]' })
        .option('oidc-name', { type: 'string', default: envString(env, 'GWCTL_OIDC_NAME'), describe: 'Name on the "Sign in with …" button (default: the issuer\'s host) [env GWCTL_OIDC_NAME]' })
        .option('local-passwords', { type: 'boolean', default: envBoolean(env, 'GWCTL_LOCAL_PASSWORDS'), describe: 'Sign-in with gateway passwords on /login (default on; --no-local-passwords when the identity provider signs everyone in) [env GWCTL_LOCAL_PASSWORDS]' })
        .option('access-token-ttl', { type: 'number', default: envNumber(env, 'GWCTL_ACCESS_TOKEN_TTL'), describe: 'Lifetime of device sign-in access tokens (gwctl login, Claude Code) in seconds (default 3600) [env GWCTL_ACCESS_TOKEN_TTL]' })
        .option('claude-managed-settings', { type: 'string', default: envString(env, 'GWCTL_CLAUDE_MANAGED_SETTINGS'), describe: 'A managed-settings.json document served at /managed/settings to Claude Code signed in through the gateway, with availableModels set per person [env GWCTL_CLAUDE_MANAGED_SETTINGS]' })
        .option('drain-ms', { type: 'number', default: envNumber(env, 'GWCTL_DRAIN_MS') ?? defaults.drainMs, describe: 'How long in-flight requests may finish after a stop signal [env GWCTL_DRAIN_MS]' })
        .option('instance-name', {
          type: 'string',
          default: envString(env, 'GWCTL_INSTANCE_NAME'),
          describe: 'Names this gateway\'s usage journal (<data dir>/usage-journal/<name>), replayed at the next start after a crash; gateways sharing a data directory need different names (default: the host name) [env GWCTL_INSTANCE_NAME]',
        })
        .option('log-level', {
          type: 'string',
          default: envString(env, 'GWCTL_LOG_LEVEL') ?? defaults.logLevel,
          choices: ['fatal', 'error', 'warn', 'info', 'debug', 'silent'],
          describe: 'Log level (logs go to stderr) [env GWCTL_LOG_LEVEL]',
        })
        .option('log-format', {
          type: 'string',
          default: envString(env, 'GWCTL_LOG_FORMAT'),
          choices: ['pretty', 'json'],
          describe: 'Log lines for people (pretty) or machines (json) (default: pretty when stderr is a terminal, json otherwise) [env GWCTL_LOG_FORMAT]',
        })
        .option('print-systemd-unit', {
          type: 'boolean',
          describe: `Print a systemd unit that runs this gwctl as a system service (settings in ${UNIT_DEFAULTS.environmentFile}), then exit`,
        })
        .epilogue(envOnlyHelp())
        .check((raw) => {
          const a = raw as unknown as Args;
          for (const [name, value] of [['port', a.port], ['image-port', a.imagePort]] as const) {
            if (!Number.isInteger(value) || value < 0 || value > 65535) return `--${name} must be a whole number from 0 to 65535, got ${value}.`;
          }
          for (const [name, value] of [['rate-limit', a.rateLimit], ['body-limit', a.bodyLimit], ['drain-ms', a.drainMs]] as const) {
            if (value !== undefined && (!Number.isInteger(value) || value < 0)) return `--${name} must be a whole number >= 0, got ${value}.`;
          }
          for (const [name, value] of [['db-statement-timeout-ms', a.dbStatementTimeoutMs], ['shutdown-grace-ms', a.shutdownGraceMs]] as const) {
            if (value !== undefined && (!Number.isInteger(value) || value < 0)) return `--${name} must be a whole number >= 0, got ${value}.`;
          }
          for (const [name, value] of [['db-pool-size', a.dbPoolSize], ['inflight-body-limit', a.inflightBodyLimit], ['request-timeout-ms', a.requestTimeoutMs], ['json-max-depth', a.jsonMaxDepth]] as const) {
            if (value !== undefined && (!Number.isInteger(value) || value < 1)) return `--${name} must be a whole number >= 1, got ${value}.`;
          }
          for (const [name, value] of [['public-url', a.publicUrl], ['public-image-url', a.publicImageUrl]] as const) {
            if (value !== undefined && !/^https?:\/\/[^/\s]+/.test(value)) return `--${name} must be an http(s) URL, got "${value}".`;
          }
          for (const [name, value] of [['hsts-max-age', a.hstsMaxAge], ['max-keys-per-user', a.maxKeysPerUser], ['session-idle-minutes', a.sessionIdleMinutes]] as const) {
            if (value !== undefined && (!Number.isInteger(value) || value < 0)) return `--${name} must be a whole number >= 0, got ${value}.`;
          }
          if ((a.oidcIssuer === undefined) !== (a.oidcClientId === undefined)) return 'Single sign-on needs both --oidc-issuer and --oidc-client-id.';
          if (a.oidcIssuer !== undefined && !/^https?:\/\/[^/\s]+/.test(a.oidcIssuer)) return `--oidc-issuer must be an http(s) URL, got "${a.oidcIssuer}".`;
          if (a.localPasswords === false && a.oidcIssuer === undefined) return '--no-local-passwords needs single sign-on (--oidc-issuer and --oidc-client-id): otherwise nobody could sign in.';
          if (a.accessTokenTtl !== undefined && (!Number.isInteger(a.accessTokenTtl) || a.accessTokenTtl < 60 || a.accessTokenTtl > 86_400)) return `--access-token-ttl must be a whole number of seconds from 60 to 86400, got ${a.accessTokenTtl}.`;
          if (a.instanceName !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(a.instanceName)) return `--instance-name must be 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit; got "${a.instanceName}".`;
          if (a.hstsMaxAge && !a.publicUrl?.startsWith('https://')) return '--hsts-max-age needs --public-url with https://: browsers ignore the header over plain http.';
          const trust = parseTrustProxy(a.trustProxy);
          if (typeof trust === 'string') return trust;
          return true;
        }) as never,
    handler: async (args) => {
      if (args.printSystemdUnit) {
        // The file node was started with is this gwctl's bin (through npm's link, hence realpath).
        const gwctlPath = realpathSync(process.argv[1] ?? 'gwctl');
        ctx.stdout(renderGatewayUnit({ nodePath: process.execPath, gwctlPath, drainMs: args.drainMs, ...UNIT_DEFAULTS }));
        ctx.finish(EXIT.ok);
        return;
      }
      const { dataDir, databaseUrl } = resolveDatabaseUrl(args, ctx.env);
      const options: ServeOptions = {
        ...defaults,
        host: args.host,
        port: args.port,
        imagePort: args.imagePort,
        dataDir,
        databaseUrl,
        configFile: args.config,
        publicUrl: args.publicUrl,
        publicImageUrl: args.publicImageUrl,
        rateLimitRpm: args.rateLimit,
        bodyLimitBytes: args.bodyLimit,
        inflightBodyBytes: args.inflightBodyLimit,
        requestTimeoutMs: args.requestTimeoutMs,
        jsonMaxDepth: args.jsonMaxDepth,
        redisUrl: args.redisUrl ?? envString(ctx.env, 'GWCTL_REDIS_URL'),
        redisPrefix: args.redisPrefix,
        dbPoolSize: args.dbPoolSize,
        dbStatementTimeoutMs: args.dbStatementTimeoutMs,
        shutdownGraceMs: args.shutdownGraceMs,
        // A secret: only from the environment, so it never shows in a process list.
        metricsToken: envString(ctx.env, 'GWCTL_METRICS_TOKEN'),
        trustProxy: parseTrustProxy(args.trustProxy) as ServeOptions['trustProxy'],
        hstsMaxAge: args.hstsMaxAge,
        maxKeysPerUser: args.maxKeysPerUser,
        sessionIdleMs: args.sessionIdleMinutes === undefined ? undefined : args.sessionIdleMinutes * 60_000,
        ...(args.oidcIssuer && args.oidcClientId
          ? {
              oidc: {
                issuer: args.oidcIssuer,
                clientId: args.oidcClientId,
                // A secret: only from the environment, so it never shows in a process list.
                clientSecret: envString(ctx.env, 'GWCTL_OIDC_CLIENT_SECRET'),
                groupsClaim: args.oidcGroupsClaim ?? DEFAULT_GROUPS_CLAIM,
                adminGroups: groupList(args.oidcAdminGroups),
                viewerGroups: groupList(args.oidcViewerGroups),
                displayName: args.oidcName,
              },
            }
          : {}),
        localPasswords: args.localPasswords,
        accessTokenTtlSeconds: args.accessTokenTtl,
        claudeManagedSettingsFile: args.claudeManagedSettings,
        drainMs: args.drainMs,
        instanceName: args.instanceName,
        logLevel: args.logLevel,
      };
      // Loaded here so that other commands (and --help) never pay for the server's modules.
      const { createLogger, startGateway } = await import('../../server/start.ts');
      const logger = createLogger(options.logLevel, args.logFormat ?? (process.stderr.isTTY ? 'pretty' : 'json'));
      const stopSignal = ctx.waitForStopSignal();
      const gateway = await startGateway(options, ctx.env, logger);
      const gw = gwctlInvocation(ctx.env);
      const dataFlags = args.databaseUrl ? ` --database-url '${describeDatabaseUrl(databaseUrl)}'` : args.dataDir ? ` --data-dir '${dataDir}'` : '';
      if (gateway.admin.generatedPassword) {
        // Apart from the log lines (stderr) and before the banner: the one time this password exists in clear.
        ctx.stdout(
          framedBlock([
            `First start: created the operator account "${ADMIN_USERNAME}".`,
            `Password (shown once, store it now):  ${gateway.admin.generatedPassword}`,
            `Log in at ${gateway.publicUrl}/login, then change it on your Account page.`,
            'Lost it? Set a new one on this host (the gateway may keep running):',
            `  ${gw} admin user passwd ${ADMIN_USERNAME}${dataFlags}`,
            'To choose it yourself next time, set GWCTL_ADMIN_PASSWORD before the first start.',
          ]),
        );
        ctx.stderr(`First start: created operator account "${ADMIN_USERNAME}"; its password is in the framed block on stdout (shown once).\n`);
      } else if (gateway.admin.created) {
        ctx.stderr(`First start: created operator account "${ADMIN_USERNAME}" with the password from GWCTL_ADMIN_PASSWORD.\n`);
      }
      const providers = gateway.deps.router.providers.map((p) => `${p.name} [${p.type}${p.region ? `, ${p.region}` : ''}] (${p.models.map((m) => m.id).join(', ')})`).join('; ');
      ctx.stdout(
        [
          'gwctl gateway is running',
          `  text API     ${gateway.textUrl}   chat-completions base URL: ${gateway.publicUrl}/v1   messages base URL: ${gateway.publicUrl}`,
          `  image API    ${gateway.imageUrl}   base URL: ${gateway.publicImageUrl}/v1`,
          `  health       ${gateway.textUrl}/health (liveness)   ${gateway.textUrl}/ready (readiness)${options.metricsToken ? `   ${gateway.textUrl}/metrics (token)` : ''}`,
          `  database     ${describeDatabaseUrl(databaseUrl)}${options.redisUrl ? `   shared state: ${describeDatabaseUrl(options.redisUrl)}` : ''}`,
          `  providers    ${providers}`,
          `  log in       ${gateway.publicUrl}/login as "${ADMIN_USERNAME}" (operator; keys, usage, chat and images are on the site)`,
          `  get a key    KEY=$(${gw} admin key create --user ${ADMIN_USERNAME}${dataFlags})`,
          `  try it       curl -H "Authorization: Bearer $KEY" ${gateway.publicUrl}/v1/models`,
          'Stop with Ctrl+C (in-flight requests finish first).',
          '',
        ].join('\n'),
      );
      const signal = await stopSignal;
      ctx.stderr(`Received ${signal}: finishing in-flight requests (up to ${options.drainMs} ms), then flushing usage.\n`);
      await gateway.stop();
      ctx.stderr('Gateway stopped.\n');
      ctx.finish(EXIT.ok);
    },
  };
}
