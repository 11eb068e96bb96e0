// Image app: prompt, model, size and count → pictures, kept in the user's history (newest first)
// with a download link and a delete button each.
import { api, errorMessage } from './api.ts';
import { byId, element } from './dom.ts';

/** A picture of the history, as GET /web/api/images lists it. */
interface HistoryItem {
  id: string;
  prompt: string;
  model: string;
  size: string;
  createdAt: string;
  url: string;
  downloadUrl: string;
}
interface HistoryPage {
  images: HistoryItem[];
  total: number;
  keep: number;
  nextOffset: number | null;
}
interface Drawn {
  b64: string;
  id: string | null;
  url?: string;
  downloadUrl?: string;
  createdAt?: string;
}
interface DrawResult {
  model: string;
  size: string;
  images: Drawn[];
  historyError?: string;
}

const PAGE = 24;
const form = byId<HTMLFormElement>('image-form');
const promptInput = byId<HTMLTextAreaElement>('image-prompt');
const gallery = byId('gallery');
const status = byId('image-status');
const generate = byId<HTMLButtonElement>('generate');
const more = byId<HTMLButtonElement>('history-more');
const empty = byId('history-empty');
const count = byId('history-count');
let loaded = 0;
let total = 0;
let keep = 50;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function showCounts(): void {
  empty.classList.toggle('hidden', gallery.children.length > 0);
  count.textContent = `${plural(total, 'picture')} · the latest ${keep} are kept`;
}

function figure(item: HistoryItem, src = item.url): HTMLElement {
  const [width = '', height = ''] = item.size.split('x');
  const when = new Date(item.createdAt).toLocaleString();
  const remove = element('button', { type: 'button', class: 'small danger', 'aria-label': `Delete picture: ${item.prompt}`, text: 'Delete' });
  const node = element('figure', { 'data-id': item.id }, [
    element('img', { src, alt: item.prompt, width, height, loading: 'lazy' }),
    element('figcaption', {}, [
      element('span', { class: 'prompt', text: item.prompt }),
      element('span', { text: `${item.size} · ${item.model} · ${when}` }),
      element('span', { class: 'actions' }, [
        element('a', { href: item.downloadUrl, download: true, class: 'button small', 'aria-label': `Download picture: ${item.prompt}`, text: 'Download' }),
        remove,
      ]),
    ]),
  ]);
  remove.addEventListener('click', () => void deletePicture(item, node));
  return node;
}

async function deletePicture(item: HistoryItem, node: HTMLElement): Promise<void> {
  status.textContent = 'Deleting…';
  try {
    const saved = !item.id.startsWith('unsaved-');
    if (saved) {
      const response = await api(`/web/api/images/${encodeURIComponent(item.id)}`, { method: 'DELETE' });
      // 404: already gone (deleted in another tab, or pushed out of the history).
      if (!response.ok && response.status !== 404) throw new Error(await errorMessage(response));
      loaded = Math.max(0, loaded - 1);
      total = Math.max(0, total - 1);
    }
    const next = (node.nextElementSibling ?? node.previousElementSibling) as HTMLElement | null;
    node.remove();
    showCounts();
    status.textContent = 'Picture deleted.';
    (next?.querySelector('button') ?? promptInput).focus();
  } catch (error) {
    status.textContent = (error as Error).message;
  }
}

async function loadHistory(): Promise<void> {
  try {
    const response = await api(`/web/api/images?limit=${PAGE}&offset=${loaded}`);
    if (!response.ok) throw new Error(await errorMessage(response));
    const page = (await response.json()) as HistoryPage;
    // Pictures drawn while this page loaded are already shown.
    const shown = new Set([...gallery.querySelectorAll<HTMLElement>('figure')].map((node) => node.dataset.id));
    gallery.append(...page.images.filter((item) => !shown.has(item.id)).map((item) => figure(item)));
    loaded += page.images.length;
    total = page.total;
    keep = page.keep;
    more.classList.toggle('hidden', page.nextOffset === null);
    showCounts();
  } catch (error) {
    status.textContent = `Your history could not be loaded: ${(error as Error).message}`;
  }
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const prompt = promptInput.value.trim();
  if (!prompt) return;
  const size = byId<HTMLSelectElement>('image-size').value;
  const n = Number(byId<HTMLSelectElement>('image-count').value);
  const model = byId<HTMLSelectElement>('image-model').value || undefined;
  generate.disabled = true;
  status.textContent = `Drawing ${plural(n, 'image')}…`;
  try {
    const response = await api('/web/api/images', { method: 'POST', body: { prompt, size, n, model } });
    if (!response.ok) throw new Error(await errorMessage(response));
    const result = (await response.json()) as DrawResult;
    const drawn = result.images.map((image, i) => {
      const src = `data:image/png;base64,${image.b64}`;
      const item: HistoryItem = {
        prompt,
        size: result.size,
        model: result.model,
        createdAt: image.createdAt ?? new Date().toISOString(),
        // Not saved: the picture exists only in this page, so it downloads from its own bytes.
        id: image.id ?? `unsaved-${Date.now()}-${i}`,
        url: image.url ?? src,
        downloadUrl: image.downloadUrl ?? src,
      };
      return figure(item, src);
    });
    gallery.prepend(...drawn);
    const saved = result.images.filter((image) => image.id).length;
    // The server keeps only the latest `keep`: so does the page.
    total = Math.min(total + saved, keep);
    loaded = Math.min(loaded + saved, total);
    while (gallery.children.length > keep) gallery.lastElementChild?.remove();
    showCounts();
    status.textContent = result.historyError ?? `Done: ${plural(result.images.length, 'image')}.`;
  } catch (error) {
    status.textContent = (error as Error).message;
  } finally {
    generate.disabled = false;
  }
});

more.addEventListener('click', () => void loadHistory());
void loadHistory();
