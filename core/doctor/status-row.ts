// Looks up error-table rows (core/http-status.ts) by id or status, with placeholders filled.
import { HTTP_STATUS_ROWS, type HttpStatusRow } from '../http-status.ts';
import { fillTemplate, type TemplateVars } from './fill-template.ts';

export interface FilledRow extends HttpStatusRow {
  commands: string[];
}

function fill(row: HttpStatusRow, vars: TemplateVars): FilledRow {
  return {
    ...row,
    condition: fillTemplate(row.condition, vars),
    remedy: fillTemplate(row.remedy, vars),
    commands: row.commands.map((c) => fillTemplate(c, vars)),
  };
}

export const statusRows = {
  forStatus(status: number, vars: TemplateVars): FilledRow[] {
    return HTTP_STATUS_ROWS.filter((r) => r.statuses.includes(status)).map((r) => fill(r, vars));
  },
  byId(id: string, vars: TemplateVars): FilledRow {
    const row = HTTP_STATUS_ROWS.find((r) => r.id === id);
    if (!row) throw new Error(`no error-table row with id ${id}`);
    return fill(row, vars);
  },
};
