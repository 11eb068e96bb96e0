// gwctl diagnose [--client chat|messages|images] [--status N] [--no-request] [--json] [--report FILE [--request-id ID]]: the checks in
// order, each with a cause code, what was observed and a remedy with commands, then the verdict (one
// root cause). One of them sends a short real request through the route the client would take.
// --report also writes a support bundle (versions, platform, settings with sources, the checks, the
// request ids seen; no key, token or cookie). Exit 0 when nothing failed, 1 otherwise.
import type { CommandModule } from 'yargs';
import type { HttpGet } from '../../core/client/http-get.ts';
import { undiciGet } from '../../core/client/undici-http-get.ts';
import { CLIENT_KINDS, type ClientKind } from '../../core/doctor/client-kind.ts';
import { DIAGNOSE_STATUSES } from '../../core/doctor/diagnose-checks.ts';
import { PROBE_MAX_TOKENS } from '../../core/doctor/messages-probe.ts';
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { writeFileAtomic } from '../../core/client-settings/atomic-write.ts';
import { runDiagnosis } from '../../core/doctor/run-diagnosis.ts';
import { diagnoseForSupport } from '../../core/support/diagnose-for-support.ts';
import { undiciPost, type HttpPost } from '../../core/proxy/http-post.ts';
import { systemProxyEnvironment } from '../../core/proxy/running-proxy-environment.ts';
import { CliError, EXIT, type CliContext } from '../cli-context.ts';
import { toJson } from '../output/format-table.ts';
import { renderChecks } from '../output/render-checks.ts';
import { settingsOptions } from './config/settings-options.ts';
import { CLIENT_SETTING_KEYS } from './config/client-setting-keys.ts';
import { gwctlVersion } from '../version.ts';

interface Args {
  client?: ClientKind;
  status?: number;
  request: boolean;
  json: boolean;
  timeout: number;
  report?: string;
  requestId?: string[];
}

export function diagnoseCommand(ctx: CliContext, http: HttpGet = undiciGet, post: HttpPost = undiciPost): CommandModule<object, Args> {
  return {
    command: 'diagnose',
    describe: 'Find why a client fails: execution plane, proxy, base address, pinned settings, credential, proxy upstream, one short real request, direct request',
    builder: (y) =>
      settingsOptions
        .add(y, ['baseUrl', 'proxyUrl', ...CLIENT_SETTING_KEYS])
        .option('client', {
          choices: CLIENT_KINDS,
          describe: "The kind of client that fails: messages (the default, from the client profile), chat (chat-completions) or images. The proxy checks and the short real request concern messages clients only",
        })
        .option('status', { type: 'number', describe: `Start from the status the client showed: ${DIAGNOSE_STATUSES.join(', ')}` })
        .option('request', {
          type: 'boolean',
          default: true,
          describe: `Send one short real POST /v1/messages (max_tokens ${PROBE_MAX_TOKENS}, may cost a few tokens) through the route the client would take; --no-request leaves it out`,
        })
        .option('timeout', { type: 'number', default: 10_000, describe: 'Milliseconds for each request' })
        .option('report', { type: 'string', describe: 'Also write a support bundle to this file for the service operator: versions, platform, settings with their sources, every check, the request ids seen; no key, token or cookie' })
        .option('request-id', {
          type: 'string',
          array: true,
          describe: 'With --report: the request id the failing client showed (its x-request-id or request-id; repeatable), so the operator looks up that very request',
        })
        .option('json', { type: 'boolean', default: false, describe: 'Print {"schemaVersion":1,"ok":bool,"checks":[{"id","status","cause","observed","remedy","commands"}],"client":"messages|chat|images","verdict":{…}}' })
        .check((raw) => {
          const a = raw as unknown as Args;
          if (a.status !== undefined && !DIAGNOSE_STATUSES.includes(a.status)) return `--status must be one of ${DIAGNOSE_STATUSES.join(', ')}, got ${a.status}. For other statuses see \`gwctl explain <status>\`.`;
          if (!Number.isInteger(a.timeout) || a.timeout < 1) return `--timeout must be a positive whole number of milliseconds, got ${a.timeout}.`;
          if (a.report !== undefined && (typeof a.report !== 'string' || a.report.trim() === '')) return '--report needs a file name, e.g. --report gwctl-support.json.';
          if (a.requestId !== undefined && a.report === undefined) return '--request-id goes into the support bundle: give --report FILE too.';
          const badId = (a.requestId ?? []).find((id) => !/^[\x21-\x7e]{1,200}$/.test(String(id)));
          if (badId !== undefined) return `--request-id ${JSON.stringify(badId)} is not a request id (one word, as the client showed it, e.g. req_…).`;
          return true;
        }) as never,
    handler: async (args) => {
      const bundleFile = args.report === undefined ? undefined : resolve(process.cwd(), args.report);
      if (bundleFile) checkWritable(bundleFile);
      const settings = settingsOptions.load(args as unknown as Record<string, unknown>, ctx);
      const messages = (args.client ?? 'messages') === 'messages';
      const notice = !messages
        ? ''
        : args.request
        ? `gwctl: messages.request sends one short real request (POST /v1/messages, max_tokens ${PROBE_MAX_TOKENS}; it may cost a few tokens). --no-request leaves it out.\n`
        : 'gwctl: --no-request: the short real request is left out.\n';
      if (!args.json) ctx.stdout(`gwctl diagnose${args.client ? ` --client ${args.client}` : ''}${args.status ? ` --status ${args.status}` : ''}\n${notice.replace(/^gwctl: /, '')}`);
      else if (notice) ctx.stderr(notice);
      const deps = { env: ctx.env, cwd: process.cwd(), settings, http, post, sendRequest: args.request, status: args.status, client: args.client, requestTimeoutMs: args.timeout, proxyEnvironment: systemProxyEnvironment() };
      const options = { onResult: (r: Parameters<typeof renderChecks.one>[0]) => (args.json ? ctx.stderr(renderChecks.progress(r)) : ctx.stdout(renderChecks.one(r))) };
      const report = await settingsOptions.guard(async () => {
        if (!bundleFile) return runDiagnosis(deps, options);
        const done = await diagnoseForSupport(deps, options, { gwctlVersion: gwctlVersion(), now: new Date(), reportedRequestIds: (args.requestId ?? []).map(String) });
        writeFileAtomic(bundleFile, `${JSON.stringify(done.bundle, null, 2)}\n`, 0o600);
        ctx.stderr(`gwctl: support bundle written to ${bundleFile} (${done.bundle.checks.length} checks, ${done.bundle.requestIds.length} request id(s); keys and tokens masked). Send it to the service operator.\n`);
        return done.report;
      });
      ctx.stdout(args.json ? toJson(report) : renderChecks.summary(report.checks) + renderChecks.verdict(report.verdict));
      ctx.finish(report.ok ? EXIT.ok : EXIT.failed);
    },
  };
}

/** A bad --report path is a usage error before anything runs, not a failure after the diagnosis. */
function checkWritable(file: string): void {
  const dir = dirname(file);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new CliError(`--report ${file}: the directory ${dir} does not exist.`, 'Name a file in an existing directory, e.g. --report ./gwctl-support.json.', EXIT.usage);
  if (existsSync(file) && statSync(file).isDirectory()) throw new CliError(`--report ${file} is a directory.`, 'Name a file, e.g. --report ./gwctl-support.json.', EXIT.usage);
}
