// A small SVG bar chart rendered on the server (no script needed), with text labels for screen readers.
import { html, type SafeHtml } from './html.ts';

export interface Bar {
  label: string;
  value: number;
}

export function barChart(title: string, bars: Bar[], options: { width?: number; height?: number } = {}): SafeHtml {
  const width = options.width ?? 640;
  const height = options.height ?? 140;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const slot = bars.length ? width / bars.length : width;
  const barWidth = Math.max(2, slot * 0.7);
  const plot = height - 18;
  const total = bars.reduce((sum, b) => sum + b.value, 0);
  return html`<figure class="chart">
    <figcaption>${title} <span class="muted">(total ${total.toLocaleString('en-US')}, peak ${max.toLocaleString('en-US')})</span></figcaption>
    <svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${title}" preserveAspectRatio="none">
      ${bars.map((b, i) => {
        const h = (b.value / max) * (plot - 4);
        return html`<rect x="${(i * slot + (slot - barWidth) / 2).toFixed(1)}" y="${(plot - h).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${h.toFixed(1)}"><title>${b.label}: ${b.value}</title></rect>`;
      })}
      ${bars.length ? html`<text x="0" y="${height - 4}">${bars[0]!.label}</text><text x="${width}" y="${height - 4}" text-anchor="end">${bars.at(-1)!.label}</text>` : ''}
    </svg>
  </figure>`;
}
