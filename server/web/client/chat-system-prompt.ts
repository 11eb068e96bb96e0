// The conversation's system prompt: edited in a folding panel, saved with its own button, and sent
// with every message too (the server keeps what was sent), so what the panel shows is what the
// model gets. A new conversation takes it with its first message.
import { api, errorMessage } from './api.ts';
import { byId } from './dom.ts';

export class SystemPrompt {
  private readonly input = byId<HTMLTextAreaElement>('system-prompt');
  private readonly state = byId('system-state');
  private readonly status = byId('system-status');
  private readonly panel = byId<HTMLDetailsElement>('system-settings');

  constructor(private readonly conversationId: () => string | null) {
    this.input.addEventListener('input', () => {
      this.status.textContent = '';
      this.showState();
    });
    byId<HTMLFormElement>('system-form').addEventListener('submit', (event) => {
      event.preventDefault();
      void this.save();
    });
  }

  get value(): string {
    return this.input.value;
  }

  /** Shows a conversation's prompt (or none), closing the panel when there is none. */
  show(prompt: string): void {
    this.input.value = prompt;
    this.status.textContent = '';
    if (!prompt) this.panel.open = false;
    this.showState();
  }

  private showState(): void {
    this.state.textContent = this.input.value.trim() ? '(set)' : '(none)';
  }

  private async save(): Promise<void> {
    const id = this.conversationId();
    if (!id) {
      this.status.textContent = 'It will be sent with your first message.';
      return;
    }
    const response = await api(`/web/api/conversations/${encodeURIComponent(id)}`, { method: 'PATCH', body: { systemPrompt: this.input.value } });
    if (!response.ok) {
      this.status.textContent = await errorMessage(response);
      return;
    }
    const saved = (await response.json()) as { systemPrompt: string };
    this.input.value = saved.systemPrompt;
    this.showState();
    this.status.textContent = 'Saved.';
  }
}
