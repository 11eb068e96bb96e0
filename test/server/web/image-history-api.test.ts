// The images app's JSON API through app.inject: drawing saves to the history; list, fetch, download
// and delete reach only the owner's pictures; bad inputs get 400/401/403/404 with a message.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestGateway, type TestGateway } from '../../helpers/test-app.ts';
import { webLogin, type WebLogin } from '../../helpers/web-login.ts';

let gw: TestGateway;
let alice: WebLogin;
let bob: WebLogin;

before(async () => {
  gw = await createTestGateway();
  await gw.userWithKey('alice');
  await gw.userWithKey('bob');
  alice = await webLogin(gw.text, 'alice');
  bob = await webLogin(gw.text, 'bob');
});
after(async () => {
  await gw?.close();
});

const as = (who: WebLogin, extra: Record<string, string> = {}) => ({ cookie: who.cookie, 'x-csrf-token': who.csrf, ...extra });

async function draw(who: WebLogin, body: Record<string, unknown>) {
  return gw.text.inject({ method: 'POST', url: '/web/api/images', headers: as(who), payload: body });
}

function errorText(payload: string): string {
  return String(JSON.parse(payload).error?.message ?? '');
}

test('the answer waits until the drawing\'s usage is in the usage journal', async () => {
  const appended: unknown[] = [];
  const waiting: Array<() => void> = [];
  const journal = {
    append: (event: unknown) => void appended.push(event),
    afterWrite: (then: () => void) => void waiting.push(then),
  };
  gw.deps.usageJournal = journal as unknown as NonNullable<typeof gw.deps.usageJournal>;
  try {
    let answered = false;
    const answer = draw(bob, { prompt: 'a lighthouse', size: '256x256', n: 1 }).then((res) => {
      answered = true;
      return res;
    });
    // Until the handler asks to be called back after the write, or answers without asking.
    while (waiting.length === 0 && !answered) await new Promise((r) => setTimeout(r, 5));
    assert.equal(answered, false, 'answered before its journal line was written');
    assert.equal(waiting.length, 1);
    assert.equal(appended.length, 1);
    assert.equal((appended[0] as { model: string }).model, 'demo-image');
    for (const then of waiting.splice(0)) then();
    const res = await answer;
    assert.equal(res.statusCode, 200, res.payload);
    await gw.text.inject({ method: 'DELETE', url: `/web/api/images/${res.json().images[0].id}`, headers: as(bob) });
  } finally {
    gw.deps.usageJournal = undefined;
  }
});

describe('drawing saves to the history', () => {
  let ids: string[] = [];

  test('two pictures: each answer carries its history id and URLs; the list shows metadata only, newest first', async () => {
    const res = await draw(alice, { prompt: 'a "quoted" / slashed\nprompt – ünïcode', size: '256x256', n: 2 });
    assert.equal(res.statusCode, 200, res.payload);
    const body = res.json();
    assert.equal(body.images.length, 2);
    ids = body.images.map((i: { id: string }) => i.id);
    for (const image of body.images) {
      assert.match(image.id, /^img_[0-9A-Za-z]{16}$/);
      assert.equal(image.url, `/web/api/images/${image.id}`);
      assert.equal(image.downloadUrl, `/web/api/images/${image.id}?download=1`);
      assert.ok(image.b64.length > 100);
    }
    const list = await gw.text.inject({ url: '/web/api/images', headers: as(alice) });
    assert.equal(list.statusCode, 200);
    const page = list.json();
    assert.equal(page.total, 2);
    assert.equal(page.keep, 50);
    assert.equal(page.nextOffset, null);
    assert.deepEqual(page.images.map((i: { id: string }) => i.id), ids, 'the first picture of a generation is listed first');
    assert.deepEqual(Object.keys(page.images[0]).sort(), ['byteLength', 'createdAt', 'downloadUrl', 'id', 'model', 'prompt', 'size', 'url']);
    assert.equal(page.images[0].model, 'demo-image');
    assert.equal(page.images[0].size, '256x256');
  });

  test('paging: limit and offset walk the list', async () => {
    const res = await gw.text.inject({ url: '/web/api/images?limit=1', headers: as(alice) });
    assert.equal(res.statusCode, 200, res.payload);
    const first = res.json();
    assert.deepEqual([first.images.length, first.nextOffset], [1, 1]);
    const second = (await gw.text.inject({ url: '/web/api/images?limit=1&offset=1', headers: as(alice) })).json();
    assert.deepEqual([second.images[0].id, second.nextOffset], [ids[1], null]);
  });

  test('the picture is served as PNG; ?download=1 makes it an attachment with a safe file name', async () => {
    const shown = await gw.text.inject({ url: `/web/api/images/${ids[0]}`, headers: as(alice) });
    assert.equal(shown.statusCode, 200);
    assert.equal(shown.headers['content-type'], 'image/png');
    assert.equal(shown.headers['content-disposition'], undefined);
    assert.equal(shown.rawPayload.subarray(1, 4).toString('ascii'), 'PNG');
    assert.deepEqual([shown.rawPayload.readUInt32BE(16), shown.rawPayload.readUInt32BE(20)], [256, 256]);

    const download = await gw.text.inject({ url: `/web/api/images/${ids[0]}?download=1`, headers: as(alice) });
    assert.equal(download.statusCode, 200);
    assert.deepEqual(download.rawPayload, shown.rawPayload);
    const disposition = String(download.headers['content-disposition']);
    assert.match(disposition, /^attachment; filename="[a-z0-9-]+-img_[0-9A-Za-z]{16}\.png"$/);
    assert.match(disposition, /filename="a-quoted-slashed-prompt-unicode-img_/);
  });

  test('another user gets 404 for the picture, its download and its deletion; it stays for the owner', async () => {
    for (const url of [`/web/api/images/${ids[0]}`, `/web/api/images/${ids[0]}?download=1`]) {
      const res = await gw.text.inject({ url, headers: as(bob) });
      assert.equal(res.statusCode, 404);
      assert.match(errorText(res.payload), /No such picture in your history/);
    }
    assert.equal((await gw.text.inject({ method: 'DELETE', url: `/web/api/images/${ids[0]}`, headers: as(bob) })).statusCode, 404);
    assert.equal((await gw.text.inject({ url: '/web/api/images', headers: as(bob) })).json().total, 0);
    assert.equal((await gw.text.inject({ url: `/web/api/images/${ids[0]}`, headers: as(alice) })).statusCode, 200);
  });

  test('delete: needs the CSRF token, then 204; afterwards the picture is 404 and gone from the list', async () => {
    const noToken = await gw.text.inject({ method: 'DELETE', url: `/web/api/images/${ids[1]}`, headers: { cookie: alice.cookie } });
    assert.equal(noToken.statusCode, 403);
    assert.match(errorText(noToken.payload), /security token/);
    const deleted = await gw.text.inject({ method: 'DELETE', url: `/web/api/images/${ids[1]}`, headers: as(alice) });
    assert.equal(deleted.statusCode, 204);
    assert.equal((await gw.text.inject({ url: `/web/api/images/${ids[1]}`, headers: as(alice) })).statusCode, 404);
    assert.equal((await gw.text.inject({ method: 'DELETE', url: `/web/api/images/${ids[1]}`, headers: as(alice) })).statusCode, 404);
    const list = (await gw.text.inject({ url: '/web/api/images', headers: as(alice) })).json();
    assert.deepEqual(list.images.map((i: { id: string }) => i.id), [ids[0]]);
  });
});

describe('bad inputs', () => {
  test('without a session: 401 with a message for list, fetch and delete', async () => {
    for (const [method, url] of [['GET', '/web/api/images'], ['GET', '/web/api/images/img_x'], ['DELETE', '/web/api/images/img_x']] as const) {
      const res = await gw.text.inject({ method, url });
      assert.equal(res.statusCode, 401, `${method} ${url}`);
      assert.match(errorText(res.payload), /session has ended/);
    }
  });

  test('unknown ids are 404; an absurdly long id is 400', async () => {
    const unknown = await gw.text.inject({ url: '/web/api/images/img_0000000000000000', headers: as(alice) });
    assert.equal(unknown.statusCode, 404);
    const long = await gw.text.inject({ url: `/web/api/images/${'x'.repeat(65)}`, headers: as(alice) });
    assert.equal(long.statusCode, 400);
    assert.match(errorText(long.payload), /id/);
  });

  test('list paging out of range or not a number is 400 naming the field', async () => {
    for (const [query, field] of [['limit=0', 'limit'], ['limit=51', 'limit'], ['limit=abc', 'limit'], ['offset=-1', 'offset']]) {
      const res = await gw.text.inject({ url: `/web/api/images?${query}`, headers: as(alice) });
      assert.equal(res.statusCode, 400, query);
      assert.match(errorText(res.payload), new RegExp(field), query);
    }
  });

  test('download takes 0 or 1 only', async () => {
    const [first] = (await gw.text.inject({ url: '/web/api/images', headers: as(alice) })).json().images;
    const res = await gw.text.inject({ url: `/web/api/images/${first.id}?download=yes`, headers: as(alice) });
    assert.equal(res.statusCode, 400);
    assert.match(errorText(res.payload), /download/);
  });

  test('drawing: missing prompt, unknown size, too many pictures, unknown model, no token', async () => {
    const cases: Array<[Record<string, unknown>, number, RegExp]> = [
      [{ size: '256x256', n: 1 }, 400, /prompt/],
      [{ prompt: '', size: '256x256', n: 1 }, 400, /prompt/],
      [{ prompt: 'x', size: '300x300', n: 1 }, 400, /size/],
      [{ prompt: 'x', size: '256x256', n: 5 }, 400, /n/],
      [{ prompt: 'x', size: '256x256', n: 1, model: 'demo-chat' }, 404, /image model "demo-chat" is not available/],
      [{ prompt: 'x', size: '256x256', n: 1, model: 'nope' }, 404, /image model "nope" is not available/],
    ];
    for (const [body, status, message] of cases) {
      const res = await draw(alice, body);
      assert.equal(res.statusCode, status, JSON.stringify(body));
      assert.match(errorText(res.payload), message, JSON.stringify(body));
    }
    const noToken = await gw.text.inject({ method: 'POST', url: '/web/api/images', headers: { cookie: alice.cookie }, payload: { prompt: 'x', size: '256x256', n: 1 } });
    assert.equal(noToken.statusCode, 403);
    assert.equal((await gw.text.inject({ url: '/web/api/images', headers: as(alice) })).json().total, 1, 'nothing refused was saved');
  });
});
