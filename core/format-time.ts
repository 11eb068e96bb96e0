// The one way gwctl writes a time for people (web pages, logs, command output): UTC, ISO order, with
// the zone named — "2026-11-27 04:42 UTC", or with seconds "2026-11-27 04:42:10 UTC".

export function formatTime(iso: string | null | undefined, options: { seconds?: boolean; never?: string } = {}): string {
  if (!iso) return options.never ?? 'never';
  const date = iso.slice(0, 10);
  const time = iso.slice(11, options.seconds ? 19 : 16);
  return `${date} ${time} UTC`;
}
