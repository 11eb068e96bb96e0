// Small display helpers shared by the pages.

export function shortTime(iso: string | null | undefined): string {
  if (!iso) return 'never';
  return iso.slice(0, 16).replace('T', ' ') + ' UTC';
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

export function monthStartHour(now = new Date()): string {
  return `${now.toISOString().slice(0, 7)}-01T00:00Z`;
}
