// Who deleted a key, from the audit log: its own `key.delete` entry, else the deletion of its
// owner's account (which took the key with it).
import type { DeletedKeyRecord } from '../store/deleted-keys-repo.ts';
import type { Store } from '../store/store.ts';

export async function deletedBy(store: Store, gone: Pick<DeletedKeyRecord, 'keyId' | 'username'>): Promise<string | null> {
  const [own] = await store.audit.list({ action: 'key.delete', target: `key:${gone.keyId}`, limit: 1 });
  if (own) return own.actor;
  const [account] = await store.audit.list({ action: 'user.delete', target: `user:${gone.username}`, limit: 1 });
  return account ? `${account.actor} (with the account)` : null;
}
