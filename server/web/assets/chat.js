// Chat app: model picker, streamed answers rendered as they arrive, stop, new conversation,
// and the per-user history kept on the server.
import { api, element, errorMessage } from './common.js';
import { renderMarkdown } from './markdown.js';
import { readEvents } from './sse-reader.js';

const list = document.getElementById('conversation-list');
const messages = document.getElementById('messages');
const form = document.getElementById('chat-form');
const prompt = document.getElementById('prompt');
const model = document.getElementById('model');
const send = document.getElementById('send');
const stop = document.getElementById('stop');
const status = document.getElementById('chat-status');

let conversationId = null;
let running = null;

function addMessage(role, text, stopped = false) {
  const node = element('div', { class: `msg ${role}` });
  setContent(node, role, text, stopped);
  messages.append(node);
  messages.scrollTop = messages.scrollHeight;
  return node;
}

function setContent(node, role, text, stopped) {
  if (role === 'assistant') node.innerHTML = renderMarkdown(text);
  else node.textContent = text;
  if (stopped) node.append(element('div', { class: 'stopped', text: '(stopped)' }));
}

async function loadConversations() {
  const response = await api('/web/api/conversations');
  if (!response.ok) return;
  const { conversations } = await response.json();
  list.replaceChildren(
    ...conversations.map((c) =>
      element('li', {}, [
        element('button', { type: 'button', title: c.title, text: c.title, 'data-id': c.id, 'aria-current': String(c.id === conversationId), onclick: () => openConversation(c.id) }),
      ]),
    ),
  );
}

async function openConversation(id) {
  if (running) return;
  const response = await api(`/web/api/conversations/${encodeURIComponent(id)}`);
  if (!response.ok) {
    status.textContent = await errorMessage(response);
    return;
  }
  const conversation = await response.json();
  conversationId = conversation.id;
  if ([...model.options].some((o) => o.value === conversation.model)) model.value = conversation.model;
  messages.replaceChildren();
  for (const m of conversation.messages) addMessage(m.role, m.content, m.stopped);
  status.textContent = '';
  await loadConversations();
}

function newConversation() {
  if (running) running.abort();
  conversationId = null;
  messages.replaceChildren();
  status.textContent = '';
  prompt.focus();
  loadConversations();
}

async function submit() {
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
    for await (const { event, data } of readEvents(response)) {
      if (event === 'conversation') conversationId = data.id;
      else if (event === 'delta') {
        content += data.text;
        setContent(answer, 'assistant', content, false);
        messages.scrollTop = messages.scrollHeight;
      } else if (event === 'error') status.textContent = data.message;
      else if (event === 'done') status.textContent = status.textContent === 'Answering…' ? `${data.usage.outputTokens} tokens` : status.textContent;
    }
  } catch (error) {
    if (error.name === 'AbortError') {
      setContent(answer, 'assistant', content, true);
      status.textContent = 'Stopped.';
    } else {
      status.textContent = error.message;
    }
  } finally {
    answer.removeAttribute('aria-busy');
    running = null;
    send.disabled = false;
    stop.disabled = true;
    loadConversations();
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  submit();
});
prompt.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    submit();
  }
});
stop.addEventListener('click', () => running?.abort());
document.getElementById('new-chat').addEventListener('click', newConversation);
loadConversations();
