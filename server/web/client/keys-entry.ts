// Keys page: create a key in place (its value is shown once, only in this page's memory) and copy
// it. Without this script the form posts and the answer is the page with the new key on it.
import { api, errorMessage } from './api.ts';
import { copyFromButton } from './copy-text.ts';
import { element } from './dom.ts';
import { formatTime } from '../../../core/format-time.ts';

interface KeyLimits {
  expiresAt: string | null;
  models: string[] | null;
  rateLimit: number | null;
  budgets: Record<string, number | null>;
}
interface CreatedKey {
  id: string;
  name: string | null;
  key: string;
  hint: string;
  createdAt: string;
  limits: KeyLimits;
}

const LIMIT_FIELDS = ['expires', 'models', 'rateLimit', 'budgetTokensDay', 'budgetTokensMonth', 'budgetRequestsDay', 'budgetRequestsMonth', 'budgetCostDay', 'budgetCostMonth'];
const NUMBER_FIELDS = new Set(LIMIT_FIELDS.slice(2));

function wireCopyButtons(root: ParentNode = document): void {
  for (const button of root.querySelectorAll<HTMLElement>('[data-copy]')) {
    button.addEventListener('click', () => {
      const text = document.querySelector(button.dataset.copy!)?.textContent ?? '';
      void copyFromButton(button, text);
    });
  }
}

const utcMinute = (iso: string) => formatTime(iso);

function limitsText(limits: KeyLimits): string {
  const parts: string[] = [];
  if (limits.expiresAt) parts.push(`expires ${utcMinute(limits.expiresAt)}`);
  if (limits.models) parts.push(`models: ${limits.models.join(', ')}`);
  if (limits.rateLimit !== null) parts.push(`${limits.rateLimit} requests/min`);
  const budgets = Object.values(limits.budgets).filter((v) => v !== null);
  if (budgets.length > 0) parts.push(`${budgets.length} budget(s), reload for what is left`);
  return parts.length > 0 ? parts.join('; ') : 'none';
}

function addRow(key: CreatedKey): void {
  document.getElementById('no-keys')?.remove();
  const table = document.getElementById('keys-table') as HTMLTableElement;
  table.classList.remove('hidden');
  const row = element('tr', { 'data-key-id': key.id }, [
    element('td', {}, [element('span', { class: 'clip', tabindex: '0', title: key.name ?? '', text: key.name ? key.name : '(no name)' })]),
    element('td', {}, [element('code', { text: key.hint })]),
    element('td', { text: utcMinute(key.createdAt) }),
    element('td', { class: 'last-used', text: 'never' }),
    element('td', { class: 'spark-cell muted', text: 'No requests yet' }),
    element('td', { class: 'num', text: '0' }),
    element('td', { class: 'num', text: '0' }),
    element('td', { class: 'limits-cell', text: limitsText(key.limits) }),
    element('td', { class: 'actions-cell' }, [
      element('a', { class: 'button small', href: `/keys/${key.id}/limits`, text: 'Limits' }),
      ' ',
      element('a', { class: 'button danger small', href: `/keys/${key.id}/delete`, text: 'Delete' }),
    ]),
  ]);
  table.tBodies[0]!.prepend(row);
}

function createdPanel(key: CreatedKey): HTMLElement {
  return element('section', { class: 'card created', id: 'created-key', role: 'status' }, [
    element('h2', { text: key.name ? `Your new key “${key.name}”` : 'Your new key' }),
    element('p', {}, [element('strong', { text: 'Copy it now. It cannot be shown again.' }), ' If you lose it, delete the key and create a new one.']),
    element('div', { class: 'copy-row' }, [element('code', { id: 'new-key-value', text: key.key }), element('button', { type: 'button', class: 'primary', 'data-copy': '#new-key-value', text: 'Copy' })]),
    element('p', { class: 'muted', text: 'Keep it in a password manager or a local-only config file. Never paste it into chats, screenshots, issues or repositories.' }),
    element('p', {}, ['Base URLs and copyable examples for each kind of client: ', element('a', { href: '#connect', text: 'Connect a client' }), ' (put this key where they say <API_KEY>).']),
  ]);
}

wireCopyButtons();
const form = document.getElementById('create-key-form') as HTMLFormElement | null;
const slot = document.getElementById('created-slot');

form?.addEventListener('submit', async (event) => {
  event.preventDefault();
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  button.disabled = true;
  try {
    const field = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | null)?.value.trim() ?? '';
    const body: Record<string, unknown> = { name: field('name') || null };
    // Only filled-in limits are sent; the server says what is wrong with a value.
    for (const name of LIMIT_FIELDS) {
      const value = field(name);
      if (value) body[name] = NUMBER_FIELDS.has(name) && /^\d+$/.test(value) ? Number(value) : value;
    }
    const response = await api('/web/api/keys', { method: 'POST', body });
    if (!response.ok) throw new Error(await errorMessage(response));
    const key = (await response.json()) as CreatedKey;
    document.getElementById('created-key')?.remove();
    const panel = createdPanel(key);
    slot?.replaceChildren(panel);
    wireCopyButtons(panel);
    addRow(key);
    form.reset();
  } catch (error) {
    slot?.replaceChildren(element('p', { class: 'error', role: 'alert', text: (error as Error).message }));
  } finally {
    button.disabled = false;
  }
});
