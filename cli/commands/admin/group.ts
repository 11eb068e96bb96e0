// gwctl admin group set <name> --models a,b | list | delete <name>: the models the members of an
// identity-provider group may use (single sign-on). A person in several groups may use the models
// of all of them; a person in no listed group is not restricted by groups. Running gateways apply a
// change from the next request on, on every instance.
import type { Argv, CommandModule } from 'yargs';
import { CliError, EXIT, type CliContext } from '../../cli-context.ts';
import { formatTable, toJson } from '../../output/format-table.ts';
import { formatTime } from '../../../core/format-time.ts';
import { cliActor } from './cli-actor.ts';
import { announceRevocation, withStore, withStoreOptions, type StoreArgs } from './store-options.ts';

interface SetArgs extends StoreArgs {
  name: string;
  models: string;
  json: boolean;
}

interface NameArgs extends StoreArgs {
  name: string;
  json: boolean;
}

function groupSetCommand(ctx: CliContext): CommandModule<object, SetArgs> {
  return {
    command: 'set <name>',
    describe: "Set the models an identity-provider group's members may use",
    builder: (y) =>
      withStoreOptions(y)
        .positional('name', { type: 'string', demandOption: true, describe: 'The group as the identity provider names it (case-sensitive)' })
        .option('models', { type: 'string', demandOption: true, describe: 'Comma-separated public model names' })
        .option('json', { type: 'boolean', default: false, describe: 'Print one JSON document' }) as never,
    handler: async (args) => {
      const models = args.models.split(',').map((m) => m.trim()).filter(Boolean);
      const result = await withStore(args, ctx.env, async (store) => {
        const { setGroupModels } = await import('../../../server/accounts/group-changes.ts');
        try {
          return await setGroupModels(store, args.name, models, cliActor());
        } catch (error) {
          if (error instanceof RangeError) throw new CliError(error.message, undefined, EXIT.usage);
          throw error;
        }
      });
      for (const id of result.members) await announceRevocation(args, ctx.env, { kind: 'user', id });
      if (args.json) ctx.stdout(toJson({ ...result.policy, members: result.members.length }));
      else ctx.stdout(`Group ${args.name}: models ${models.join(', ')} (${result.members.length} signed-in member(s) so far).\n`);
      ctx.finish(EXIT.ok);
    },
  };
}

function groupListCommand(ctx: CliContext): CommandModule<object, StoreArgs & { json: boolean }> {
  return {
    command: 'list',
    describe: 'List the groups with a model allowlist',
    builder: (y) => withStoreOptions(y).option('json', { type: 'boolean', default: false, describe: 'Print one JSON document' }) as never,
    handler: async (args) => {
      const groups = await withStore(args, ctx.env, (store) => store.groupPolicies.list());
      if (args.json) ctx.stdout(toJson({ groups }));
      else if (groups.length === 0) ctx.stdout('No group has a model allowlist: groups restrict nobody.\n');
      else ctx.stdout(formatTable(['GROUP', 'MODELS', 'UPDATED'], groups.map((g) => [g.name, g.models.join(', '), formatTime(g.updatedAt)])));
      ctx.finish(EXIT.ok);
    },
  };
}

function groupDeleteCommand(ctx: CliContext): CommandModule<object, NameArgs> {
  return {
    command: 'delete <name>',
    describe: "Remove a group's model allowlist (its members are no longer restricted by it)",
    builder: (y) =>
      withStoreOptions(y)
        .positional('name', { type: 'string', demandOption: true, describe: 'The group' })
        .option('json', { type: 'boolean', default: false, describe: 'Print one JSON document' }) as never,
    handler: async (args) => {
      const result = await withStore(args, ctx.env, async (store) => {
        const { deleteGroupModels } = await import('../../../server/accounts/group-changes.ts');
        return deleteGroupModels(store, args.name, cliActor());
      });
      if (!result.deleted) throw new CliError(`Group "${args.name}" has no model allowlist.`, 'List them with `gwctl admin group list`.');
      for (const id of result.members) await announceRevocation(args, ctx.env, { kind: 'user', id });
      if (args.json) ctx.stdout(toJson({ deleted: true, name: args.name }));
      else ctx.stdout(`Removed the model allowlist of group ${args.name}.\n`);
      ctx.finish(EXIT.ok);
    },
  };
}

export function groupCommand(ctx: CliContext): CommandModule {
  return {
    command: 'group',
    describe: 'Model allowlists of identity-provider groups (single sign-on)',
    builder: (g: Argv) =>
      g
        .command(groupSetCommand(ctx) as never)
        .command(groupListCommand(ctx) as never)
        .command(groupDeleteCommand(ctx) as never)
        .demandCommand(1, 'Name a group subcommand.'),
    handler: () => undefined,
  };
}
