// gwctl start [--dry-run] [--json] [--restore] [--profile P] [--client CMD] [--model M] [-- client args]
// Safe start: proxy route only when healthy, else direct; the key from this shell handed to the
// client in the one variable it reads, or a refusal; a model the gateway serves; pinned settings
// backed up and removed; the client launched with its exit code. A client that fails is followed at
// once by a diagnosis of the route it used.
import type { CommandModule } from 'yargs';
import { BackupManifest } from '../../core/client-settings/backup-manifest.ts';
import { cleanPinned } from '../../core/client-settings/clean-pinned.ts';
import { restoreBackups } from '../../core/client-settings/restore-backups.ts';
import type { HttpGet } from '../../core/client/http-get.ts';
import { undiciGet } from '../../core/client/undici-http-get.ts';
import { systemProxyEnvironment } from '../../core/proxy/running-proxy-environment.ts';
import { runDiagnosis, type DiagnosisReport } from '../../core/doctor/run-diagnosis.ts';
import { launchIsolated } from '../../core/launch/launch-isolated.ts';
import { launchClient, type LaunchRequest } from '../../core/launch/launch-client.ts';
import { planStart, type StartPlan } from '../../core/launch/plan-start.ts';
import type { ResolvedSettings } from '../../core/config/resolve-settings.ts';
import { undiciPost, type HttpPost } from '../../core/proxy/http-post.ts';
import { EXIT, type CliContext } from '../cli-context.ts';
import { toJson } from '../output/format-table.ts';
import { renderChecks } from '../output/render-checks.ts';
import { renderStart } from '../output/render-start.ts';
import { CLIENT_SETTING_KEYS } from './config/client-setting-keys.ts';
import { settingsOptions } from './config/settings-options.ts';
import { withSignInCredential } from './sign-in/start-credential.ts';

interface Args {
  dryRun: boolean;
  json: boolean;
  restore: boolean;
  diagnose: boolean;
  '--'?: Array<string | number>;
}

export interface StartDeps {
  http?: HttpGet;
  post?: HttpPost;
  now?: () => Date;
  launch?: typeof launchClient;
}

/** Exit codes of a client stopped by the user through gwctl (SIGHUP, SIGINT, SIGTERM): nothing to diagnose. */
const STOPPED = new Set([129, 130, 143]);

export function startCommand(ctx: CliContext, deps: StartDeps = {}): CommandModule<object, Args> {
  const http = deps.http ?? undiciGet;
  const post = deps.post ?? undiciPost;
  const now = deps.now ?? (() => new Date());
  const launch = deps.launch ?? launchClient;

  /** The diagnosis of what the client saw: the same engine as `gwctl diagnose`, in the client's environment. */
  async function diagnoseAfter(plan: StartPlan, request: LaunchRequest, settings: ResolvedSettings, exitCode: number, json: boolean): Promise<DiagnosisReport | null> {
    ctx.stderr(renderStart.diagnosing(plan, exitCode));
    try {
      const report = await runDiagnosis(
        { env: request.env, cwd: request.cwd, settings, http, post, proxyEnvironment: systemProxyEnvironment() },
        { clientExitCode: exitCode, onResult: (r) => ctx.stderr(json ? renderChecks.progress(r) : renderChecks.one(r)) },
      );
      if (!json) ctx.stderr(renderChecks.summary(report.checks) + renderChecks.verdict(report.verdict));
      return report;
    } catch (error) {
      ctx.stderr(`gwctl: the diagnosis could not run: ${(error as Error).message}\n`);
      return null;
    }
  }

  return {
    command: 'start',
    describe: 'Start a coding client (--profile claude|codex|gemini|opencode|qwen|custom) against the gateway: its own temporary configuration, vendor keys stripped, the proxy for messages clients when healthy; cleans pinned settings; diagnoses a failure',
    builder: (y) =>
      settingsOptions
        .add(y.parserConfiguration({ 'populate--': true }), ['baseUrl', 'proxyUrl', ...CLIENT_SETTING_KEYS])
        .option('dry-run', { type: 'boolean', default: false, describe: 'Decide and report, change nothing, launch nothing' })
        .option('restore', { type: 'boolean', default: false, describe: 'Put back the files the last start backed up and cleaned, then exit' })
        .option('diagnose', { type: 'boolean', default: true, describe: 'When the client exits with an error, diagnose the route it used at once (--no-diagnose: do not)' })
        .option('json', { type: 'boolean', default: false, describe: 'Print one JSON document (after the client exits; progress on stderr)' })
        .usage('$0 start [options] [-- client arguments]')
        .example('$0 start -- -p "say hi"', 'start the client with its own arguments')
        .example('$0 start --profile codex -- exec "say hi"', 'the Codex CLI, one prompt')
        .example('$0 start --profile gemini -- -p "say hi"', 'the Gemini CLI, one prompt')
        .example('$0 start --dry-run', 'show the route, variables, model and settings changes only') as never,
    handler: async (args) => {
      const manifest = new BackupManifest(ctx.env);
      if (args.restore) {
        const report = restoreBackups({ manifest, dryRun: args.dryRun, now: now() });
        ctx.stdout(args.json ? toJson({ schemaVersion: 1, ...report }) : renderStart.restore(report, ctx.env));
        ctx.finish(report.files.some((f) => f.missingBackup) ? EXIT.failed : EXIT.ok);
        return;
      }
      const settings = settingsOptions.load(args as unknown as Record<string, unknown>, ctx);
      const clientArgs = (args['--'] ?? []).map(String);
      const env = await withSignInCredential(settings, ctx.env, process.cwd(), ctx.stderr);
      const { plan, launch: request } = await settingsOptions.guard(() => planStart({ settings, env, cwd: process.cwd(), clientArgs, dryRun: args.dryRun, http }));
      // The report goes to stdout only for a dry run; before a launch it goes to stderr so the client's
      // own stdout stays clean, and a refusal is an error message.
      const report = (text: string) => (args.dryRun && !plan.refused ? ctx.stdout(text) : ctx.stderr(text));
      if (plan.refused || args.dryRun) {
        const changes = plan.refused ? null : cleanPinned({ entries: plan.pinned.entries, dryRun: true, now: now(), manifest });
        if (args.json) ctx.stdout(toJson({ ...plan, changes, exitCode: null, diagnosis: null }));
        else report(renderStart.plan(plan, changes, ctx.env));
        ctx.finish(plan.refused ? EXIT.failed : EXIT.ok);
        return;
      }
      const changes = cleanPinned({ entries: plan.pinned.entries, dryRun: false, now: now(), manifest });
      if (args.json) ctx.stderr(renderStart.oneLine(plan));
      else report(renderStart.plan(plan, changes, ctx.env));
      // The launch's own configuration exists only while the client runs.
      const exitCode = await launchIsolated(request, launch);
      const diagnosis = exitCode !== 0 && !STOPPED.has(exitCode) && args.diagnose ? await diagnoseAfter(plan, request, settings, exitCode, args.json) : null;
      if (args.json) ctx.stdout(toJson({ ...plan, changes, exitCode, diagnosis }));
      ctx.finish(exitCode);
    },
  };
}
