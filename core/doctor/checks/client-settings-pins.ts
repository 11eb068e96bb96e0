// No base address (or credential) fixed in client settings files, whose env block wins over
// the shell, or in shell startup files. `gwctl start` backs such files up and removes the entries.
import { tildePath } from '../../paths.ts';
import { causeEntry } from '../../causes/catalogue.ts';
import { outcome } from '../check-result.ts';
import type { Check } from '../check.ts';
import type { DiagnoseContext } from '../diagnose-context.ts';

export const clientSettingsPins: Check<DiagnoseContext> = {
  id: 'client.settings-pins',
  clients: ['messages'],
  explains: [400, 401, 403, 404, 502, 503, 504],
  async run(ctx) {
    const scan = ctx.pins();
    const place = (file: string, line?: number) => `${tildePath(file, ctx.env)}${line ? `:${line}` : ''}`;
    const problems = scan.problems.map((p) => `${place(p.file)}: ${p.reason}`);
    if (scan.entries.length === 0) {
      const observed = `no ${ctx.profile.baseUrlVar}, ${ctx.profile.tokenVar} or ${ctx.profile.apiKeyVar} pinned in ${ctx.profile.settingsFiles.length} settings file location(s) or the shell startup files`;
      if (problems.length === 0) return outcome.pass(observed);
      return outcome.warn('BASE_URL_PINNED_IN_SETTINGS', `${observed}; could not inspect ${problems.join('; ')}`, 'Fix the file by hand so the client can read it; gwctl never rewrites a file it cannot parse.', []);
    }
    const listed = scan.entries.map((e) => `${place(e.file, e.line)} ${e.fileKind === 'settings' ? 'env.' : ''}${e.variable}=${e.shown}${e.removable ? '' : ` (${e.note})`}`);
    const inSettings = scan.entries.some((e) => e.fileKind === 'settings');
    const observed = `${listed.join('; ')}${problems.length ? `; could not inspect ${problems.join('; ')}` : ''}`;
    const remedy = `Do not fix the base address or credential permanently: a pinned proxy address strands the client when the proxy is down${inSettings ? '; a settings-file env block wins over the shell, so these values override whatever gwctl start sets' : ''}. ${causeEntry('BASE_URL_PINNED_IN_SETTINGS').userRemedy}`;
    const commands = ['gwctl start --dry-run   # lists what would change', 'gwctl start', 'gwctl start --restore   # undo'];
    return inSettings ? outcome.fail('BASE_URL_PINNED_IN_SETTINGS', observed, remedy, commands) : outcome.warn('BASE_URL_PINNED_IN_SETTINGS', observed, remedy, commands);
  },
};
