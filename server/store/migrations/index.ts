// The ordered list of schema migrations; add a file and a line here for each new version.
import type { Migration, MigrationProvider } from 'kysely';
import * as initial from './0001-initial.ts';
import * as conversations from './0002-conversations.ts';
import * as usageSessions from './0003-usage-sessions.ts';
import * as usageOutcomes from './0004-usage-outcomes.ts';
import * as keyLimits from './0005-key-limits.ts';
import * as userLimits from './0006-user-limits.ts';
import * as operatorTokens from './0007-operator-tokens.ts';
import * as auditLog from './0008-audit-log.ts';
import * as requestLog from './0009-request-log.ts';
import * as imageHistory from './0010-image-history.ts';
import * as conversationSettings from './0011-conversation-settings.ts';
import * as requestLogCompact from './0012-request-log-compact.ts';
import * as requestLogRequestedModel from './0013-request-log-requested-model.ts';
import * as requestLogSupport from './0014-request-log-support.ts';
import * as usageJournalMark from './0015-usage-journal-mark.ts';
import * as pricesAndCost from './0016-prices-and-cost.ts';
import * as deviceSignIn from './0017-device-sign-in.ts';
import * as identitiesGroupsRoles from './0018-identities-groups-roles.ts';
import * as servedModels from './0025-served-models.ts';
import * as usageRequestedModels from './0026-usage-requested-models.ts';

const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-conversations': conversations,
  '0003-usage-sessions': usageSessions,
  '0004-usage-outcomes': usageOutcomes,
  '0005-key-limits': keyLimits,
  '0006-user-limits': userLimits,
  '0007-operator-tokens': operatorTokens,
  '0008-audit-log': auditLog,
  '0009-request-log': requestLog,
  '0010-image-history': imageHistory,
  '0011-conversation-settings': conversationSettings,
  '0012-request-log-compact': requestLogCompact,
  '0013-request-log-requested-model': requestLogRequestedModel,
  '0014-request-log-support': requestLogSupport,
  '0015-usage-journal-mark': usageJournalMark,
  '0016-prices-and-cost': pricesAndCost,
  '0017-device-sign-in': deviceSignIn,
  '0018-identities-groups-roles': identitiesGroupsRoles,
  '0025-served-models': servedModels,
  '0026-usage-requested-models': usageRequestedModels,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
