// The usage page over a chosen period (charts stacked by model or key, tables, bad ranges refused
// with a clear message), its CSV export (rows per bucket × model × key, escaped against spreadsheet
// formulas), the request log page (filters, keyset paging, only the owner's entries) and the keys
// page's sparkline and last use.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { RequestLog } from '../../../server/usage/request-log.ts';
import { parsePeriod, PeriodError } from '../../../server/web/usage-period.ts';
import { csvCell } from '../../../server/web/usage-csv.ts';
import { bearer, createTestGateway, type TestGateway } from '../../helpers/test-app.ts';
import { webLogin } from '../../helpers/web-login.ts';

const NOW = new Date('2026-11-24T13:45:00Z');

describe('period parsing', () => {
  test('presets: the last 24 hours by hour, 7 / 30 / 90 days by day, ending now', () => {
    const h = parsePeriod({ period: '24h' }, NOW);
    assert.equal(h.bucket, 'hour');
    assert.equal(h.buckets.length, 24);
    assert.equal(h.buckets[0], '2026-11-23T14:00Z');
    assert.equal(h.buckets.at(-1), '2026-11-24T13:00Z');
    assert.equal(h.untilHour, '2026-11-24T14:00Z');
    const w = parsePeriod({ period: '7d', group: 'key' }, NOW);
    assert.deepEqual([w.bucket, w.buckets.length, w.buckets[0], w.buckets.at(-1), w.group], ['day', 7, '2026-11-18', '2026-11-24', 'key']);
    assert.equal(w.sinceHour, '2026-11-18T00:00Z');
    assert.equal(w.untilHour, '2026-11-25T00:00Z');
    assert.equal(parsePeriod({}, NOW).buckets.length, 30, 'the default is 30 days');
    assert.equal(parsePeriod({ period: '90d' }, NOW).buckets.length, 90);
  });

  test('custom ranges: by day, a single day by hour, at most 366 days; dates alone mean custom', () => {
    const r = parsePeriod({ from: '2026-02-27', to: '2026-03-02' }, NOW);
    assert.deepEqual([r.name, r.bucket, r.buckets], ['custom', 'day', ['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']]);
    const one = parsePeriod({ period: 'custom', from: '2026-11-01', to: '2026-11-01' }, NOW);
    assert.deepEqual([one.bucket, one.buckets.length, one.untilHour], ['hour', 24, '2026-11-02T00:00Z']);
    assert.equal(parsePeriod({ period: 'custom', from: '2025-11-24', to: '2026-11-24' }, NOW).buckets.length, 366);
  });

  test('bad input: a PeriodError (400) that says what to send', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ period: 'custom', from: '2026-11-10', to: '2026-11-01' }, /“from” \(2026-11-10\) is after “to” \(2026-11-01\)/],
      [{ period: 'custom', from: '2025-01-01', to: '2026-11-01' }, /at most 366 days; 2025-01-01 to 2026-11-01 is 670 days/],
      [{ period: 'custom', from: '2026-02-30', to: '2026-03-01' }, /“from” must be a date written YYYY-MM-DD/],
      [{ period: 'custom', from: 'yesterday', to: '2026-03-01' }, /got “yesterday”/],
      [{ period: 'custom', from: '2026-03-01' }, /needs both “from” and “to”/],
      [{ period: '2w' }, /“period” must be one of 24h, 7d, 30d, 90d, custom; got “2w”/],
      [{ group: 'user' }, /“group” must be “model” or “key”; got “user”/],
    ];
    for (const [query, message] of cases) {
      assert.throws(() => parsePeriod(query, NOW), (error: Error) => error instanceof PeriodError && error.statusCode === 400 && message.test(error.message), JSON.stringify(query));
    }
  });
});

describe('CSV cells', () => {
  test('formula starts get an apostrophe; separators, quotes and line breaks are quoted; numbers stay numbers', () => {
    assert.equal(csvCell('=HYPERLINK("http://x")'), `"'=HYPERLINK(""http://x"")"`);
    assert.equal(csvCell('+1'), "'+1");
    assert.equal(csvCell('-2+3'), "'-2+3");
    assert.equal(csvCell('@SUM(A1)'), "'@SUM(A1)");
    assert.equal(csvCell('\tcmd'), `"'\tcmd"`);
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell('line\nbreak'), '"line\nbreak"');
    assert.equal(csvCell('demo-chat'), 'demo-chat');
    assert.equal(csvCell(42), '42');
  });

  test('a formula after a separator a spreadsheet may split on (; , tab |) is neutralised too, and the cell quoted', () => {
    assert.equal(csvCell('x;=1+2;alice'), `"x;'=1+2;alice"`);
    assert.equal(csvCell('x; +cmd'), `"x; '+cmd"`);
    assert.equal(csvCell('x|@SUM(A1)'), "x|'@SUM(A1)");
    assert.equal(csvCell('x\t-2+3'), `"x\t'-2+3"`);
    assert.equal(csvCell('=a;=b'), `"'=a;'=b"`);
    assert.equal(csvCell('\uff1d1+2'), "'\uff1d1+2");
    assert.equal(csvCell('a;b'), '"a;b"');
    assert.equal(csvCell('laptop-2'), 'laptop-2');
  });
});

describe('pages', () => {
  let gw: TestGateway;
  let alice: { userId: string; keyId: string; key: string };
  let laptop: { id: string; key: string };
  let cookie: string;
  let csrf: string;

  async function chat(key: string, model = 'demo-chat', headers: Record<string, string> = {}) {
    return gw.text.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { ...bearer(key), 'content-type': 'application/json', ...headers },
      payload: JSON.stringify({ model, messages: [{ role: 'user', content: 'a private prompt' }] }),
    });
  }

  before(async () => {
    gw = await createTestGateway();
    gw.deps.requestLog = new RequestLog(gw.store.requestLog);
    alice = await gw.userWithKey('alice');
    const created = await gw.store.keys.create(alice.userId, '=cmd|"/c calc"!A1, laptop');
    laptop = { id: created.id, key: created.key };
    for (let i = 0; i < 3; i += 1) assert.equal((await chat(alice.key)).statusCode, 200);
    assert.equal((await chat(laptop.key, 'demo-chat', { 'x-claude-code-session-id': 'sess-42' })).statusCode, 200);
    assert.equal((await chat(laptop.key, 'no-such-model')).statusCode, 404);
    const bob = await gw.userWithKey('bob');
    assert.equal((await chat(bob.key)).statusCode, 200);
    ({ cookie, csrf } = await webLogin(gw.text, 'alice'));
  });
  after(() => gw.close());

  const get = (url: string) => gw.text.inject({ url, headers: { cookie } });

  test('/usage: three stacked charts with hover titles, a legend and tables, by model by default', async () => {
    const res = await get('/usage?period=24h');
    assert.equal(res.statusCode, 200);
    const page = res.payload;
    for (const id of ['chart-requests', 'chart-tokens', 'chart-errors']) assert.ok(page.includes(`id="${id}"`), id);
    const hour = new Date().toISOString().slice(0, 13).replace('T', ' ');
    assert.match(page, new RegExp(`<title>${hour}:00 UTC · demo-chat: 4 requests</title>`));
    assert.match(page, /<ul class="legend"><li><span class="swatch series-0" aria-hidden="true"><\/span>demo-chat <span class="muted">4<\/span><\/li>/);
    assert.match(page, /<th>Hour<\/th><th class="num">demo-chat<\/th>/);
    assert.match(page, /<link rel="stylesheet" href="\/assets\/usage.css">/);
    assert.match(page, /Last 24 hours, by hour \(UTC\)\. 5 requests/);
    assert.ok(!page.includes('a private prompt'));
    assert.ok(!page.includes('bob'), "no one else's usage");
  });

  test('/usage?group=key stacks by key (names escaped); the links keep the period', async () => {
    const page = (await get('/usage?period=7d&group=key')).payload;
    assert.match(page, /<title>\d{4}-\d{2}-\d{2} · alice-key sk-…\w{4}: 3 requests<\/title>/);
    assert.ok(page.includes('=cmd|&quot;/c calc&quot;!A1, laptop sk-…'), 'the key name is escaped');
    assert.match(page, /href="\/usage\?period=7d&amp;group=model"/);
    assert.match(page, /href="\/usage\.csv\?period=7d&amp;group=key"/);
  });

  test('bad ranges answer 400 with the message and the controls to fix it', async () => {
    const res = await get('/usage?period=custom&from=2026-11-10&to=2026-11-01');
    assert.equal(res.statusCode, 400);
    assert.match(res.payload, /<p class="error" role="alert" id="period-error">“from” \(2026-11-10\) is after “to” \(2026-11-01\); swap them\.<\/p>/);
    assert.match(res.payload, /id="range-form"/);
    const csv = await get('/usage.csv?period=custom&from=2020-01-01&to=2026-01-01');
    assert.equal(csv.statusCode, 400);
    assert.match(csv.headers['content-type'] as string, /^text\/plain/);
    assert.match(csv.payload, /at most 366 days/);
  });

  test('/usage.csv: an attachment, one row per bucket × model × key, escaped', async () => {
    // Two hours of one day in the past: one row per day in a range by day, one per hour for that day.
    await gw.store.usage.apply(
      [
        { hour: '2024-10-05T08:00Z', userId: alice.userId, keyId: alice.keyId, model: 'demo-chat', requests: 2, inputTokens: 20, outputTokens: 10, errors: 1, errorsByStatus: { 500: 1 } },
        { hour: '2024-10-05T09:00Z', userId: alice.userId, keyId: alice.keyId, model: 'demo-chat', requests: 3, inputTokens: 30, outputTokens: 15, errors: 0, errorsByStatus: {} },
        { hour: '2024-10-05T09:00Z', userId: alice.userId, keyId: laptop.id, model: '-model', requests: 1, inputTokens: 1, outputTokens: 1, errors: 0, errorsByStatus: {} },
      ],
      new Map(),
    );
    const res = await get('/usage.csv?period=custom&from=2024-10-01&to=2024-10-07');
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /^text\/csv/);
    assert.equal(res.headers['content-disposition'], 'attachment; filename="usage-2024-10-01-to-2024-10-07-by-day.csv"');
    const lines = res.payload.trimEnd().split('\r\n');
    assert.deepEqual(lines, [
      'bucket_start_utc,model,key_id,key,requests,input_tokens,output_tokens,errors,cost,currency,unpriced_requests',
      `2024-10-05T00:00:00Z,'-model,${laptop.id},"'=cmd|""/c calc""!A1, laptop ${(await gw.store.keys.findById(laptop.id))!.hint}",1,1,1,0,0.00,,0`,
      `2024-10-05T00:00:00Z,demo-chat,${alice.keyId},alice-key ${(await gw.store.keys.findById(alice.keyId))!.hint},5,50,25,1,0.00,,0`,
    ]);
    const hourly = (await get('/usage.csv?from=2024-10-05&to=2024-10-05')).payload.trimEnd().split('\r\n');
    assert.equal(hourly.length, 4);
    assert.ok(hourly[1]!.startsWith('2024-10-05T08:00:00Z,demo-chat,'));
    assert.ok(hourly.slice(2).every((l) => l.startsWith('2024-10-05T09:00:00Z,')));
  });

  test('/usage/requests: the owner’s requests, never a body; filters by status, key and model', async () => {
    const res = await get('/usage/requests');
    assert.equal(res.statusCode, 200);
    const rows = res.payload.match(/<tr>\s*<td><time/g) ?? [];
    assert.equal(rows.length, 5, "alice's five requests, not bob's");
    assert.ok(!res.payload.includes('a private prompt'));
    assert.match(res.payload, /<code>sess-42<\/code>/);
    assert.match(res.payload, /<span class="status ok">200<\/span>/);
    const refused = await get('/usage/requests?status=4');
    assert.equal((refused.payload.match(/<tr>\s*<td><time/g) ?? []).length, 1);
    assert.match(refused.payload, /<span class="status warn">404<\/span>/);
    const byKey = await get(`/usage/requests?key=${alice.keyId}`);
    assert.equal((byKey.payload.match(/<tr>\s*<td><time/g) ?? []).length, 3);
    const byModel = await get('/usage/requests?model=demo-chat');
    assert.equal((byModel.payload.match(/<tr>\s*<td><time/g) ?? []).length, 4, 'the refused request names no model');
    const none = await get('/usage/requests?status=5');
    assert.match(none.payload, /No requests match these filters/);
  });

  test('/usage/requests pages by position: 50 a page, then the rest, each entry once', async () => {
    const carol = await gw.userWithKey('carol');
    const start = Date.now() - 60_000;
    await gw.store.requestLog.insert(Array.from({ length: 57 }, (_, i) => ({ at: start + i * 100, userId: carol.userId, keyId: carol.keyId, model: `m-${i}`, status: 200, inputTokens: 1, outputTokens: 1, latencyMs: 5 })));
    const carolCookie = (await webLogin(gw.text, 'carol')).cookie;
    const first = await gw.text.inject({ url: '/usage/requests', headers: { cookie: carolCookie } });
    const models = (html: string) => [...html.matchAll(/<td>(m-\d+)<\/td>/g)].map((m) => m[1]);
    assert.equal(models(first.payload).length, 50);
    assert.equal(models(first.payload)[0], 'm-56', 'newest first');
    const older = /id="older" href="([^"]+)"/.exec(first.payload)![1]!.replace(/&amp;/g, '&');
    assert.match(decodeURIComponent(older), /^\/usage\/requests\?since=24h&before=\d{13}~\d+$/, 'the position: epoch ms and id');
    const second = await gw.text.inject({ url: older, headers: { cookie: carolCookie } });
    assert.deepEqual(models(second.payload), ['m-6', 'm-5', 'm-4', 'm-3', 'm-2', 'm-1', 'm-0']);
    assert.ok(!second.payload.includes('id="older"'), 'no further page');
    assert.match(second.payload, />Newest</);
  });

  test('/usage/requests: bad filters answer 400 saying what is wrong', async () => {
    const status = await get('/usage/requests?status=7');
    assert.equal(status.statusCode, 400);
    assert.match(status.payload, /“status” must be 2, 4 or 5 \(for 2xx, 4xx, 5xx\) or empty; got “7”/);
    // Anything this page did not make, including a position in the format before migration 0012
    // (a bookmarked “Older” link): 400 and the way back to the newest entries, never a crash.
    for (const before of ['1 or 1=1', '2026-11-20T12:00:00.000Z~req_abc_1', '1763640000000~', '~5', '-1~5', '1763640000000~99999999999999999', '1763640000000.5~3', '1763640000000~3~4']) {
      const cursor = await get(`/usage/requests?${new URLSearchParams({ before })}`);
      assert.equal(cursor.statusCode, 400, before);
      assert.match(cursor.payload, /“before” is not a position this page made; start again from the newest entries/, before);
    }
    const fresh = await get('/usage/requests?before=1~1');
    assert.equal(fresh.statusCode, 200, 'a well-formed position older than everything');
    assert.match(fresh.payload, /No older entries/);
    const since = await get('/usage/requests?since=1y');
    assert.equal(since.statusCode, 400);
    assert.match(since.payload, /“since” must be one of 1h, 24h, 7d, 30d/);
  });

  test('/keys: last used and a 14-day sparkline with a text alternative', async () => {
    const res = await get('/keys');
    assert.equal(res.statusCode, 200);
    const row = res.payload.slice(res.payload.indexOf(`data-key-id="${alice.keyId}"`));
    const today = new Date().toISOString().slice(0, 10);
    assert.match(row, new RegExp(`<td class="last-used">${today} \\d\\d:\\d\\d UTC</td>`));
    assert.match(row, new RegExp(`<svg class="sparkline"[^>]* role="img" aria-label="3 requests in the last 14 days, most on ${today} \\(3\\); today 3\\."`));
    assert.equal((row.slice(0, row.indexOf('</svg>')).match(/<rect /g) ?? []).length, 14);
    assert.match(row, new RegExp(`<title>${today}: 3 requests</title>`));
    assert.match(res.payload, /<link rel="stylesheet" href="\/assets\/keys.css">/);
  });

  test('GET /web/api/keys: each key with its last use and requests per day over 14 days', async () => {
    const res = await gw.text.inject({ url: '/web/api/keys', headers: { cookie, 'x-csrf-token': csrf } });
    assert.equal(res.statusCode, 200);
    const key = (res.json() as { keys: Array<{ id: string; lastUsedAt: string | null; requestsByDay: Array<{ day: string; requests: number }> }> }).keys.find((k) => k.id === alice.keyId)!;
    const today = new Date().toISOString().slice(0, 10);
    assert.ok(key.lastUsedAt?.startsWith(today), String(key.lastUsedAt));
    assert.equal(key.requestsByDay.length, 14);
    assert.deepEqual(key.requestsByDay.at(-1), { day: today, requests: 3 });
    assert.ok(key.requestsByDay.slice(0, -1).every((d) => d.requests === 0));
  });
});
