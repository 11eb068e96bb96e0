// The demo model calls a tool exactly when a request forces one, in every protocol (chat-completions
// required or a named function, messages any or tool, Gemini ANY, Responses required), JSON and
// stream, and answers in text once the conversation ends with the tool's result.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseSse } from '../helpers/sse-text.ts';
import { createTestGateway, type TestGateway } from '../helpers/test-app.ts';

const WEATHER_SCHEMA = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city', 'days'] };

describe('demo tool calls', () => {
  let gw: TestGateway;
  let key: string;
  before(async () => {
    gw = await createTestGateway();
    key = (await gw.userWithKey()).key;
  });
  after(() => gw.close());

  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    gw.text.inject({ method: 'POST', url, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, payload: JSON.stringify(body) });

  const chatTools = [
    { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } } },
    { type: 'function', function: { name: 'get_weather', parameters: WEATHER_SCHEMA } },
  ];

  test('chat-completions: required calls the first function, a named choice that one; auto answers text', async () => {
    const base = { model: 'demo-chat', messages: [{ role: 'user', content: 'Weather in Oslo?' }], tools: chatTools };
    const required = (await post('/v1/chat/completions', { ...base, tool_choice: 'required' })).json();
    assert.equal(required.choices[0].finish_reason, 'tool_calls');
    assert.equal(required.choices[0].message.tool_calls[0].function.name, 'lookup');
    assert.deepEqual(JSON.parse(required.choices[0].message.tool_calls[0].function.arguments), { q: 'Weather in Oslo?' });
    const named = (await post('/v1/chat/completions', { ...base, tool_choice: { type: 'function', function: { name: 'get_weather' } } })).json();
    assert.deepEqual(JSON.parse(named.choices[0].message.tool_calls[0].function.arguments), { city: 'Weather in Oslo?', days: 16 });
    assert.ok(named.usage.completion_tokens > 0);
    const auto = (await post('/v1/chat/completions', { ...base, tool_choice: 'auto' })).json();
    assert.equal(auto.choices[0].finish_reason, 'stop');
    assert.match(auto.choices[0].message.content, /Demo reply/);
  });

  test('chat-completions stream: the call arrives in pieces that join to the arguments; the tool result is answered in text', async () => {
    const body = { model: 'demo-chat', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Oslo' }], tools: chatTools, tool_choice: 'required' };
    const events = parseSse((await post('/v1/chat/completions', body)).body).map((e) => e.data).filter((d) => d !== '[DONE]').map((d) => JSON.parse(d));
    const deltas = events.flatMap((e) => e.choices?.[0]?.delta?.tool_calls ?? []);
    assert.equal(deltas[0].function.name, 'lookup');
    assert.ok(deltas.length >= 2);
    assert.deepEqual(JSON.parse(deltas.map((d: any) => d.function.arguments).join('')), { q: 'Oslo' });
    assert.equal(events.find((e) => e.choices?.[0]?.finish_reason)?.choices[0].finish_reason, 'tool_calls');
    assert.ok(events.at(-1).usage.completion_tokens > 0);

    const answered = await post('/v1/chat/completions', {
      ...body,
      stream: false,
      messages: [...body.messages, { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"q":"Oslo"}' } }] }, { role: 'tool', tool_call_id: 'c1', content: 'sunny' }],
    });
    assert.equal(answered.json().choices[0].finish_reason, 'stop');
  });

  const messagesTools = [
    { name: 'lookup', input_schema: { type: 'object', properties: { q: { type: 'string' } } } },
    { name: 'get_weather', input_schema: WEATHER_SCHEMA },
  ];

  test('messages: any calls the first tool, tool the named one, JSON and stream; a tool_result turn gets text', async () => {
    const base = { model: 'demo-chat', max_tokens: 100, messages: [{ role: 'user', content: 'Weather in Oslo?' }], tools: messagesTools };
    const any = (await post('/v1/messages', { ...base, tool_choice: { type: 'any' } })).json();
    assert.equal(any.stop_reason, 'tool_use');
    assert.equal(any.content[0].type, 'tool_use');
    assert.equal(any.content[0].name, 'lookup');
    assert.match(any.content[0].id, /^toolu_/);
    const named = (await post('/v1/messages', { ...base, stream: true, tool_choice: { type: 'tool', name: 'get_weather' } })).body;
    const events = parseSse(named).map((e) => JSON.parse(e.data));
    const start = events.find((e) => e.type === 'content_block_start');
    assert.equal(start.content_block.name, 'get_weather');
    const json = events.filter((e) => e.delta?.type === 'input_json_delta').map((e) => e.delta.partial_json).join('');
    assert.deepEqual(JSON.parse(json), { city: 'Weather in Oslo?', days: 16 });
    assert.equal(events.find((e) => e.type === 'message_delta').delta.stop_reason, 'tool_use');
    const answered = (await post('/v1/messages', {
      ...base,
      tool_choice: { type: 'any' },
      messages: [...base.messages, { role: 'assistant', content: [any.content[0]] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: any.content[0].id, content: 'sunny' }] }],
    })).json();
    assert.equal(answered.stop_reason, 'end_turn');
    assert.equal(answered.content[0].type, 'text');
  });

  test('Gemini ANY (through the canonical model) gets a functionCall whose id the functionResponse can name', async () => {
    const body = {
      contents: [{ role: 'user', parts: [{ text: 'Weather in Oslo?' }] }],
      tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' }, days: { type: 'INTEGER' } }, required: ['city', 'days'] } }] }],
      toolConfig: { functionCallingConfig: { mode: 'ANY' } },
    };
    const first = await post('/v1beta/models/demo-chat:generateContent', body, { authorization: '', 'x-goog-api-key': key });
    assert.equal(first.statusCode, 200, first.body);
    const call = first.json().candidates[0].content.parts[0].functionCall;
    assert.equal(call.name, 'get_weather');
    assert.deepEqual(call.args, { city: 'Weather in Oslo?', days: 16 });
    const second = await post(
      '/v1beta/models/demo-chat:generateContent',
      { ...body, contents: [...body.contents, { role: 'model', parts: [{ functionCall: call }] }, { role: 'user', parts: [{ functionResponse: { id: call.id, name: 'get_weather', response: { output: 'sunny' } } }] }] },
      { authorization: '', 'x-goog-api-key': key },
    );
    assert.equal(second.statusCode, 200, second.body);
    assert.ok(second.json().candidates[0].content.parts[0].text.length > 0);
  });
});
