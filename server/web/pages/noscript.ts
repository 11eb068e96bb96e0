// What the browser apps show when scripts are off.
import { html } from '../html.ts';

export const NOSCRIPT = html`<noscript><p class="error">This app needs JavaScript. Your keys and usage pages work without it.</p></noscript>`;
