// Client and proxy run in the same execution plane: under WSL a Windows client reads neither the
// WSL variables nor reaches the WSL proxy.
import { causeEntry } from '../../causes/catalogue.ts';
import { outcome } from '../check-result.ts';
import type { Check } from '../check.ts';
import type { DiagnoseContext } from '../diagnose-context.ts';

export const planeSame: Check<DiagnoseContext> = {
  id: 'plane.same',
  clients: ['messages'],
  explains: [401, 403, 502, 503, 504],
  async run(ctx) {
    const plane = ctx.plane();
    if (!plane.clientPath) return outcome.skip(`${plane.wsl ? 'WSL' : 'not WSL'}; the client \`${ctx.profile.command}\` is not on PATH, so there is nothing to compare`);
    if (!plane.mismatch) return outcome.pass(plane.observed);
    return outcome.fail(
      'EXECUTION_PLANE_MISMATCH',
      plane.observed,
      causeEntry('EXECUTION_PLANE_MISMATCH').userRemedy,
      [`type -a ${ctx.profile.command}`, `gwctl config set client.command /path/to/wsl-native/${ctx.profile.command.replace(/\.(exe|cmd|bat|ps1)$/i, '')}`, 'gwctl start   # goes direct while the client is a Windows program'],
    );
  },
};
