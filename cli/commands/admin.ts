// gwctl admin …: operator commands on the gateway's database (same data as a running gateway).
import type { CommandModule } from 'yargs';
import type { CliContext } from '../cli-context.ts';
import { auditCommand } from './admin/audit.ts';
import { keyCreateCommand } from './admin/key-create.ts';
import { keyDeleteCommand } from './admin/key-delete.ts';
import { keyFindCommand } from './admin/key-find.ts';
import { keyListCommand } from './admin/key-list.ts';
import { keyUpdateCommand } from './admin/key-update.ts';
import { requestCommand } from './admin/request.ts';
import { supportCommand } from './admin/support.ts';
import { priceDeleteCommand } from './admin/price-delete.ts';
import { groupCommand } from './admin/group.ts';
import { userSignOutCommand } from './admin/user-sign-out.ts';
import { priceListCommand } from './admin/price-list.ts';
import { priceSetCommand } from './admin/price-set.ts';
import { tokenCreateCommand } from './admin/token-create.ts';
import { tokenListCommand } from './admin/token-list.ts';
import { tokenRevokeCommand } from './admin/token-revoke.ts';
import { usageCommand } from './admin/usage.ts';
import { userAddCommand } from './admin/user-add.ts';
import { userDeleteCommand } from './admin/user-delete.ts';
import { userListCommand } from './admin/user-list.ts';
import { userPasswdCommand } from './admin/user-passwd.ts';
import { userSetCommand } from './admin/user-set.ts';
import { userShowCommand } from './admin/user-show.ts';
import { userStateCommand } from './admin/user-state.ts';

export function adminCommand(ctx: CliContext): CommandModule {
  return {
    command: 'admin',
    describe: 'Operator commands: users, API keys, operator tokens, prices, usage, audit log, request lookup',
    builder: (y) =>
      y
        .command({
          command: 'user',
          describe: 'Manage users',
          builder: (u) =>
            u
              .command(userAddCommand(ctx) as never)
              .command(userListCommand(ctx) as never)
              .command(userShowCommand(ctx) as never)
              .command(userSetCommand(ctx) as never)
              .command(userStateCommand(ctx, 'disable') as never)
              .command(userStateCommand(ctx, 'enable') as never)
              .command(userPasswdCommand(ctx) as never)
              .command(userDeleteCommand(ctx) as never)
              .command(userSignOutCommand(ctx) as never)
              .demandCommand(1, 'Name a user subcommand.'),
          handler: () => undefined,
        })
        .command({
          command: 'key',
          describe: 'Manage API keys',
          builder: (k) =>
            k
              .command(keyCreateCommand(ctx) as never)
              .command(keyListCommand(ctx) as never)
              .command(keyFindCommand(ctx) as never)
              .command(keyUpdateCommand(ctx) as never)
              .command(keyDeleteCommand(ctx) as never)
              .demandCommand(1, 'Name a key subcommand.'),
          handler: () => undefined,
        })
        .command({
          command: 'token',
          describe: 'Manage operator API tokens (for /admin/api/v1)',
          builder: (t) =>
            t
              .command(tokenCreateCommand(ctx) as never)
              .command(tokenListCommand(ctx) as never)
              .command(tokenRevokeCommand(ctx) as never)
              .demandCommand(1, 'Name a token subcommand.'),
          handler: () => undefined,
        })
        .command({
          command: 'price',
          describe: 'Manage the price table cost is computed from',
          builder: (p) =>
            p
              .command(priceSetCommand(ctx) as never)
              .command(priceListCommand(ctx) as never)
              .command(priceDeleteCommand(ctx) as never)
              .demandCommand(1, 'Name a price subcommand.'),
          handler: () => undefined,
        })
        .command(groupCommand(ctx) as never)
        .command(usageCommand(ctx) as never)
        .command(auditCommand(ctx) as never)
        .command(requestCommand(ctx) as never)
        .command(supportCommand(ctx) as never)
        .demandCommand(1, 'Name an admin subcommand.'),
    handler: () => undefined,
  };
}
