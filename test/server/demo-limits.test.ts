// The demo provider's CPU-heavy work stays bounded: a pixel budget per images request, renders that
// yield to the event loop, and token counts of huge prompts that do not grow with their size.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DemoImages } from '../../server/providers/demo/demo-images.ts';
import { countTokens } from '../../server/providers/demo/demo-text.ts';

test('an images request over the pixel budget is a 400 naming the budget; one within it renders PNGs', async () => {
  const images = new DemoImages({ pixelBudget: 512 * 512 * 2, concurrency: 1 });
  const over = await images.answer({ prompt: 'sky', n: 3, size: '512x512' });
  assert.equal(over.status, 400);
  const error = (over.body as { error: { message: string; param: string } }).error;
  assert.equal(error.param, 'size');
  assert.match(error.message, /524,288 pixels per request/);
  const ok = await images.answer({ prompt: 'sky', n: 2, size: '512x512' });
  assert.equal(ok.status, 200);
  const data = (ok.body as { data: Array<{ b64_json: string }> }).data;
  assert.equal(data.length, 2);
  const png = Buffer.from(data[0]!.b64_json, 'base64');
  assert.deepEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')]);
  assert.equal(png.readUInt32BE(16), 512);
});

test('n outside 1..4 and unknown sizes are refused with the field named', async () => {
  const images = new DemoImages();
  for (const [body, param] of [[{ prompt: 'x', n: 0 }, 'n'], [{ prompt: 'x', n: 5 }, 'n'], [{ prompt: 'x', size: '10x10' }, 'size'], [{ prompt: 'x', size: 'huge' }, 'size']] as const) {
    const answer = await images.answer(body as Record<string, unknown>);
    assert.equal(answer.status, 400, JSON.stringify(body));
    assert.equal((answer.body as { error: { param: string } }).error.param, param);
  }
});

test('a large render gives the event loop back many times while it works', async () => {
  let done = false;
  let turns = 0;
  const render = new DemoImages().answer({ prompt: 'big', n: 1, size: '2048x2048' }).then((answer) => {
    done = true;
    return answer;
  });
  // Other work (here: a chain of immediates) gets turns between the render's slices.
  await new Promise<void>((resolve) => {
    const tick = () => {
      if (done) return resolve();
      turns += 1;
      setImmediate(tick);
    };
    setImmediate(tick);
  });
  assert.equal((await render).status, 200);
  assert.ok(turns >= 32, `other work ran ${turns} times during one 2048x2048 render`);
});

test('token counts of huge prompts are estimated from a prefix: same order of size, bounded work', () => {
  const small = 'alpha beta, gamma. ';
  assert.equal(countTokens(small), 5);
  const huge = small.repeat(600_000);
  const counted = countTokens(huge);
  assert.ok(Math.abs(counted - 5 * 600_000) / (5 * 600_000) < 0.01, `${counted}`);
});
