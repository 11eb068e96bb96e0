// Reading a usage journal segment back: one JSON line per entry,
// `{"s":<sequence>,"t":<epoch ms>,"l":<1 when it also goes to the request log>,"e":<the event>}`.
// A line that does not parse (the last one, torn by a crash while it was written) is skipped and
// counted; it belonged to a request whose answer had not ended, so no client received it whole.

export interface JournalEntry {
  seq: number;
  /** Epoch ms the entry was appended. */
  at: number;
  /** The event also goes to the request log. */
  inRequestLog: boolean;
  /** The usage event as recorded, every field of it. */
  event: Record<string, unknown>;
}

export function parseJournalSegment(text: string): { entries: JournalEntry[]; unreadable: number } {
  const entries: JournalEntry[] = [];
  let unreadable = 0;
  let lastSeq = 0;
  for (const line of text.split('\n')) {
    if (line.length === 0) continue;
    const entry = parseLine(line);
    // Sequences only grow: anything else is not an entry of this journal.
    if (!entry || entry.seq <= lastSeq) {
      unreadable += 1;
      continue;
    }
    lastSeq = entry.seq;
    entries.push(entry);
  }
  return { entries, unreadable };
}

function parseLine(line: string): JournalEntry | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { s, t, l, e } = parsed as Record<string, unknown>;
  if (typeof s !== 'number' || !Number.isSafeInteger(s) || s < 1 || typeof t !== 'number' || typeof e !== 'object' || e === null || Array.isArray(e)) return undefined;
  return { seq: s, at: t, inRequestLog: l === 1, event: e as Record<string, unknown> };
}
