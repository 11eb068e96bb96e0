// gwctl explain <status|cause> [--json]: the error-table rows for a status with remedies and commands,
// or one cause of the catalogue by its code (QUOTA_EXCEEDED) or the gateway's error code (quota_exceeded).
// Offline: it reads only gwctl's settings (to fill in {base_url} and variable names), never the network.
import type { CommandModule } from 'yargs';
import { causeEntry } from '../../core/causes/catalogue.ts';
import { causeByName, knownCauseNames } from '../../core/causes/cause-by-name.ts';
import { fillTemplate } from '../../core/doctor/fill-template.ts';
import { statusRows } from '../../core/doctor/status-row.ts';
import { HTTP_STATUS_ROWS } from '../../core/http-status.ts';
import { CliError, EXIT, type CliContext } from '../cli-context.ts';
import { toJson } from '../output/format-table.ts';
import { renderExplain } from '../output/render-explain.ts';
import { renderExplainCause } from '../output/render-explain-cause.ts';
import { settingsOptions } from './config/settings-options.ts';

interface Args {
  /** As typed: yargs would turn a word into NaN before it could be named in the error. */
  status: string;
  json: boolean;
}

const KNOWN = [...new Set(HTTP_STATUS_ROWS.flatMap((r) => r.statuses))].sort((a, b) => a - b);

export function explainCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'explain <status>',
    describe: 'Explain an HTTP status a client showed, or a cause code: where it is seen, why, what to do, commands',
    builder: (y) =>
      settingsOptions
        .add(y, ['baseUrl', 'proxyUrl', 'client.profile', 'client.tokenVar', 'client.baseUrlVar'])
        .positional('status', { type: 'string', describe: `HTTP status seen by a client (${KNOWN.join(', ')}), or a cause code such as QUOTA_EXCEEDED (or the gateway's quota_exceeded)` })
        .option('json', { type: 'boolean', default: false, describe: 'Print {"schemaVersion":1,"status","rows":[…]}, or for a cause {"schemaVersion":1,"cause":{…}}' })
        .check((raw) => {
          const typed = String((raw as unknown as Args).status);
          if (causeByName(typed)) return true;
          const status = /^\d{3}$/.test(typed) ? Number(typed) : NaN;
          return status >= 100 && status <= 599 ? true : `<status> must be an HTTP status from 100 to 599 (e.g. 401) or a cause code (e.g. QUOTA_EXCEEDED), got "${typed}". Cause codes: ${knownCauseNames()}.`;
        }) as never,
    handler: (args) => {
      const settings = settingsOptions.load(args as unknown as Record<string, unknown>, ctx);
      const base = settings.baseUrl.value as string | null;
      const vars = {
        base_url: base ? base.replace(/(\/v1)+$/, '') : undefined,
        proxy_url: settings.proxyUrl.value as string,
        token_var: settings['client.tokenVar'].value as string,
        base_var: settings['client.baseUrlVar'].value as string,
      };
      const cause = causeByName(String(args.status));
      if (cause) {
        const entry = causeEntry(cause);
        const filled = {
          ...entry,
          ...Object.fromEntries((['summary', 'why', 'userRemedy', 'operatorRemedy'] as const).map((f) => [f, fillTemplate(entry[f], vars)])),
          commands: entry.commands.map((c) => fillTemplate(c, vars)),
          operatorCommands: entry.operatorCommands.map((c) => fillTemplate(c, vars)),
        } as typeof entry;
        ctx.stdout(args.json ? toJson({ schemaVersion: 1, cause: filled }) : renderExplainCause(filled));
        ctx.finish(EXIT.ok);
        return;
      }
      const status = Number(args.status);
      const rows = statusRows.forStatus(status, vars);
      if (rows.length === 0 && args.json) {
        ctx.stdout(toJson({ schemaVersion: 1, status, rows: [] }));
        ctx.stderr(`gwctl: ${status} is not in the error table (it covers ${KNOWN.join(', ')}).\n`);
        ctx.finish(EXIT.failed);
        return;
      }
      if (rows.length === 0) {
        throw new CliError(`${status} is not in the error table (it covers ${KNOWN.join(', ')}).`, '`gwctl diagnose` checks this machine whatever the status; `gwctl verify` checks the key and address.', EXIT.failed);
      }
      if (args.json) {
        ctx.stdout(toJson({ schemaVersion: 1, status, rows: rows.map(({ id, statuses, where, condition, remedy, causes, commands }) => ({ id, statuses, where, condition, remedy, causes, commands })) }));
      } else {
        ctx.stdout(renderExplain(status, rows));
      }
      ctx.finish(EXIT.ok);
    },
  };
}
