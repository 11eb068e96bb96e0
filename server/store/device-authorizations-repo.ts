// Pending device authorizations (RFC 8628): created by a client, approved or denied by a signed-in
// person on /device, collected once by the client's poll. The device code is stored as its hash.
import type { Kysely } from 'kysely';
import { hashApiKey } from '../auth/api-key-values.ts';
import type { Database, DeviceAuthorizationsTable } from './schema.ts';

export type DeviceStatus = 'pending' | 'approved' | 'denied';

export interface DeviceAuthorization {
  deviceCodeHash: string;
  userCode: string;
  clientName: string;
  clientAddress: string;
  createdAt: string;
  expiresAt: string;
  intervalSeconds: number;
  lastPolledAt: string | null;
  status: DeviceStatus;
  userId: string | null;
}

function toAuthorization(row: DeviceAuthorizationsTable): DeviceAuthorization {
  return {
    deviceCodeHash: row.device_code_hash,
    userCode: row.user_code,
    clientName: row.client_name,
    clientAddress: row.client_address,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    intervalSeconds: Number(row.interval_seconds),
    lastPolledAt: row.last_polled_at,
    status: row.status as DeviceStatus,
    userId: row.user_id,
  };
}

export class DeviceAuthorizationsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async create(input: { deviceCode: string; userCode: string; clientName: string; clientAddress: string; now: Date; lifetimeMs: number; intervalSeconds: number }): Promise<DeviceAuthorization> {
    const row: DeviceAuthorizationsTable = {
      device_code_hash: hashApiKey(input.deviceCode),
      user_code: input.userCode,
      client_name: input.clientName,
      client_address: input.clientAddress,
      created_at: input.now.toISOString(),
      expires_at: new Date(input.now.getTime() + input.lifetimeMs).toISOString(),
      interval_seconds: input.intervalSeconds,
      last_polled_at: null,
      status: 'pending',
      user_id: null,
    };
    await this.db.insertInto('device_authorizations').values(row).execute();
    return toAuthorization(row);
  }

  async findByDeviceCode(deviceCode: string): Promise<DeviceAuthorization | undefined> {
    const row = await this.db.selectFrom('device_authorizations').selectAll().where('device_code_hash', '=', hashApiKey(deviceCode)).executeTakeFirst();
    return row ? toAuthorization(row) : undefined;
  }

  async findByUserCode(userCode: string): Promise<DeviceAuthorization | undefined> {
    const row = await this.db.selectFrom('device_authorizations').selectAll().where('user_code', '=', userCode).executeTakeFirst();
    return row ? toAuthorization(row) : undefined;
  }

  /** Records a poll; the interval grows when the client polled too fast (slow_down). */
  async notePoll(deviceCodeHash: string, at: Date, intervalSeconds: number): Promise<void> {
    await this.db
      .updateTable('device_authorizations')
      .set({ last_polled_at: at.toISOString(), interval_seconds: intervalSeconds })
      .where('device_code_hash', '=', deviceCodeHash)
      .execute();
  }

  /** Approves or denies a pending authorization; false when it was no longer pending. */
  async decide(userCode: string, userId: string, status: 'approved' | 'denied'): Promise<boolean> {
    const result = await this.db
      .updateTable('device_authorizations')
      .set({ status, user_id: userId })
      .where('user_code', '=', userCode)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Removes it; true for the one caller that did (a device code is collected once). */
  async consume(deviceCodeHash: string): Promise<boolean> {
    const result = await this.db.deleteFrom('device_authorizations').where('device_code_hash', '=', deviceCodeHash).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteExpired(now: Date): Promise<void> {
    await this.db.deleteFrom('device_authorizations').where('expires_at', '<=', now.toISOString()).execute();
  }
}
