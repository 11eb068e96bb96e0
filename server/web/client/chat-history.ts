// The list of the user's conversations beside the chat: search (on the server, over titles and
// message text), open, rename in place, and delete after an inline confirmation.
import { api, errorMessage } from './api.ts';
import { element } from './dom.ts';

export interface ConversationSummary {
  id: string;
  title: string;
  model: string;
}

export interface HistoryEvents {
  open(id: string): void;
  /** The conversation shown was deleted. */
  deletedCurrent(): void;
}

export class ConversationHistory {
  private current: string | null = null;
  private search = '';
  private searchTimer = 0;
  private loads = 0;

  constructor(
    private readonly list: HTMLUListElement,
    private readonly note: HTMLElement,
    private readonly searchInput: HTMLInputElement,
    private readonly maxTitle: number,
    private readonly events: HistoryEvents,
  ) {
    searchInput.addEventListener('input', () => {
      window.clearTimeout(this.searchTimer);
      this.searchTimer = window.setTimeout(() => {
        this.search = searchInput.value.trim();
        void this.load();
      }, 250);
    });
    searchInput.form?.addEventListener('submit', (event) => {
      event.preventDefault();
      this.search = searchInput.value.trim();
      void this.load();
    });
  }

  setCurrent(id: string | null): void {
    this.current = id;
    for (const button of this.list.querySelectorAll<HTMLElement>('button.open')) button.setAttribute('aria-current', String(button.dataset.id === id));
  }

  async load(): Promise<void> {
    const ticket = ++this.loads;
    const response = await api(`/web/api/conversations${this.search ? `?q=${encodeURIComponent(this.search)}` : ''}`);
    if (ticket !== this.loads) return; // a later search is under way
    if (!response.ok) {
      this.note.textContent = await errorMessage(response);
      return;
    }
    const { conversations } = (await response.json()) as { conversations: ConversationSummary[] };
    this.list.replaceChildren(...conversations.map((c) => this.item(c)));
    this.note.textContent = conversations.length > 0 ? '' : this.search ? `No conversation mentions “${this.search}”.` : 'No conversations yet.';
  }

  private item(conversation: ConversationSummary): HTMLLIElement {
    const li = element('li', { class: 'conversation' });
    const show = () => {
      const open = element('button', {
        type: 'button',
        class: 'open',
        title: conversation.title,
        text: conversation.title,
        'data-id': conversation.id,
        'aria-current': String(conversation.id === this.current),
        onclick: () => this.events.open(conversation.id),
      });
      const rename = element('button', { type: 'button', class: 'small rename', text: 'Rename', onclick: () => editTitle() });
      const remove = element('button', { type: 'button', class: 'small danger delete', text: 'Delete', onclick: () => confirmDelete() });
      const actions = element('div', { class: 'item-actions', role: 'group', 'aria-label': `Actions for “${conversation.title}”`, hidden: true }, [rename, remove]);
      const more = element('button', { type: 'button', class: 'more', text: '⋯', title: 'Rename or delete', 'aria-label': `Rename or delete “${conversation.title}”`, 'aria-expanded': 'false' });
      more.addEventListener('click', () => {
        const expand = actions.hidden;
        actions.hidden = !expand;
        more.setAttribute('aria-expanded', String(expand));
        if (expand) rename.focus();
      });
      li.replaceChildren(element('div', { class: 'item-row' }, [open, more]), actions);
    };
    const editTitle = () => {
      const input = element('input', { type: 'text', class: 'rename-input', value: conversation.title, maxlength: String(this.maxTitle), 'aria-label': 'New title' });
      const error = element('p', { class: 'error small-text', role: 'alert' });
      const save = async () => {
        if (input.value.trim() === '') {
          error.textContent = 'A title cannot be empty.';
          input.focus();
          return;
        }
        const response = await api(`/web/api/conversations/${encodeURIComponent(conversation.id)}`, { method: 'PATCH', body: { title: input.value } });
        if (!response.ok) {
          error.textContent = await errorMessage(response);
          input.focus();
          return;
        }
        conversation.title = ((await response.json()) as ConversationSummary).title;
        show();
        li.querySelector<HTMLElement>('button.rename')?.focus();
      };
      const form = element('form', { class: 'rename-form' }, [
        input,
        element('button', { type: 'submit', class: 'small', text: 'Save' }),
        element('button', { type: 'button', class: 'small', text: 'Cancel', onclick: () => show() }),
        error,
      ]);
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        void save();
      });
      input.addEventListener('keydown', (event) => {
        if (event.key === 'Escape') show();
      });
      li.replaceChildren(form);
      input.focus();
      input.select();
    };
    const confirmDelete = () => {
      const error = element('p', { class: 'error small-text', role: 'alert' });
      const yes = element('button', { type: 'button', class: 'small danger confirm-delete', text: 'Delete' });
      yes.addEventListener('click', async () => {
        const response = await api(`/web/api/conversations/${encodeURIComponent(conversation.id)}`, { method: 'DELETE' });
        if (!response.ok && response.status !== 404) {
          error.textContent = await errorMessage(response);
          return;
        }
        const next = (li.nextElementSibling ?? li.previousElementSibling)?.querySelector<HTMLElement>('button.open');
        li.remove();
        if (conversation.id === this.current) this.events.deletedCurrent();
        // Keyboard users keep their place: the neighbouring conversation, or the search field.
        (next ?? this.searchInput).focus();
        if (!this.list.children.length) await this.load();
      });
      li.replaceChildren(
        element('div', { class: 'confirm', role: 'group', 'aria-label': 'Confirm deletion' }, [
          element('span', { class: 'confirm-text', text: `Delete “${conversation.title}”?` }),
          yes,
          element('button', { type: 'button', class: 'small', text: 'Cancel', onclick: () => show() }),
          error,
        ]),
      );
      yes.focus();
    };
    show();
    return li;
  }
}
