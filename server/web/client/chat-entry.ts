// Chat app: model picker (each conversation remembers its model; new ones start with the last one
// used), streamed answers rendered as markdown as they arrive, Stop, Regenerate, a system prompt
// per conversation, and the history kept on the server (search, rename, delete).
import { api, errorMessage } from './api.ts';
import { ConversationHistory } from './chat-history.ts';
import { MessageList, type Role, type Turn, type Usage } from './chat-messages.ts';
import { SystemPrompt } from './chat-system-prompt.ts';
import { byId } from './dom.ts';
import { readJsonEvents } from './sse-events.ts';

const form = byId<HTMLFormElement>('chat-form');
const prompt = byId<HTMLTextAreaElement>('prompt');
const model = byId<HTMLSelectElement>('model');
const send = byId<HTMLButtonElement>('send');
const stop = byId<HTMLButtonElement>('stop');
const status = byId('chat-status');
const LAST_MODEL = 'gwctl.chat.model';

interface StoredMessage {
  role: Role;
  content: string;
  stopped: boolean;
  usage?: Usage;
}
interface StoredConversation {
  id: string;
  model: string;
  systemPrompt: string;
  messages: StoredMessage[];
}

let conversationId: string | null = null;
let running: AbortController | null = null;
const messages = new MessageList(byId('messages'));
const systemPrompt = new SystemPrompt(() => conversationId);
const history = new ConversationHistory(
  byId<HTMLUListElement>('conversation-list'),
  byId('list-note'),
  byId<HTMLInputElement>('search'),
  Number(document.querySelector<HTMLElement>('.chat-layout')?.dataset.maxTitle ?? 120),
  { open: (id) => void openConversation(id), deletedCurrent: () => newConversation() },
);

function chooseModel(id: string | null): void {
  if (id && [...model.options].some((o) => o.value === id)) model.value = id;
}

async function openConversation(id: string): Promise<void> {
  if (running) return;
  const response = await api(`/web/api/conversations/${encodeURIComponent(id)}`);
  if (!response.ok) {
    status.textContent = await errorMessage(response);
    return;
  }
  const conversation = (await response.json()) as StoredConversation;
  conversationId = conversation.id;
  chooseModel(conversation.model);
  systemPrompt.show(conversation.systemPrompt);
  messages.clear();
  for (const m of conversation.messages) {
    const turn = messages.add(m.role, m.content);
    if (m.stopped) turn.markStopped();
    turn.setUsage(m.usage);
  }
  messages.offerRegenerate(regenerate);
  status.textContent = '';
  history.setCurrent(conversationId);
}

function newConversation(): void {
  running?.abort();
  conversationId = null;
  messages.clear();
  systemPrompt.show('');
  status.textContent = '';
  history.setCurrent(null);
  prompt.focus();
}

/** Streams one answer into `answer`; the request either sends a message or regenerates. */
async function stream(answer: Turn, body: Record<string, unknown>): Promise<void> {
  let content = '';
  let failed = false;
  let stopped = false;
  running = new AbortController();
  send.disabled = true;
  stop.disabled = false;
  messages.offerRegenerate(undefined);
  answer.setBusy(true);
  status.textContent = 'Answering…';
  try {
    const response = await api('/web/api/chat', { method: 'POST', body: { conversationId, model: model.value, systemPrompt: systemPrompt.value, ...body }, signal: running.signal });
    if (!response.ok) throw new Error(await errorMessage(response));
    for await (const { event, data } of readJsonEvents(response)) {
      const d = data as { id: string; text: string; message: string; usage: Usage };
      if (event === 'conversation') {
        conversationId = d.id;
        history.setCurrent(conversationId);
      } else if (event === 'delta') {
        content += d.text;
        answer.setText(content);
      } else if (event === 'error') {
        failed = true;
        answer.showError(d.message);
        status.textContent = d.message;
      } else if (event === 'done') answer.setUsage(d.usage);
    }
    answer.render();
    if (!failed) status.textContent = '';
  } catch (error) {
    if ((error as Error).name === 'AbortError') {
      stopped = true;
      answer.markStopped();
      status.textContent = 'Stopped.';
    } else {
      answer.showError((error as Error).message);
      status.textContent = (error as Error).message;
    }
  } finally {
    answer.setBusy(false);
    running = null;
    send.disabled = false;
    stop.disabled = true;
    messages.offerRegenerate(conversationId ? regenerate : undefined);
    void history.load();
  }
  // A retry that produced no text left the previous answer in place on the server: show it again.
  if (body.regenerate && content === '' && !stopped && conversationId) {
    const problem = status.textContent ?? '';
    await openConversation(conversationId);
    status.textContent = `${problem} The previous answer was kept.`.trim();
  }
}

async function submit(): Promise<void> {
  const text = prompt.value.trim();
  if (!text || running) return;
  prompt.value = '';
  localStorage.setItem(LAST_MODEL, model.value);
  messages.add('user', text);
  await stream(messages.add('assistant', ''), { message: text });
}

function regenerate(): void {
  if (running || !conversationId) return;
  if (messages.last()?.role === 'assistant') messages.removeLast();
  void stream(messages.add('assistant', ''), { regenerate: true });
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
chooseModel(localStorage.getItem(LAST_MODEL));
systemPrompt.show('');
void history.load();
