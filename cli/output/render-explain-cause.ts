// Text rendering of one cause of the catalogue (gwctl explain <cause code>): what happened, why,
// what the person using the key does and what the service operator does, each with its commands.
import type { CauseEntry } from '../../core/causes/catalogue.ts';

export function renderExplainCause(entry: CauseEntry): string {
  const out = [`${entry.code}: ${entry.summary}`, '', `  why        ${entry.why}`, `  you        ${entry.userRemedy}`];
  for (const command of entry.commands) out.push(`    $ ${command}`);
  out.push(`  operator   ${entry.operatorRemedy}`);
  for (const command of entry.operatorCommands) out.push(`    $ ${command}`);
  out.push('', 'To find which cause applies on this machine: gwctl diagnose');
  return out.join('\n') + '\n';
}
