// A stacked bar chart rendered on the server (no script needed): bars in an SVG that stretches to the
// width, axes and legend in HTML so their text stays readable at any width (CSS classes only, since
// the pages' CSP allows no inline styles). Each segment has a <title> (hover value), and the same
// numbers follow in a table for screen readers and for reading exact values.
import { formatCount } from './format.ts';
import { html, type SafeHtml } from './html.ts';

export interface ChartBucket {
  /** Shown in titles and the table: "2026-11-24" or "2026-11-24 13:00 UTC". */
  label: string;
  /** Shown under the axis, for the buckets that get a tick: "Nov 24", "13:00". */
  tick: string;
}

export interface ChartSeries {
  name: string;
  /** One value per bucket. */
  values: number[];
}

export interface StackedChartInput {
  id: string;
  title: string;
  /** "requests", "tokens", "errors". */
  unit: string;
  buckets: ChartBucket[];
  series: ChartSeries[];
  /** What the first column of the table names ("Day", "Hour"). */
  bucketHeading: string;
  /** How a value reads (default: a count with separators; money charts pass an amount formatter). */
  format?: (value: number) => string;
}

/** Series colours: .series-0 … .series-5 in usage.css (app.css's --series-1 … --series-6); more share the last. */
export const SERIES_COLOURS = 6;
const TICKS_SHOWN = 6;
const BAR_FILL = 0.78;

/** The smallest 1, 2 or 5 × 10^k step that fits `max` in four steps (at least 1). */
export function niceStep(max: number): number {
  const raw = Math.max(1, max) / 4;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  for (const factor of [1, 2, 2.5, 5, 10]) {
    const step = factor * magnitude;
    if (step >= raw && Number.isInteger(step)) return step;
  }
  return 10 * magnitude;
}

/** 950, 1.2k, 34k, 1.5M: short enough for an axis. */
export function compactCount(n: number): string {
  if (n < 1_000) return String(n);
  for (const [size, suffix] of [[1e9, 'G'], [1e6, 'M'], [1e3, 'k']] as const) {
    if (n >= size) return `${Number((n / size).toFixed(n >= size * 10 ? 0 : 1))}${suffix}`;
  }
  return String(n);
}

export function stackedChart(input: StackedChartInput): SafeHtml {
  const { buckets, series } = input;
  const totals = buckets.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const fmt = input.format ?? formatCount;
  const grand = totals.reduce((a, b) => a + b, 0);
  const step = niceStep(Math.max(0, ...totals));
  const top = step * 4;
  const every = Math.max(1, Math.ceil(buckets.length / TICKS_SHOWN));
  const colour = (i: number) => `series-${Math.min(i, SERIES_COLOURS - 1)}`;
  const units = (n: number) => `${fmt(n)} ${n === 1 ? input.unit.replace(/s$/, '') : input.unit}`;
  const summary = `${input.title}: ${fmt(grand)} ${input.unit} in ${buckets.length} ${input.bucketHeading.toLowerCase()}s${grand > 0 ? `, at most ${fmt(Math.max(...totals))} in one` : ''}.`;

  const bars = buckets.map((bucket, i) => {
    let base = 0;
    return series.map((s, si) => {
      const value = s.values[i] ?? 0;
      if (value <= 0) return '';
      const y = 100 - ((base + value) / top) * 100;
      base += value;
      return html`<rect class="${colour(si)}" data-bucket="${i}" x="${(i + (1 - BAR_FILL) / 2).toFixed(2)}" y="${y.toFixed(3)}" width="${BAR_FILL}" height="${((value / top) * 100).toFixed(3)}"><title>${bucket.label} · ${s.name}: ${units(value)}</title></rect>`;
    });
  });

  return html`<figure class="schart" id="${input.id}">
    <figcaption><strong>${input.title}</strong> <span class="muted">${fmt(grand)} in total</span></figcaption>
    <div class="schart-grid">
      <div class="schart-y" aria-hidden="true">${[4, 3, 2, 1, 0].map((k) => html`<span>${compactCount(step * k)}</span>`)}</div>
      <div class="schart-plot">
        <svg viewBox="0 0 ${Math.max(1, buckets.length)} 100" preserveAspectRatio="none" data-unit="${input.unit}" role="img" aria-label="${summary} The table below lists every value.">
          ${[0, 25, 50, 75, 100].map((y) => html`<line class="gridline" x1="0" x2="${Math.max(1, buckets.length)}" y1="${y}" y2="${y}" vector-effect="non-scaling-stroke"></line>`)}
          ${bars}
        </svg>
        ${grand === 0 ? html`<p class="schart-empty muted">No ${input.unit} in this period.</p>` : ''}
      </div>
      <div></div>
      <div class="schart-x" aria-hidden="true">${buckets.map((b, i) => (i % every !== 0 ? html`<span></span>` : html`<span class="${(i / every) % 2 === 1 ? 'minor' : ''}">${b.tick}</span>`))}</div>
    </div>
    ${series.length > 0
      ? html`<ul class="legend">${series.map((s, si) => html`<li><span class="swatch ${colour(si)}" aria-hidden="true"></span>${s.name} <span class="muted">${fmt(s.values.reduce((a, b) => a + b, 0))}</span></li>`)}</ul>`
      : ''}
    <details class="schart-table">
      <summary>${input.title} as a table</summary>
      <div class="table-wrap"><table>
        <thead><tr><th>${input.bucketHeading}</th>${series.map((s) => html`<th class="num">${s.name}</th>`)}<th class="num">Total</th></tr></thead>
        <tbody>${buckets.map((b, i) => html`<tr><td>${b.label}</td>${series.map((s) => html`<td class="num">${fmt(s.values[i] ?? 0)}</td>`)}<td class="num">${fmt(totals[i]!)}</td></tr>`)}</tbody>
      </table></div>
    </details>
  </figure>`;
}
