// GET /events and /events/contact/{id} answer pages bounded by their events' data as well as by
// `limit`: events that carry large bodies come a few to a page, with the cursor for the rest, and
// walking the cursors gives every event once.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js';

const pages = suite('event pages');
let d: TestDaemon;

pages.before(async () => {
  d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 } } });
});
pages.after(async () => d.dispose());

/** The data budget of a page (src/events/store.ts PAGE_DATA_BYTES). */
const PAGE_BYTES = 4 * 1024 * 1024;
const BODY = 900_000;
const secret = () => ({ key: d.project.secretKey });

const track = async (email: string, event: string, data: Record<string, unknown>) => {
  const r = await d.request('POST', '/v1/track', { email, event, data }, { key: d.project.publicKey });
  assert.is(r.status, 200, JSON.stringify(r.body));
};

type Page = { data: { id: string; data: Record<string, unknown> }[]; cursor: string | null; hasMore: boolean };

/** Every page of `path` through its cursors: each within the data budget. */
async function walk(path: string): Promise<Page[]> {
  const seen: Page[] = [];
  for (let cursor: string | null = null; ; ) {
    const r: { status: number; body: Page } = await d.request<Page>('GET', `${path}${path.includes('?') ? '&' : '?'}limit=500${cursor ? `&cursor=${cursor}` : ''}`, undefined, secret());
    assert.is(r.status, 200, JSON.stringify(r.body).slice(0, 500));
    seen.push(r.body);
    if (!r.body.hasMore) {
      assert.is(r.body.cursor, null);
      return seen;
    }
    assert.type(r.body.cursor, 'string');
    cursor = r.body.cursor;
  }
}

pages('events of 900 KB come a few to a page within the budget, and the cursors give each once', async () => {
  for (let i = 0; i < 10; i++) await track('big@example.com', 'upload', { i, body: String(i).repeat(BODY) });
  for (let i = 0; i < 3; i++) await track('small@example.com', 'upload', { i });

  const all = await walk('/events?name=upload');
  assert.ok(all.length >= 3, `${all.length} pages`);
  for (const page of all) {
    const bytes = page.data.reduce((sum, e) => sum + JSON.stringify(e.data).length, 0);
    assert.ok(page.data.length === 1 || bytes <= PAGE_BYTES, `a page of ${page.data.length} events holds ${bytes} bytes of data`);
  }
  const ids = all.flatMap((p) => p.data.map((e) => e.id));
  assert.is(ids.length, 13);
  assert.is(new Set(ids).size, 13);
  // newest first across pages: the three small ones, then the large ones from the last tracked
  assert.equal(all.flatMap((p) => p.data.map((e) => e.data.i)), [2, 1, 0, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);

  const contacts = await d.request('GET', '/contacts?search=big%40', undefined, secret());
  const contactPages = await walk(`/events/contact/${contacts.body.data[0].id}`);
  assert.ok(contactPages.length >= 3);
  assert.is(contactPages.flatMap((p) => p.data).filter((e) => e.data.i !== undefined).length, 10);
});

pages('small events still come `limit` to a page, and a cursor not given by a page is 400', async () => {
  for (let i = 0; i < 5; i++) await track('few@example.com', 'tiny', { i });
  const first = await d.request<Page>('GET', '/events?name=tiny&limit=2', undefined, secret());
  assert.is(first.body.data.length, 2);
  assert.ok(first.body.hasMore);
  const second = await d.request<Page>('GET', `/events?name=tiny&limit=3&cursor=${first.body.cursor}`, undefined, secret());
  assert.equal(second.body.data.map((e) => e.data.i), [2, 1, 0]);
  assert.is(second.body.hasMore, false);

  const forged = Buffer.from(JSON.stringify(['yesterday', 'x'])).toString('base64url');
  const bad = await d.request('GET', `/events?cursor=${forged}`, undefined, secret());
  assert.is(bad.status, 400);
  assert.is(bad.body.error.code, 'BAD_REQUEST');
});

pages.run();
