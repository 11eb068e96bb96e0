// gwctl explain <status> [--json]: the error-table rows for a status with remedies and commands.
// Offline: it reads only gwctl's settings (to fill in {base_url} and variable names), never the network.
import type { CommandModule } from 'yargs';
import { statusRows } from '../../core/doctor/status-row.ts';
import { HTTP_STATUS_ROWS } from '../../core/http-status.ts';
import { CliError, EXIT, type CliContext } from '../cli-context.ts';
import { toJson } from '../output/format-table.ts';
import { renderExplain } from '../output/render-explain.ts';
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
    describe: 'Explain an HTTP status a client showed: where it is seen, why, what to do, commands',
    builder: (y) =>
      settingsOptions
        .add(y, ['baseUrl', 'proxyUrl', 'client.profile', 'client.tokenVar', 'client.baseUrlVar'])
        .positional('status', { type: 'string', describe: `HTTP status seen by a client (${KNOWN.join(', ')})` })
        .option('json', { type: 'boolean', default: false, describe: 'Print {"schemaVersion":1,"status","rows":[…]}' })
        .check((raw) => {
          const typed = String((raw as unknown as Args).status);
          const status = /^\d{3}$/.test(typed) ? Number(typed) : NaN;
          return status >= 100 && status <= 599 ? true : `<status> must be an HTTP status from 100 to 599 (e.g. 401), got "${typed}".`;
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
