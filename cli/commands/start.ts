// gwctl start [--dry-run] [--json] [--restore] [--client CMD] [-- client args]
// Safe start (spec 4.4 rules 1-3, 9): proxy route only when healthy, else direct; credential from
// this shell or refuse; pinned settings backed up and removed; the client launched with its exit code.
import type { CommandModule } from 'yargs';
import { BackupManifest } from '../../core/client-settings/backup-manifest.ts';
import { cleanPinned } from '../../core/client-settings/clean-pinned.ts';
import { restoreBackups } from '../../core/client-settings/restore-backups.ts';
import type { HttpGet } from '../../core/client/http-get.ts';
import { undiciGet } from '../../core/client/undici-http-get.ts';
import { launchClient } from '../../core/launch/launch-client.ts';
import { planStart } from '../../core/launch/plan-start.ts';
import { EXIT, type CliContext } from '../cli-context.ts';
import { toJson } from '../output/format-table.ts';
import { renderStart } from '../output/render-start.ts';
import { settingsOptions } from './config/settings-options.ts';

interface Args {
  dryRun: boolean;
  json: boolean;
  restore: boolean;
  '--'?: Array<string | number>;
}

export interface StartDeps {
  http?: HttpGet;
  now?: () => Date;
  launch?: typeof launchClient;
}

export function startCommand(ctx: CliContext, deps: StartDeps = {}): CommandModule<object, Args> {
  const http = deps.http ?? undiciGet;
  const now = deps.now ?? (() => new Date());
  const launch = deps.launch ?? launchClient;
  return {
    command: 'start',
    describe: 'Start the messages client safely: via the proxy when healthy, else direct; cleans pinned settings',
    builder: (y) =>
      settingsOptions
        .add(y.parserConfiguration({ 'populate--': true }), ['baseUrl', 'proxyUrl', 'client.command', 'client.auth', 'client.baseUrlVar', 'client.tokenVar', 'client.apiKeyVar', 'client.settingsFiles'])
        .option('dry-run', { type: 'boolean', default: false, describe: 'Decide and report, change nothing, launch nothing' })
        .option('restore', { type: 'boolean', default: false, describe: 'Put back the files the last start backed up and cleaned, then exit' })
        .option('json', { type: 'boolean', default: false, describe: 'Print one JSON document (after the client exits; progress on stderr)' })
        .usage('$0 start [options] [-- client arguments]')
        .example('$0 start -- -p "say hi"', 'start the client with its own arguments')
        .example('$0 start --dry-run', 'show the route, variables and settings changes only') as never,
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
      const { plan, launch: request } = await settingsOptions.guard(() => planStart({ settings, env: ctx.env, cwd: process.cwd(), clientArgs, dryRun: args.dryRun, http }));
      // The report goes to stdout only for a dry run; before a launch it goes to stderr so the client's
      // own stdout stays clean, and a refusal is an error message.
      const report = (text: string) => (args.dryRun && !plan.refused ? ctx.stdout(text) : ctx.stderr(text));
      if (plan.refused || args.dryRun) {
        const changes = plan.refused ? null : cleanPinned({ entries: plan.pinned.entries, dryRun: true, now: now(), manifest });
        if (args.json) ctx.stdout(toJson({ ...plan, changes, exitCode: null }));
        else report(renderStart.plan(plan, changes, ctx.env));
        ctx.finish(plan.refused ? EXIT.failed : EXIT.ok);
        return;
      }
      const changes = cleanPinned({ entries: plan.pinned.entries, dryRun: false, now: now(), manifest });
      if (args.json) ctx.stderr(`gwctl: ${plan.route.kind} route → ${plan.route.baseUrl ?? "the client's default upstream"}; starting ${plan.client.command}\n`);
      else report(renderStart.plan(plan, changes, ctx.env));
      const exitCode = await launch(request);
      if (args.json) ctx.stdout(toJson({ ...plan, changes, exitCode }));
      ctx.finish(exitCode);
    },
  };
}
