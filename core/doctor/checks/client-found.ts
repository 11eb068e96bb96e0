// The profile's client command is installed: a start can show its plan without it (CLIENT_NOT_FOUND),
// but cannot launch it, so the diagnosis says so (a warning) instead of reporting everything fine.
import { causeEntry } from '../../causes/catalogue.ts';
import { outcome } from '../check-result.ts';
import type { Check } from '../check.ts';
import type { DiagnoseContext } from '../diagnose-context.ts';

export const clientFound: Check<DiagnoseContext> = {
  id: 'client.found',
  async run(ctx) {
    const plane = ctx.plane();
    if (plane.clientPath) return outcome.pass(`${ctx.profile.command} is ${plane.clientPath} (profile ${ctx.profile.name})`);
    return outcome.warn(
      'CLIENT_NOT_FOUND',
      `the client command "${ctx.profile.command}" of the ${ctx.profile.name} profile is not found on PATH`,
      causeEntry('CLIENT_NOT_FOUND').userRemedy,
      [`type -a ${ctx.profile.command}`, `gwctl config set client.command /path/to/${ctx.profile.command}`, `gwctl start --profile ${ctx.profile.name} --dry-run`],
    );
  },
};
