// The shared handler of every changing proxy command: print the plan (with the regression reminder),
// run it with output streamed (stderr under --json), print the outcome, set the exit code.
import type { ProxyAction, ProxyActionOptions } from '../../../core/proxy/proxy-action-types.ts';
import type { CliContext } from '../../cli-context.ts';
import { toJson } from '../../output/format-table.ts';
import { renderProxyAction } from '../../output/render-proxy-action.ts';
import { settingsOptions } from '../config/settings-options.ts';
import { proxyOperations, type ProxyCliDeps } from './proxy-cli-deps.ts';

export interface ActionArgs {
  dryRun: boolean;
  json: boolean;
  wait: number;
}

export async function runProxyAction(ctx: CliContext, deps: ProxyCliDeps, args: ActionArgs & Record<string, unknown>, action: ProxyAction, options: ProxyActionOptions): Promise<void> {
  const ops = proxyOperations(ctx, args, deps, { healthWaitMs: args.wait });
  const progress = (text: string) => (args.json ? ctx.stderr(text) : ctx.stdout(text));
  const plan = await settingsOptions.guard(() => ops.plan(action, { ...options, dryRun: args.dryRun }));
  if (!plan.refused) progress(renderProxyAction.plan(plan, ctx.env, args.dryRun));
  const result = await settingsOptions.guard(() => ops.run(action, { ...options, dryRun: args.dryRun, onOutput: (line) => progress(`  ${line}\n`) }));
  if (args.json) ctx.stdout(toJson({ schemaVersion: 1, ...result }));
  else if (result.plan.refused) ctx.stderr(renderProxyAction.result(result, ctx.env));
  else ctx.stdout(renderProxyAction.result(result, ctx.env));
  ctx.finish(result.exitCode);
}

export const actionOptions = {
  'dry-run': { type: 'boolean', default: false, describe: 'Print the commands and changes; run and change nothing' },
  json: { type: 'boolean', default: false, describe: 'Print one JSON document with the plan and the result (progress on stderr)' },
  wait: { type: 'number', default: 15_000, describe: 'Milliseconds to wait for /health to answer 200 after a (re)start' },
} as const;
