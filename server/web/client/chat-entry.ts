// Chat app: model picker, streamed answers rendered as they arrive, stop, new conversation,
// and the per-user history kept on the server.
import { api, errorMessage } from './api.ts';
import { byId, element } from './dom.ts';
import { renderMarkdown } from './markdown.ts';
import { readJsonEvents } from './sse-events.ts';

const list = byId<HTMLUListElement>('conversation-list');
const messages = byId('messages');
const form = byId<HTMLFormElement>('chat-form');
const prompt = byId<HTMLTextAreaElement>('prompt');
const model = byId<HTMLSelectElement>('model');
const send = byId<HTMLButtonElement>('send');
const stop = byId<HTMLButtonElement>('stop');
const status = byId('chat-status');

interface ConversationSummary {
  id: string;
  title: string;
}
interface StoredMessage {
  role: 'user' | 'assistant';
  content: string;
  stopped: boolean;
}

let conversationId: string | null = null;
let running: AbortController | null = null;

function addMessage(role: string, text: string, stopped = false): HTMLElement {
  const node = element('div', { class: `msg ${role}` });
  setContent(node, role, text, stopped);
  messages.append(node);
  messages.scrollTop = messages.scrollHeight;
  return node;
}

function setContent(node: HTMLElement, role: string, text: string, stopped: boolean): void {
  if (role === 'assistant') node.innerHTML = renderMarkdown(text);
  else node.textContent = text;
  if (stopped) node.append(element('div', { class: 'stopped', text: '(stopped)' }));
}

async function loadConversations(): Promise<void> {
  const response = await api('/web/api/conversations');
  if (!response.ok) return;
  const { conversations } = (await response.json()) as { conversations: ConversationSummary[] };
  list.replaceChildren(
    ...conversations.map((c) =>
      element('li', {}, [
        element('button', { type: 'button', title: c.title, text: c.title, 'data-id': c.id, 'aria-current': String(c.id === conversationId), onclick: () => void openConversation(c.id) }),
      ]),
    ),
  );
}

async function openConversation(id: string): Promise<void> {
  if (running) return;
  const response = await api(`/web/api/conversations/${encodeURIComponent(id)}`);
  if (!response.ok) {
    status.textContent = await errorMessage(response);
    return;
  }
  const conversation = (await response.json()) as { id: string; model: string; messages: StoredMessage[] };
  conversationId = conversation.id;
  if ([...model.options].some((o) => o.value === conversation.model)) model.value = conversation.model;
  messages.replaceChildren();
  for (const m of conversation.messages) addMessage(m.role, m.content, m.stopped);
  status.textContent = '';
  await loadConversations();
}

function newConversation(): void {
  running?.abort();
  conversationId = null;
  messages.replaceChildren();
  status.textContent = '';
  prompt.focus();
  void loadConversations();
}

async function submit(): Promise<void> {
  const text = prompt.value.trim();
  if (!text || running) return;
  prompt.value = '';
  addMessage('user', text);
  const answer = addMessage('assistant', '');
  answer.setAttribute('aria-busy', 'true');
  let content = '';
  running = new AbortController();
  send.disabled = true;
  stop.disabled = false;
  status.textContent = 'Answering…';
  try {
    const response = await api('/web/api/chat', { method: 'POST', body: { conversationId, model: model.value, message: text }, signal: running.signal });
    if (!response.ok) throw new Error(await errorMessage(response));
    for await (const { event, data } of readJsonEvents(response)) {
      const d = data as { id: string; text: string; message: string; usage: { outputTokens: number } };
      if (event === 'conversation') conversationId = d.id;
      else if (event === 'delta') {
        content += d.text;
        setContent(answer, 'assistant', content, false);
        messages.scrollTop = messages.scrollHeight;
      } else if (event === 'error') status.textContent = d.message;
      else if (event === 'done') status.textContent = status.textContent === 'Answering…' ? `${d.usage.outputTokens} tokens` : status.textContent;
    }
  } catch (error) {
    if ((error as Error).name === 'AbortError') {
      setContent(answer, 'assistant', content, true);
      status.textContent = 'Stopped.';
    } else {
      status.textContent = (error as Error).message;
    }
  } finally {
    answer.removeAttribute('aria-busy');
    running = null;
    send.disabled = false;
    stop.disabled = true;
    void loadConversations();
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  void submit();
});
prompt.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    void submit();
  }
});
stop.addEventListener('click', () => running?.abort());
byId('new-chat').addEventListener('click', newConversation);
void loadConversations();
