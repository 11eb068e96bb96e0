// The usage journal of one gateway process: `<data dir>/usage-journal/<instance name>/`. Opened at
// start, before the listeners: what an earlier run left is replayed into the database, then new
// usage is appended. Several instances on one database (PostgreSQL) each have their own journal,
// and their own marks (by the journal's id); a journal is replayed only by a process started with
// the same data directory and instance name.
import { hostname } from 'node:os';
import { join } from 'node:path';
import { readJournalMarks } from '../store/usage-journal-marks.ts';
import type { Store } from '../store/store.ts';
import type { RequestLog } from './request-log.ts';
import { replayUsageJournal, type ReplayResult } from './replay-usage-journal.ts';
import { UsageJournal } from './usage-journal.ts';
import type { UsageMeter } from './usage-meter.ts';

/** The instance name as a file name: the host name by default, characters outside [A-Za-z0-9._-] replaced. */
export function journalInstanceName(name: string | undefined): string {
  const chosen = name?.trim() || hostname() || 'gateway';
  return chosen.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
}

export function usageJournalDir(dataDir: string, instanceName: string | undefined): string {
  return join(dataDir, 'usage-journal', journalInstanceName(instanceName));
}

export interface StartedJournal {
  journal: UsageJournal;
  replayed: ReplayResult;
}

export async function startUsageJournal(dir: string, store: Store, usage: UsageMeter, requestLog: RequestLog): Promise<StartedJournal> {
  const journal = UsageJournal.open(dir, ['usage', 'request_log']);
  try {
    const marks = await readJournalMarks(store.database.db, journal.id);
    const replayed = await replayUsageJournal(journal.id, journal.leftovers(), marks, usage, requestLog);
    journal.begin(replayed.lastSeq);
    usage.attachJournal(journal);
    requestLog.attachJournal(journal);
    // Everything up to here is in the database now: the earlier run's segments go.
    journal.durable('usage', replayed.lastSeq);
    journal.durable('request_log', replayed.lastSeq);
    return { journal, replayed };
  } catch (error) {
    journal.close();
    throw error;
  }
}
