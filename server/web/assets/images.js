// Image app: prompt, size and count → a gallery of PNGs, each with a download link.
import { api, element, errorMessage } from './common.js';

const form = document.getElementById('image-form');
const gallery = document.getElementById('gallery');
const status = document.getElementById('image-status');
const button = document.getElementById('generate');

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const prompt = document.getElementById('image-prompt').value.trim();
  if (!prompt) return;
  const size = document.getElementById('image-size').value;
  const n = Number(document.getElementById('image-count').value);
  const model = document.getElementById('image-model').value || undefined;
  button.disabled = true;
  status.textContent = `Drawing ${n} image${n > 1 ? 's' : ''}…`;
  try {
    const response = await api('/web/api/images', { method: 'POST', body: { prompt, size, n, model } });
    if (!response.ok) throw new Error(await errorMessage(response));
    const result = await response.json();
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const figures = result.images.map((image, i) => {
      const src = `data:image/png;base64,${image.b64}`;
      return element('figure', {}, [
        element('img', { src, alt: prompt, width: size.split('x')[0], height: size.split('x')[1] }),
        element('figcaption', {}, [
          element('span', { text: `${result.size} · ${result.model}` }),
          element('a', { href: src, download: `image-${stamp}-${i + 1}.png`, class: 'button small', text: 'Download' }),
        ]),
      ]);
    });
    gallery.prepend(...figures);
    status.textContent = `Done: ${result.images.length} image${result.images.length > 1 ? 's' : ''}.`;
  } catch (error) {
    status.textContent = error.message;
  } finally {
    button.disabled = false;
  }
});
