// Usage charts: hovering a bar shows one tooltip with every segment of that bar and its total. The
// page works without this script, where each segment's SVG <title> is the browser's own tooltip;
// those titles move into data attributes here so the two do not show at once.
import { element } from './dom.ts';

const tip = element('div', { class: 'schart-tip', role: 'tooltip', hidden: true });
document.body.append(tip);

function show(svg: SVGSVGElement, event: PointerEvent): void {
  const box = svg.getBoundingClientRect();
  const buckets = svg.viewBox.baseVal.width;
  const index = Math.floor(((event.clientX - box.left) / box.width) * buckets);
  const segments = [...svg.querySelectorAll<SVGRectElement>(`rect[data-bucket="${index}"]`)].map((rect) => rect.dataset.title ?? '');
  if (segments.length === 0) {
    tip.hidden = true;
    return;
  }
  // Titles read "<bucket> · <series>: <value> <unit>" (the unit singular for 1).
  const [bucket] = segments[0]!.split(' · ');
  const lines = segments.map((title) => title.slice(title.indexOf(' · ') + 3)).reverse();
  const total = segments.reduce((sum, title) => sum + Number(/: ([\d,]+) \S+$/.exec(title)?.[1]?.replace(/,/g, '') ?? 0), 0);
  const unit = svg.dataset.unit ?? '';
  tip.replaceChildren(element('strong', { text: bucket ?? '' }), ...lines.map((line) => element('div', { text: line })), element('div', { class: 'tip-total', text: `Total: ${total.toLocaleString('en-US')} ${unit}` }));
  tip.hidden = false;
  const left = Math.min(event.pageX + 14, window.scrollX + document.documentElement.clientWidth - tip.offsetWidth - 8);
  tip.style.left = `${Math.max(window.scrollX + 8, left)}px`;
  tip.style.top = `${event.pageY + 14}px`;
}

for (const svg of document.querySelectorAll<SVGSVGElement>('.schart-plot svg')) {
  for (const rect of svg.querySelectorAll<SVGRectElement>('rect[data-bucket]')) {
    const title = rect.querySelector('title');
    if (!title) continue;
    rect.dataset.title = title.textContent ?? '';
    title.remove();
  }
  svg.addEventListener('pointermove', (event) => show(svg, event));
  svg.addEventListener('pointerleave', () => {
    tip.hidden = true;
  });
}
