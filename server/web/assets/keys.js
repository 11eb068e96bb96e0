// Keys page: create a key in place (its value is shown once, only in this page's memory).
import { api, element, errorMessage, wireCopyButtons } from './common.js';

wireCopyButtons();
const form = document.getElementById('create-key-form');
const slot = document.getElementById('created-slot');
const LIMIT_FIELDS = ['expires', 'models', 'rateLimit', 'budgetTokensDay', 'budgetTokensMonth', 'budgetRequestsDay', 'budgetRequestsMonth'];
const NUMBER_FIELDS = new Set(LIMIT_FIELDS.slice(2));

form?.addEventListener('submit', async (event) => {
  event.preventDefault();
  const button = form.querySelector('button[type="submit"]');
  button.disabled = true;
  try {
    const name = form.elements.name.value.trim();
    const body = { name: name || null };
    // Only filled-in limits are sent; the server says what is wrong with a value.
    for (const field of LIMIT_FIELDS) {
      const value = form.elements[field]?.value.trim();
      if (value) body[field] = NUMBER_FIELDS.has(field) && /^\d+$/.test(value) ? Number(value) : value;
    }
    const response = await api('/web/api/keys', { method: 'POST', body });
    if (!response.ok) throw new Error(await errorMessage(response));
    const key = await response.json();
    document.getElementById('created-key')?.remove();
    const value = element('code', { id: 'new-key-value', text: key.key });
    const panel = element('section', { class: 'card created', id: 'created-key', role: 'status' }, [
      element('h2', { text: key.name ? `Your new key “${key.name}”` : 'Your new key' }),
      element('p', {}, [element('strong', { text: 'Copy it now. It cannot be shown again.' }), ' If you lose it, delete the key and create a new one.']),
      element('div', { class: 'copy-row' }, [value, element('button', { type: 'button', class: 'primary', 'data-copy': '#new-key-value', text: 'Copy' })]),
      element('p', { class: 'muted', text: 'Keep it in a password manager or a local-only config file. Never paste it into chats, screenshots, issues or repositories.' }),
    ]);
    slot.replaceChildren(panel);
    wireCopyButtons(panel);
    addRow(key);
    form.reset();
  } catch (error) {
    slot.replaceChildren(element('p', { class: 'error', role: 'alert', text: error.message }));
  } finally {
    button.disabled = false;
  }
});

function addRow(key) {
  document.getElementById('no-keys')?.remove();
  const table = document.getElementById('keys-table');
  table.classList.remove('hidden');
  const name = key.name ? key.name : '(no name)';
  const row = element('tr', { 'data-key-id': key.id }, [
    element('td', { text: name }),
    element('td', {}, [element('code', { text: key.hint })]),
    element('td', { text: key.createdAt.slice(0, 16).replace('T', ' ') + ' UTC' }),
    element('td', { class: 'last-used', text: 'never' }),
    element('td', { class: 'spark-cell muted', text: 'No requests yet' }),
    element('td', { class: 'num', text: '0' }),
    element('td', { class: 'num', text: '0' }),
    element('td', { class: 'limits-cell', text: limitsText(key.limits) }),
    element('td', {}, [
      element('a', { class: 'button small', href: `/keys/${key.id}/limits`, text: 'Limits' }),
      ' ',
      element('a', { class: 'button danger small', href: `/keys/${key.id}/delete`, text: 'Delete' }),
    ]),
  ]);
  table.tBodies[0].prepend(row);
}

function limitsText(limits) {
  const parts = [];
  if (limits.expiresAt) parts.push(`expires ${limits.expiresAt.slice(0, 16).replace('T', ' ')} UTC`);
  if (limits.models) parts.push(`models: ${limits.models.join(', ')}`);
  if (limits.rateLimit !== null) parts.push(`${limits.rateLimit} requests/min`);
  const budgets = Object.entries(limits.budgets).filter(([, v]) => v !== null);
  if (budgets.length > 0) parts.push(`${budgets.length} budget(s), reload for what is left`);
  return parts.length > 0 ? parts.join('; ') : 'none';
}
