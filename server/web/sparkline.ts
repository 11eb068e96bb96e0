// A key's requests per day as a tiny inline SVG bar chart, with a <title> (hover) and a text
// alternative for screen readers that says the same numbers in words.
import { formatCount } from './format.ts';
import { html, type SafeHtml } from './html.ts';

export interface SparkDay {
  /** "2026-11-24" */
  day: string;
  requests: number;
}

export const SPARK_DAYS = 14;

export function sparkline(days: SparkDay[]): SafeHtml {
  const max = Math.max(1, ...days.map((d) => d.requests));
  const total = days.reduce((sum, d) => sum + d.requests, 0);
  const busiest = days.reduce((best, d) => (d.requests > best.requests ? d : best), days[0] ?? { day: '', requests: 0 });
  const text =
    total === 0
      ? `No requests in the last ${days.length} days.`
      : `${formatCount(total)} requests in the last ${days.length} days, most on ${busiest.day} (${formatCount(busiest.requests)}); today ${formatCount(days.at(-1)?.requests ?? 0)}.`;
  const perDay = days.map((d) => `${d.day}: ${d.requests}`).join(', ');
  return html`<svg class="sparkline" viewBox="0 0 ${days.length * 8} 28" preserveAspectRatio="none" role="img" aria-label="${text}">
    <title>${text} Per day: ${perDay}.</title>
    ${days.map((d, i) => {
      const h = d.requests === 0 ? 1 : Math.max(2, (d.requests / max) * 26);
      return html`<rect class="${d.requests === 0 ? 'spark-zero' : ''}" x="${i * 8 + 1}" y="${(28 - h).toFixed(1)}" width="6" height="${h.toFixed(1)}"><title>${d.day}: ${formatCount(d.requests)} requests</title></rect>`;
    })}
  </svg>`;
}

/** The last `count` days (UTC) ending today, each with the requests counted for it (0 when none). */
export function sparkDays(perDay: Map<string, number>, now: number, count = SPARK_DAYS): SparkDay[] {
  return Array.from({ length: count }, (_, i) => {
    const day = new Date(now - (count - 1 - i) * 86_400_000).toISOString().slice(0, 10);
    return { day, requests: perDay.get(day) ?? 0 };
  });
}
