// Small display helpers shared by the pages.

import { formatTime } from '../../core/format-time.ts';

/** A time on the pages: "2026-11-27 04:42 UTC" (the one format, core/format-time.ts). */
export function shortTime(iso: string | null | undefined): string {
  return formatTime(iso);
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

export function monthStartHour(now = new Date()): string {
  return `${now.toISOString().slice(0, 7)}-01T00:00Z`;
}
