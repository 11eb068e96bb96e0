// The chat's message list: one turn per message (the bubble, then a line under it with the
// answer's token count and its buttons), markdown rendered for answers (at most once per frame
// while they stream), and the copy buttons of messages and code blocks.
import { copyFromButton } from './copy-text.ts';
import { element } from './dom.ts';
import { renderMarkdown } from './markdown.ts';

export type Role = 'user' | 'assistant';

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

export class Turn {
  readonly node: HTMLElement;
  private readonly bubble: HTMLElement;
  private readonly meta: HTMLElement;
  private readonly tokens: HTMLElement;
  private text = '';
  private stopped = false;
  private pending = 0;

  constructor(
    readonly role: Role,
    private readonly onChange: () => void,
  ) {
    this.bubble = element('div', { class: `msg ${role}` });
    this.tokens = element('span', { class: 'tokens' });
    const copy = element('button', { type: 'button', class: 'copy-message small', text: 'Copy', 'aria-label': role === 'user' ? 'Copy message' : 'Copy answer' });
    copy.addEventListener('click', () => void copyFromButton(copy, this.text));
    this.meta = element('div', { class: 'msg-meta' }, [this.tokens, copy]);
    this.node = element('article', { class: `turn ${role}`, 'aria-label': role === 'user' ? 'You' : 'Answer' }, [this.bubble, this.meta]);
  }

  get content(): string {
    return this.text;
  }

  /** The whole text so far; answers are rendered on the next frame, so fast streams cost one render per frame. */
  setText(text: string): void {
    this.text = text;
    if (this.role === 'user') {
      this.bubble.textContent = text;
      return;
    }
    if (this.pending) return;
    this.pending = requestAnimationFrame(() => this.render());
  }

  /** Renders now (the last delta, or a stored message). */
  render(): void {
    if (this.pending) cancelAnimationFrame(this.pending);
    this.pending = 0;
    if (this.role === 'user') this.bubble.textContent = this.text;
    else this.bubble.innerHTML = renderMarkdown(this.text);
    if (this.stopped) this.bubble.append(element('div', { class: 'stopped', text: '(stopped)' }));
    this.onChange();
  }

  markStopped(): void {
    this.stopped = true;
    this.render();
  }

  showError(message: string): void {
    this.render();
    this.bubble.append(element('p', { class: 'msg-error', role: 'alert', text: message }));
  }

  setBusy(busy: boolean): void {
    if (busy) this.bubble.setAttribute('aria-busy', 'true');
    else this.bubble.removeAttribute('aria-busy');
  }

  setUsage(usage: Usage | undefined): void {
    if (!usage || usage.outputTokens <= 0) {
      this.tokens.textContent = '';
      return;
    }
    this.tokens.textContent = `${usage.outputTokens.toLocaleString()} tokens`;
    this.tokens.title = `${usage.inputTokens.toLocaleString()} tokens in, ${usage.outputTokens.toLocaleString()} out`;
  }

  /** Adds (or with undefined removes) a Regenerate button on this answer. */
  setRegenerate(handler: (() => void) | undefined): void {
    this.meta.querySelector('.regenerate')?.remove();
    if (handler) this.meta.append(element('button', { type: 'button', class: 'regenerate small', text: 'Regenerate', onclick: handler }));
  }
}

export class MessageList {
  private turns: Turn[] = [];
  /** Follow new text while the reader is at the end; leave them be once they scroll up to read. */
  private following = true;

  constructor(private readonly container: HTMLElement) {
    container.addEventListener('scroll', () => {
      this.following = container.scrollHeight - container.scrollTop - container.clientHeight < 48;
    });
    container.addEventListener('click', (event) => {
      const button = (event.target as HTMLElement).closest<HTMLElement>('.copy-code');
      const code = button?.closest('.code-block')?.querySelector('pre code');
      if (button && code) void copyFromButton(button, code.textContent ?? '');
    });
  }

  clear(): void {
    this.turns = [];
    this.following = true;
    this.container.replaceChildren();
  }

  add(role: Role, text: string): Turn {
    const turn = new Turn(role, () => this.scrollToEnd());
    turn.setText(text);
    turn.render();
    this.turns.push(turn);
    this.container.append(turn.node);
    if (role === 'user') this.following = true;
    this.scrollToEnd();
    return turn;
  }

  last(): Turn | undefined {
    return this.turns.at(-1);
  }

  removeLast(): void {
    this.turns.pop()?.node.remove();
  }

  /** Regenerate is offered on the last turn only (an answer, or a question left without one). */
  offerRegenerate(handler: (() => void) | undefined): void {
    for (const turn of this.turns) turn.setRegenerate(undefined);
    this.turns.at(-1)?.setRegenerate(handler);
  }

  private scrollToEnd(): void {
    if (this.following) this.container.scrollTop = this.container.scrollHeight;
  }
}
