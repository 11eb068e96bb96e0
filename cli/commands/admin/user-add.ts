// gwctl admin user add <name> [--admin] [--password-stdin]
import { passwordProblem } from '../../../server/auth/password-policy.ts';
import type { CommandModule } from 'yargs';
import { ROLES, type Role } from '../../../server/accounts/roles.ts';
import { randomBase62 } from '../../../server/auth/random-tokens.ts';
import { UserExistsError } from '../../../server/store/users-repo.ts';
import { CliError, EXIT, type CliContext } from '../../cli-context.ts';
import { cliActor } from './cli-actor.ts';
import { toJson } from '../../output/format-table.ts';
import { printSecret } from '../../output/print-secret.ts';
import { withStore, withStoreOptions, type StoreArgs } from './store-options.ts';

interface Args extends StoreArgs {
  name: string;
  admin: boolean;
  role?: Role;
  passwordStdin: boolean;
  json: boolean;
}

export function userAddCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'add <name>',
    describe: 'Create a user (prints a generated password once unless --password-stdin)',
    builder: (y) =>
      withStoreOptions(y)
        .positional('name', { type: 'string', demandOption: true, describe: 'User name (letters, digits, . _ @ -)' })
        .option('admin', { type: 'boolean', default: false, describe: 'Make the user an operator (same as --role operator)' })
        .option('role', { choices: ROLES, describe: 'operator (changes anything), viewer (reads the operator pages and API, changes nothing) or member (default)' })
        .option('password-stdin', { type: 'boolean', default: false, describe: 'Read the password from standard input' })
        .option('json', { type: 'boolean', default: false, describe: 'Print one JSON document' }) as never,
    handler: async (args) => {
      let password = randomBase62(20);
      if (args.passwordStdin) {
        password = (await ctx.readStdin()).replace(/\r?\n$/, '');
        const problem = passwordProblem(password, args.name);
        if (problem) throw new CliError(`The password from standard input is refused: ${problem}`, 'Pipe a longer, uncommon password, or leave out --password-stdin to get a generated one.', EXIT.usage);
      }
      const user = await withStore(args, ctx.env, async (store) => {
        try {
          const created = await store.users.create(args.name, password, { role: args.role ?? (args.admin ? 'operator' : 'member') });
          await store.audit.record({ ...cliActor(), action: 'user.create', target: `user:${created.username}`, details: { admin: created.isAdmin, role: created.role } });
          return created;
        } catch (error) {
          if (error instanceof UserExistsError) throw new CliError(error.message, 'Pick another name, or list users with `gwctl admin user list`.', EXIT.failed);
          if (error instanceof RangeError) throw new CliError(error.message, undefined, EXIT.usage);
          throw error;
        }
      });
      const generated = args.passwordStdin ? undefined : password;
      if (args.json) {
        ctx.stdout(toJson({ id: user.id, username: user.username, isAdmin: user.isAdmin, role: user.role, createdAt: user.createdAt, ...(generated ? { password: generated } : {}) }));
      } else {
        const summary = `Created user "${user.username}"${user.role === 'member' ? '' : ` (${user.role})`} with id ${user.id}.`;
        if (generated) printSecret(ctx, `${summary} Password (shown once, store it now):`, generated, `Change it with \`gwctl admin user passwd ${user.username}\` or on the site's Account page.`);
        else ctx.stdout(`${summary}\n`);
      }
      ctx.finish(EXIT.ok);
    },
  };
}
