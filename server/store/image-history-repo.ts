// The images app's history: the pictures a user drew, newest first, with their PNG bytes. Saving
// prunes the user's older pictures in the same transaction, so each user keeps at most `keep`.
import { sql, type Kysely } from 'kysely';
import { newId } from '../auth/random-tokens.ts';
import type { Database } from './schema.ts';

export const IMAGE_HISTORY_KEEP = 50;

export interface ImageHistoryEntry {
  id: string;
  prompt: string;
  model: string;
  size: string;
  createdAt: string;
  byteLength: number;
}

export interface NewImage {
  prompt: string;
  model: string;
  size: string;
  png: Buffer;
}

export class ImageHistoryRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly keep = IMAGE_HISTORY_KEEP,
  ) {}

  /** Saves one generation's pictures (in order) and drops what falls beyond the user's latest `keep`. */
  async save(userId: string, images: NewImage[]): Promise<ImageHistoryEntry[]> {
    const base = Date.now();
    // One millisecond apart, the first picture newest, so a generation reads in order in the history.
    const rows = images.map((image, i) => ({
      id: newId('img'),
      user_id: userId,
      prompt: image.prompt,
      model: image.model,
      size: image.size,
      created_at: new Date(base - i).toISOString(),
      byte_length: image.png.length,
      png: image.png,
    }));
    if (rows.length === 0) return [];
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('image_history').values(rows).execute();
      const kept = trx
        .selectFrom('image_history')
        .select('id')
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(this.keep);
      await trx.deleteFrom('image_history').where('user_id', '=', userId).where('id', 'not in', kept).execute();
    });
    return rows.map(toEntry);
  }

  /** Newest first; metadata only. */
  async list(userId: string, options: { limit: number; offset: number }): Promise<{ entries: ImageHistoryEntry[]; total: number }> {
    const rows = await this.db
      .selectFrom('image_history')
      .select(['id', 'prompt', 'model', 'size', 'created_at', 'byte_length'])
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(options.limit)
      .offset(options.offset)
      .execute();
    const count = await this.db
      .selectFrom('image_history')
      .select(sql<number | string>`count(*)`.as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return { entries: rows.map(toEntry), total: Number(count?.n ?? 0) };
  }

  /** Undefined for unknown ids and for other users' pictures alike. */
  async find(userId: string, id: string): Promise<(ImageHistoryEntry & { png: Buffer }) | undefined> {
    const row = await this.db.selectFrom('image_history').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return row ? { ...toEntry(row), png: Buffer.from(row.png) } : undefined;
  }

  async delete(userId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('image_history').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

function toEntry(row: { id: string; prompt: string; model: string; size: string; created_at: string; byte_length: number | string }): ImageHistoryEntry {
  return { id: row.id, prompt: row.prompt, model: row.model, size: row.size, createdAt: row.created_at, byteLength: Number(row.byte_length) };
}
