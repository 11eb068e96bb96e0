// gwctl admin support FILE [--json] — reads a user's support bundle (`gwctl diagnose --report FILE`),
// looks its request ids up in the request log, and gives one verdict from both sides.
import { readFileSync } from 'node:fs';
import type { CommandModule } from 'yargs';
import { CliError, EXIT, type CliContext } from '../../cli-context.ts';
import { toJson } from '../../output/format-table.ts';
import { renderSupportVerdict } from '../../output/render-support.ts';
import { BundleError, readSupportBundle } from '../../../server/support/support-bundle.ts';
import { supportVerdict } from '../../../server/support/support-verdict.ts';
import { withStore, withStoreOptions, type StoreArgs } from './store-options.ts';

interface Args extends StoreArgs {
  file: string;
  json: boolean;
}

function readBundleFile(file: string) {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`, 'Give the path of the file `gwctl diagnose --report FILE` wrote.', EXIT.usage);
  }
  try {
    return readSupportBundle(JSON.parse(text));
  } catch (error) {
    if (error instanceof SyntaxError) throw new CliError(`${file} is not JSON (${error.message}).`, 'Ask the user for the file `gwctl diagnose --report FILE` wrote, unchanged.', EXIT.usage);
    if (error instanceof BundleError) throw new CliError(error.message, undefined, EXIT.usage);
    throw error;
  }
}

export function supportCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'support <file>',
    describe: "Read a user's support bundle (gwctl diagnose --report FILE): one verdict from their checks and the request log",
    builder: (y) =>
      withStoreOptions(y)
        .positional('file', { type: 'string', demandOption: true, describe: 'The bundle file the user sent' })
        .option('json', { type: 'boolean', default: false, describe: 'Print one JSON document' }) as never,
    handler: async (args) => {
      const bundle = readBundleFile(String(args.file));
      const result = await withStore(args, ctx.env, (store) => supportVerdict(store, bundle, { publicUrl: ctx.env.GWCTL_PUBLIC_URL }));
      ctx.stdout(args.json ? toJson(result) : renderSupportVerdict(result));
      ctx.finish(EXIT.ok);
    },
  };
}
