// gwctl diagnose [--status N] [--json]: the spec 4.4 checks in order, each with a cause code, what
// was observed and a remedy with commands. Exit 0 when nothing failed, 1 otherwise.
import type { CommandModule } from 'yargs';
import type { HttpGet } from '../../core/client/http-get.ts';
import { undiciGet } from '../../core/client/undici-http-get.ts';
import { DIAGNOSE_STATUSES } from '../../core/doctor/diagnose-checks.ts';
import { runDiagnosis } from '../../core/doctor/run-diagnosis.ts';
import { EXIT, type CliContext } from '../cli-context.ts';
import { toJson } from '../output/format-table.ts';
import { renderChecks } from '../output/render-checks.ts';
import { settingsOptions } from './config/settings-options.ts';

interface Args {
  status?: number;
  json: boolean;
  timeout: number;
}

export function diagnoseCommand(ctx: CliContext, http: HttpGet = undiciGet): CommandModule<object, Args> {
  return {
    command: 'diagnose',
    describe: 'Find why a client fails: execution plane, proxy, base address, pinned settings, credential, proxy upstream, direct request',
    builder: (y) =>
      settingsOptions
        .add(y, ['baseUrl', 'proxyUrl', 'client.command', 'client.auth', 'client.baseUrlVar', 'client.tokenVar', 'client.apiKeyVar', 'client.settingsFiles'])
        .option('status', { type: 'number', describe: `Start from the status the client showed: ${DIAGNOSE_STATUSES.join(', ')}` })
        .option('timeout', { type: 'number', default: 10_000, describe: 'Milliseconds for the direct request' })
        .option('json', { type: 'boolean', default: false, describe: 'Print {"schemaVersion":1,"ok":bool,"checks":[{"id","status","cause","observed","remedy","commands"}]}' })
        .check((raw) => {
          const a = raw as unknown as Args;
          if (a.status !== undefined && !DIAGNOSE_STATUSES.includes(a.status)) return `--status must be one of ${DIAGNOSE_STATUSES.join(', ')}, got ${a.status}. For other statuses see \`gwctl explain <status>\`.`;
          if (!Number.isInteger(a.timeout) || a.timeout < 1) return `--timeout must be a positive whole number of milliseconds, got ${a.timeout}.`;
          return true;
        }) as never,
    handler: async (args) => {
      const settings = settingsOptions.load(args as unknown as Record<string, unknown>, ctx);
      if (!args.json) ctx.stdout(`gwctl diagnose${args.status ? ` --status ${args.status}` : ''}\n`);
      const report = await settingsOptions.guard(() =>
        runDiagnosis(
          { env: ctx.env, cwd: process.cwd(), settings, http, status: args.status, requestTimeoutMs: args.timeout },
          { onResult: (r) => (args.json ? ctx.stderr(renderChecks.progress(r)) : ctx.stdout(renderChecks.one(r))) },
        ),
      );
      ctx.stdout(args.json ? toJson(report) : renderChecks.summary(report.checks));
      ctx.finish(report.ok ? EXIT.ok : EXIT.failed);
    },
  };
}
