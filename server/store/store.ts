// The repositories over one opened database.
import { openDatabase, type DatabaseOptions, type OpenedDatabase } from './open-database.ts';
import { ConversationsRepo } from './conversations-repo.ts';
import { AuditRepo } from './audit-repo.ts';
import { ImageHistoryRepo } from './image-history-repo.ts';
import { KeysRepo } from './keys-repo.ts';
import { OperatorTokensRepo } from './operator-tokens-repo.ts';
import { DeletedKeysRepo } from './deleted-keys-repo.ts';
import { ServedModelsRepo } from './served-models-repo.ts';
import { PricesRepo } from './prices-repo.ts';
import { RequestLogRepo } from './request-log-repo.ts';
import { SessionsRepo } from './sessions-repo.ts';
import { DeviceAuthorizationsRepo } from './device-authorizations-repo.ts';
import { SignInGrantsRepo } from './sign-in-grants-repo.ts';
import { IdentitiesRepo } from './identities-repo.ts';
import { GroupPoliciesRepo } from './group-policies-repo.ts';
import { UsageRepo } from './usage-repo.ts';
import { UsersRepo } from './users-repo.ts';

export class Store {
  readonly users: UsersRepo;
  readonly keys: KeysRepo;
  readonly usage: UsageRepo;
  readonly sessions: SessionsRepo;
  readonly conversations: ConversationsRepo;
  readonly operatorTokens: OperatorTokensRepo;
  readonly audit: AuditRepo;
  readonly imageHistory: ImageHistoryRepo;
  readonly requestLog: RequestLogRepo;
  readonly deletedKeys: DeletedKeysRepo;
  readonly servedModels: ServedModelsRepo;
  readonly prices: PricesRepo;
  readonly deviceAuthorizations: DeviceAuthorizationsRepo;
  readonly signInGrants: SignInGrantsRepo;
  readonly identities: IdentitiesRepo;
  readonly groupPolicies: GroupPoliciesRepo;

  constructor(readonly database: OpenedDatabase) {
    this.users = new UsersRepo(database.db, database.notifyRevocation);
    this.keys = new KeysRepo(database.db, database.notifyRevocation);
    this.usage = new UsageRepo(database.db);
    this.sessions = new SessionsRepo(database.db);
    this.conversations = new ConversationsRepo(database.db);
    this.operatorTokens = new OperatorTokensRepo(database.db);
    this.audit = new AuditRepo(database.db);
    this.imageHistory = new ImageHistoryRepo(database.db);
    this.requestLog = new RequestLogRepo(database.db, database.runBatch);
    this.deletedKeys = new DeletedKeysRepo(database.db);
    this.servedModels = new ServedModelsRepo(database.db);
    this.prices = new PricesRepo(database.db);
    this.deviceAuthorizations = new DeviceAuthorizationsRepo(database.db);
    this.signInGrants = new SignInGrantsRepo(database.db, database.notifyRevocation);
    this.identities = new IdentitiesRepo(database.db);
    this.groupPolicies = new GroupPoliciesRepo(database.db);
  }

  static async open(url: string, options: DatabaseOptions = {}): Promise<Store> {
    return new Store(await openDatabase(url, options));
  }

  ping(): Promise<boolean> {
    return this.database.ping();
  }

  close(): Promise<void> {
    return this.database.close();
  }
}
