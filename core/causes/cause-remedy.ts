// A cause's remedy for the person using the key, with {base_url} and friends filled in: what the
// checks report when nothing more specific than the cause itself is known.
import { fillTemplate, type TemplateVars } from '../doctor/fill-template.ts';
import { causeEntry, type CauseCode } from './catalogue.ts';

export interface FilledRemedy {
  remedy: string;
  commands: string[];
}

export function causeRemedy(code: CauseCode, vars: TemplateVars): FilledRemedy {
  const entry = causeEntry(code);
  return { remedy: fillTemplate(entry.userRemedy, vars), commands: entry.commands.map((c) => fillTemplate(c, vars)) };
}
