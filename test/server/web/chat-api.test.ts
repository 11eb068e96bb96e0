// The web chat's JSON calls (app.inject): a turn streams as conversation/delta/done events and is
// kept with its tokens; the conversation's system prompt reaches providers of either protocol, and a
// Gemini provider through translation;
// regenerate replaces the last answer; conversations are listed, searched, renamed and deleted by
// their owner only; bad input gets 400 with a message saying what to change, other users' and
// unknown ids 404 alike, and calls without the page's token 403.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseSse } from '../../helpers/sse-text.ts';
import { DemoProvider } from '../../../server/providers/demo/demo-provider.ts';
import type { Operation, Provider, ProviderRequest, ProviderResponse } from '../../../server/providers/provider.ts';
import { createTestGateway, type TestGateway } from '../../helpers/test-app.ts';
import { webLogin, type WebLogin } from '../../helpers/web-login.ts';
import { FakeGemini } from '../../helpers/fake-gemini.ts';
import { GeminiProvider } from '../../../server/providers/gemini/gemini-provider.ts';

/** Serves one model with the demo's answers over one protocol, and keeps the bodies it was sent. */
class RecordingProvider implements Provider {
  readonly type = 'recording';
  readonly requests: ProviderRequest[] = [];
  readonly models;
  private readonly demo = new DemoProvider({ chunkDelayMs: 0 });
  constructor(
    readonly name: string,
    private readonly operation: Operation,
  ) {
    this.models = [{ id: name, upstreamModel: 'demo-chat', kind: 'text' as const, created: 0 }];
  }
  supports(operation: Operation): boolean {
    return operation === this.operation;
  }
  send(request: ProviderRequest): Promise<ProviderResponse> {
    this.requests.push(request);
    return this.demo.send(request);
  }
  close(): Promise<void> {
    return this.demo.close();
  }
}

const chatModel = new RecordingProvider('recorded-chat', 'chat');
const messagesModel = new RecordingProvider('recorded-messages', 'messages');
let fakeGemini: FakeGemini;
let gw: TestGateway;
let alice: WebLogin;
let bob: WebLogin;

before(async () => {
  fakeGemini = await FakeGemini.start({ apiKeys: ['web-chat-gemini-key'] });
  const gemini = new GeminiProvider({ name: 'google', baseUrl: fakeGemini.url, apiKey: 'web-chat-gemini-key', timeoutMs: 20_000, models: [{ id: 'gemini-2.5-flash', upstreamModel: 'gemini-2.5-flash', kind: 'text', created: 0 }] });
  gw = await createTestGateway({ providers: [new DemoProvider({ chunkDelayMs: 0 }), chatModel, messagesModel, gemini] });
  await gw.userWithKey('alice');
  await gw.userWithKey('bob');
  alice = await webLogin(gw.text, 'alice');
  bob = await webLogin(gw.text, 'bob');
});
after(async () => {
  await gw.close();
  await fakeGemini.close();
});

function call(who: WebLogin | undefined, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, csrf = true) {
  return gw.text.inject({
    method,
    url,
    headers: { ...(who ? { cookie: who.cookie } : {}), ...(who && csrf ? { 'x-csrf-token': who.csrf } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

interface Turn {
  conversationId: string;
  title: string;
  text: string;
  done: { stopped: boolean; usage: { inputTokens: number; outputTokens: number } };
}

async function chat(who: WebLogin, body: Record<string, unknown>): Promise<Turn> {
  const res = await call(who, 'POST', '/web/api/chat', { model: 'demo-chat', ...body });
  assert.equal(res.statusCode, 200, res.payload);
  assert.match(String(res.headers['content-type']), /^text\/event-stream/);
  const events = parseSse(res.payload);
  const data = (name: string) => events.filter((e) => e.event === name).map((e) => JSON.parse(e.data));
  const [conversation] = data('conversation');
  assert.deepEqual(data('error'), []);
  return { conversationId: conversation.id, title: conversation.title, text: data('delta').map((d) => d.text).join(''), done: data('done')[0] };
}

const errorOf = (res: { payload: string }) => (JSON.parse(res.payload) as { error: { message: string } }).error.message;

describe('a turn', () => {
  test('streams the answer, keeps both messages with the answer’s tokens, and titles the conversation in plain text', async () => {
    const turn = await chat(alice, { message: 'Explain **gateways** and `keys` briefly' });
    assert.match(turn.text, /^Demo reply to "Explain \*\*gateways\*\* and `keys` briefly"\./);
    assert.equal(turn.title, 'Explain gateways and keys briefly');
    assert.ok(turn.done.usage.outputTokens > 0);
    const stored = JSON.parse((await call(alice, 'GET', `/web/api/conversations/${turn.conversationId}`)).payload);
    assert.equal(stored.title, 'Explain gateways and keys briefly');
    assert.equal(stored.systemPrompt, '');
    assert.deepEqual(
      stored.messages.map((m: { role: string; usage?: unknown }) => [m.role, m.usage]),
      [
        ['user', undefined],
        ['assistant', turn.done.usage],
      ],
    );
  });

  for (const [model, provider] of [['recorded-chat', chatModel], ['recorded-messages', messagesModel]] as const) {
    test(`the system prompt is stored and sent first in every turn (${provider.supports('chat') ? 'chat-completions' : 'messages'} provider)`, async () => {
      provider.requests.length = 0;
      const first = await chat(alice, { model, message: 'Hello', systemPrompt: '  Answer like a pirate.  ' });
      await chat(alice, { model, conversationId: first.conversationId, message: 'And then?' });
      const sent = provider.requests.map((r) => r.json);
      assert.equal(sent.length, 2);
      for (const body of sent) {
        if (provider.supports('chat')) assert.deepEqual((body.messages as unknown[])[0], { role: 'system', content: 'Answer like a pirate.' });
        else {
          assert.equal(body.system, 'Answer like a pirate.');
          assert.ok((body.messages as Array<{ role: string }>).every((m) => m.role !== 'system'));
        }
      }
      assert.equal(JSON.parse((await call(alice, 'GET', `/web/api/conversations/${first.conversationId}`)).payload).systemPrompt, 'Answer like a pirate.');

      const patched = await call(alice, 'PATCH', `/web/api/conversations/${first.conversationId}`, { systemPrompt: '' });
      assert.equal(patched.statusCode, 200, patched.payload);
      await chat(alice, { model, conversationId: first.conversationId, message: 'Plain now' });
      const last = provider.requests.at(-1)!.json;
      assert.equal(last.system, undefined);
      assert.ok((last.messages as Array<{ role: string }>).every((m) => m.role !== 'system'), 'a removed system prompt is no longer sent');
    });
  }

  test('a Gemini model answers through the translation: its request is a Gemini one with the system prompt as systemInstruction, the answer streams, its tokens are kept', async () => {
    fakeGemini.script({ text: 'Ahoy from Gemini, matey.', usage: { promptTokenCount: 21, candidatesTokenCount: 7 } });
    const before = fakeGemini.requests.length;
    const turn = await chat(alice, { model: 'gemini-2.5-flash', message: 'Hello', systemPrompt: 'Answer like a pirate.' });
    assert.equal(turn.text, 'Ahoy from Gemini, matey.');
    assert.deepEqual(turn.done.usage, { inputTokens: 21, outputTokens: 7 });
    const sent = fakeGemini.requests.slice(before);
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.action, 'streamGenerateContent');
    assert.equal(sent[0]!.model, 'gemini-2.5-flash');
    assert.deepEqual(sent[0]!.body.systemInstruction, { parts: [{ text: 'Answer like a pirate.' }] });
    assert.deepEqual(sent[0]!.body.contents, [{ role: 'user', parts: [{ text: 'Hello' }] }]);
    const kept = JSON.parse((await call(alice, 'GET', `/web/api/conversations/${turn.conversationId}`)).payload);
    assert.deepEqual(kept.messages.map((m: { role: string; content: string }) => [m.role, m.content]), [['user', 'Hello'], ['assistant', 'Ahoy from Gemini, matey.']]);
  });

  test('a Gemini model that answers with an error: one error event naming it', async () => {
    fakeGemini.script({ error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } });
    const res = await call(alice, 'POST', '/web/api/chat', { model: 'gemini-2.5-flash', message: 'Still there?' });
    assert.equal(res.statusCode, 200);
    const errors = parseSse(res.payload).filter((e) => e.event === 'error').map((e) => JSON.parse(e.data).message as string);
    assert.equal(errors.length, 1, res.payload);
    assert.match(errors[0]!, /overloaded|503/i);
  });

  test('regenerate answers the last question again and replaces the last answer', async () => {
    chatModel.requests.length = 0;
    const first = await chat(alice, { model: 'recorded-chat', message: 'First question' });
    await chat(alice, { model: 'recorded-chat', conversationId: first.conversationId, message: 'Second question' });
    const again = await chat(alice, { model: 'recorded-chat', conversationId: first.conversationId, regenerate: true });
    assert.match(again.text, /^Demo reply to "Second question"/);
    const sent = chatModel.requests.at(-1)!.json.messages as Array<{ role: string; content: string }>;
    assert.deepEqual(sent.map((m) => m.role), ['user', 'assistant', 'user'], 'the old answer is not sent back');
    const stored = JSON.parse((await call(alice, 'GET', `/web/api/conversations/${first.conversationId}`)).payload);
    assert.deepEqual(stored.messages.map((m: { role: string }) => m.role), ['user', 'assistant', 'user', 'assistant'], 'one answer replaced, none added');
  });

  test('bad input: 400 with a message that says what to change; nothing is stored', async () => {
    const before = JSON.parse((await call(alice, 'GET', '/web/api/conversations')).payload).conversations.length;
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ message: '   ' }, /Write a message first/],
      [{ message: 'x'.repeat(32_001) }, /at most 32,000 characters; this one has 32,001/],
      [{ message: 'hi', systemPrompt: 'p'.repeat(8001) }, /A system prompt has at most 8,000 characters; this one has 8,001/],
      [{ regenerate: true }, /needs the conversation/],
      [{ message: 42 }, /message must be string/],
    ];
    for (const [body, message] of cases) {
      const res = await call(alice, 'POST', '/web/api/chat', { model: 'demo-chat', ...body });
      assert.equal(res.statusCode, 400, JSON.stringify(body).slice(0, 80));
      assert.match(errorOf(res), message);
    }
    const unknownModel = await call(alice, 'POST', '/web/api/chat', { model: 'no-such-model', message: 'hi' });
    assert.equal(unknownModel.statusCode, 404);
    assert.match(errorOf(unknownModel), /The model "no-such-model" is not available/);
    assert.equal(JSON.parse((await call(alice, 'GET', '/web/api/conversations')).payload).conversations.length, before);

    const { conversationId } = await chat(alice, { message: 'Only a question' });
    const both = await call(alice, 'POST', '/web/api/chat', { model: 'demo-chat', conversationId, regenerate: true, message: 'x' });
    assert.equal(both.statusCode, 400);
    assert.match(errorOf(both), /either a message or regenerate/);
  });

  test('another user’s conversation or an unknown id: 404 alike, and nothing is added to it', async () => {
    const { conversationId } = await chat(alice, { message: 'Private to alice' });
    for (const id of [conversationId, 'conv_doesnotexist']) {
      for (const body of [{ message: 'sneaky' }, { regenerate: true }]) {
        const res = await call(bob, 'POST', '/web/api/chat', { model: 'demo-chat', conversationId: id, ...body });
        assert.equal(res.statusCode, 404);
        assert.equal(errorOf(res), 'No such conversation among yours.');
      }
    }
    const stored = JSON.parse((await call(alice, 'GET', `/web/api/conversations/${conversationId}`)).payload);
    assert.equal(stored.messages.length, 2);
  });

  test('without the page’s token: 403, nothing stored; without a session: 401', async () => {
    const res = await call(alice, 'POST', '/web/api/chat', { model: 'demo-chat', message: 'no token' }, false);
    assert.equal(res.statusCode, 403);
    assert.match(errorOf(res), /security token/);
    const list = JSON.parse((await call(alice, 'GET', '/web/api/conversations?q=no%20token')).payload);
    assert.deepEqual(list.conversations, []);
    assert.equal((await call(undefined, 'POST', '/web/api/chat', { model: 'demo-chat', message: 'x' })).statusCode, 401);
  });
});

describe('conversations', () => {
  test('search finds titles and message text of the user’s own conversations only', async () => {
    const mine = await chat(alice, { message: 'Tell me about zebras' });
    await chat(alice, { conversationId: mine.conversationId, message: 'and their STRIPES' });
    await chat(bob, { message: 'stripes of bob' });
    const search = async (who: WebLogin, q: string) => {
      const res = await call(who, 'GET', `/web/api/conversations?q=${encodeURIComponent(q)}`);
      assert.equal(res.statusCode, 200, res.payload);
      return (JSON.parse(res.payload).conversations as Array<{ id: string; title: string }>).map((c) => c.title);
    };
    assert.deepEqual(await search(alice, 'ZEBRA'), ['Tell me about zebras']);
    assert.deepEqual(await search(alice, 'stripes'), ['Tell me about zebras'], 'message text; bob’s conversation stays out');
    assert.deepEqual(await search(bob, 'zebras'), []);
    assert.deepEqual(await search(alice, 'nothing like this'), []);
    const long = await call(alice, 'GET', `/web/api/conversations?q=${'x'.repeat(201)}`);
    assert.equal(long.statusCode, 400);
    assert.match(errorOf(long), /A search has at most 200 characters/);
  });

  test('rename: the title is trimmed to one line; empty or oversize titles are refused', async () => {
    const { conversationId } = await chat(alice, { message: 'To be renamed' });
    const url = `/web/api/conversations/${conversationId}`;
    const ok = await call(alice, 'PATCH', url, { title: '  Trip\nplanning  ' });
    assert.equal(ok.statusCode, 200, ok.payload);
    assert.equal(JSON.parse(ok.payload).title, 'Trip planning');
    assert.equal(JSON.parse((await call(alice, 'GET', url)).payload).title, 'Trip planning');
    const cases: Array<[unknown, RegExp]> = [
      [{ title: '   ' }, /A title cannot be empty/],
      [{ title: 't'.repeat(121) }, /A title has at most 120 characters; this one has 121/],
      [{ systemPrompt: 's'.repeat(8001) }, /A system prompt has at most 8,000 characters/],
      [{}, /Send a new title or system prompt/],
      [{ title: 7 }, /title must be string/],
    ];
    for (const [body, message] of cases) {
      const res = await call(alice, 'PATCH', url, body);
      assert.equal(res.statusCode, 400, JSON.stringify(body).slice(0, 60));
      assert.match(errorOf(res), message);
    }
    assert.equal(JSON.parse((await call(alice, 'GET', url)).payload).title, 'Trip planning', 'refused changes changed nothing');
  });

  test('another user’s conversation: read, rename and delete answer 404 like unknown ids; without the token 403', async () => {
    const { conversationId } = await chat(alice, { message: 'Alice only' });
    const url = `/web/api/conversations/${conversationId}`;
    for (const target of [url, '/web/api/conversations/conv_doesnotexist']) {
      for (const [method, body] of [['GET', undefined], ['PATCH', { title: 'mine now' }], ['DELETE', undefined]] as const) {
        const res = await call(bob, method, target, body);
        assert.equal(res.statusCode, 404, `${method} ${target}`);
        assert.equal(errorOf(res), 'No such conversation among yours.');
      }
    }
    assert.equal((await call(alice, 'PATCH', url, { title: 'x' }, false)).statusCode, 403);
    assert.equal((await call(alice, 'DELETE', url, undefined, false)).statusCode, 403);
    const stored = JSON.parse((await call(alice, 'GET', url)).payload);
    assert.equal(stored.title, 'Alice only');
  });

  test('delete removes the conversation and its messages', async () => {
    const { conversationId } = await chat(alice, { message: 'Short-lived' });
    const url = `/web/api/conversations/${conversationId}`;
    assert.equal((await call(alice, 'DELETE', url)).statusCode, 204);
    assert.equal((await call(alice, 'GET', url)).statusCode, 404);
    assert.equal((await call(alice, 'DELETE', url)).statusCode, 404);
    const list = JSON.parse((await call(alice, 'GET', '/web/api/conversations?q=Short-lived')).payload);
    assert.deepEqual(list.conversations, []);
  });
});
