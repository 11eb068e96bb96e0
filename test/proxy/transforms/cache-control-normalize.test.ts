import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cacheControlNormalize } from '../../../proxy/src/transforms/cache-control-normalize.ts';
import { clone, longSessionBody } from '../helpers/long-session.ts';
import { runBuiltin } from '../helpers/run-builtin.ts';

function userMarkers(body: any): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  body.messages.forEach((m: any, i: number) => {
    if (m.role === 'user' && Array.isArray(m.content)) m.content.forEach((b: any, j: number) => b.cache_control && found.push([i, j]));
  });
  return found;
}

test('scattered user markers collapse to one on the last block of the last user message', async () => {
  const body = longSessionBody();
  assert.equal(userMarkers(body).length, 2);
  const run = await runBuiltin(cacheControlNormalize, body);
  assert.equal(run.changed, true);
  const last = body.messages.length - 1;
  assert.deepEqual(userMarkers(body), [[last, body.messages[last].content.length - 1]]);
  assert.deepEqual(body.messages[last].content.at(-1).cache_control, { type: 'ephemeral' });
  // System markers are not the user's to move.
  assert.deepEqual(body.system[2].cache_control, { type: 'ephemeral' });
});

test('markers placed differently on the next turn leave the shared history byte-identical', async () => {
  const turn = longSessionBody({ turns: 6 });
  const next = clone(turn);
  for (const message of next.messages) if (Array.isArray(message.content)) for (const block of message.content) delete block.cache_control;
  next.messages[4].content[0].cache_control = { type: 'ephemeral' };
  next.messages.push(
    { role: 'assistant', content: [{ type: 'text', text: 'Done with that.' }] },
    { role: 'user', content: [{ type: 'text', text: 'Thanks, now the tests.', cache_control: { type: 'ephemeral' } }] },
  );
  await runBuiltin(cacheControlNormalize, turn);
  await runBuiltin(cacheControlNormalize, next);
  const shared = turn.messages.length - 1;
  assert.ok(JSON.stringify(next.messages.slice(0, shared)) === JSON.stringify(turn.messages.slice(0, shared)), 'shared history differs');
});

test('no user marker means nothing to normalise; an empty last text block is skipped', async () => {
  const body = { messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] };
  assert.equal((await runBuiltin(cacheControlNormalize, body)).changed, false);

  const withEmpty = {
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'a', cache_control: { type: 'ephemeral' } }] },
      { role: 'assistant', content: [{ type: 'text', text: 'b' }] },
      { role: 'user', content: [{ type: 'text', text: 'c' }, { type: 'text', text: '' }] },
    ],
  };
  await runBuiltin(cacheControlNormalize, withEmpty);
  assert.equal((withEmpty.messages[0].content[0] as any).cache_control, undefined);
  assert.deepEqual((withEmpty.messages[2].content[0] as any).cache_control, { type: 'ephemeral' });
  assert.equal((withEmpty.messages[2].content[1] as any).cache_control, undefined);
});

test('a single marker already in place is left exactly as it is', async () => {
  const body = { messages: [{ role: 'user', content: [{ type: 'text', text: 'a', cache_control: { type: 'ephemeral', ttl: '1h' } }] }] };
  const run = await runBuiltin(cacheControlNormalize, body);
  assert.equal(run.changed, false);
  assert.deepEqual(body.messages[0].content[0].cache_control, { type: 'ephemeral', ttl: '1h' });
});
