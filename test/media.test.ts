// The media library through the daemon: uploads judged by their bytes (not the name or declared
// type), the 5 MB limit, listing and deleting per project, and the public address with its headers.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js';
import { GIF_1X1, jpegOf, PNG_1X1, webpLosslessOf } from './helpers/images.js';

let d: TestDaemon;

test.before(async () => {
  d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 } } });
});
test.after(async () => d?.dispose());

async function upload(content: Buffer | string, opts: { type?: string; filename?: string; field?: string; key?: string } = {}) {
  const form = new FormData();
  form.append(opts.field ?? 'file', new Blob([content], { type: opts.type ?? 'image/png' }), opts.filename ?? 'logo.png');
  const res = await fetch(`${d.url}/media`, { method: 'POST', headers: { authorization: `Bearer ${opts.key ?? d.project.secretKey}` }, body: form });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : text };
}

test('an uploaded PNG is listed and served at its public address, immutable, with its type and nosniff', async () => {
  const r = await upload(PNG_1X1, { filename: 'C:\\pics\\logo.png' });
  assert.is(r.status, 201, JSON.stringify(r.body));
  assert.is(r.body.name, 'logo.png', 'the folders of the name are dropped');
  assert.is(r.body.type, 'image/png');
  assert.is(r.body.size, PNG_1X1.length);
  assert.equal([r.body.width, r.body.height], [1, 1]);
  assert.match(r.body.url, new RegExp(`^${d.url}/media/[A-Za-z0-9_-]{22}\\.png$`));
  assert.ok(r.body.url.endsWith(`/media/${r.body.id}.png`));

  const served = await fetch(r.body.url);
  assert.is(served.status, 200);
  assert.is(served.headers.get('content-type'), 'image/png');
  assert.is(served.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.is(served.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(Buffer.from(await served.arrayBuffer()), PNG_1X1);

  const list = await d.request('GET', '/media');
  assert.is(list.status, 200);
  assert.ok(list.body.data.some((m: { id: string }) => m.id === r.body.id));
});

test('JPEG, GIF and WebP are recognised by their bytes, with their sizes', async () => {
  const jpeg = await upload(jpegOf(640, 480), { type: 'image/jpeg', filename: 'photo.jpg' });
  assert.is(jpeg.status, 201, JSON.stringify(jpeg.body));
  assert.equal([jpeg.body.type, jpeg.body.width, jpeg.body.height], ['image/jpeg', 640, 480]);
  assert.ok(jpeg.body.url.endsWith('.jpg'));
  const gif = await upload(GIF_1X1, { type: 'image/gif', filename: 'dot.gif' });
  assert.equal([gif.status, gif.body.type, gif.body.width], [201, 'image/gif', 1]);
  // a client that declares nothing useful: the bytes decide
  const webp = await upload(webpLosslessOf(300, 200), { type: 'application/octet-stream', filename: 'banner' });
  assert.equal([webp.status, webp.body.type, webp.body.width, webp.body.height, webp.body.name], [201, 'image/webp', 300, 200, 'banner']);
  const served = await fetch(webp.body.url);
  assert.is(served.headers.get('content-type'), 'image/webp');
});

test('what is not an image is refused with 415, whatever its name and declared type', async () => {
  const html = await upload('<html><script>alert(1)</script></html>', { type: 'image/png', filename: 'x.png' });
  assert.is(html.status, 415);
  assert.is(html.body.error.code, 'UNSUPPORTED_MEDIA_TYPE');
  const svg = await upload('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', { type: 'image/svg+xml', filename: 'x.svg' });
  assert.is(svg.status, 415);
  // a real PNG declared as something else: the declaration is wrong, and the client is told
  const lying = await upload(PNG_1X1, { type: 'image/jpeg', filename: 'x.jpg' });
  assert.is(lying.status, 415);
  assert.match(lying.body.error.message, /declared image\/jpeg but its content is image\/png/);
  const truncated = await upload(PNG_1X1.subarray(0, 12));
  assert.is(truncated.status, 415);
});

test('a file over 5 MB is refused with 413; a body that is not an upload of "file" with 400 or 422', async () => {
  const big = Buffer.concat([PNG_1X1, Buffer.alloc(5 * 1024 * 1024)]);
  const over = await upload(big);
  assert.is(over.status, 413);
  assert.is(over.body.error.code, 'PAYLOAD_TOO_LARGE');
  const json = await d.request('POST', '/media', { url: 'https://example.com/a.png' });
  assert.is(json.status, 400);
  const wrongField = await upload(PNG_1X1, { field: 'image' });
  assert.is(wrongField.status, 422);
  assert.is(wrongField.body.error.errors[0].field, 'file');
  const noKey = await fetch(`${d.url}/media`, { method: 'POST', body: new FormData() });
  assert.is(noKey.status, 401);
});

test("a project lists and deletes only its own images; a deleted image's address answers 404", async () => {
  const mine = await upload(PNG_1X1);
  const other = d.createProject('other');
  const theirs = await d.request('GET', '/media', undefined, { key: other.secretKey });
  assert.equal(theirs.body.data, []);
  assert.is((await d.request('DELETE', `/media/${mine.body.id}`, undefined, { key: other.secretKey })).status, 404);
  assert.is((await fetch(mine.body.url)).status, 200);

  assert.is((await d.request('DELETE', `/media/${mine.body.id}`)).status, 204);
  assert.is((await fetch(mine.body.url)).status, 404);
  assert.is((await d.request('DELETE', `/media/${mine.body.id}`)).status, 404);
});

test('the public address needs the right extension and an exact id', async () => {
  const r = await upload(PNG_1X1);
  assert.is((await fetch(r.body.url.replace(/\.png$/, '.gif'))).status, 404);
  assert.is((await fetch(`${d.url}/media/${r.body.id}`)).status, 404);
  assert.is((await fetch(`${d.url}/media/${r.body.id.slice(1)}x.png`)).status, 404);
});

test('the list pages newest first with a cursor', async () => {
  const p = d.createProject('paged');
  const up = async () => (await upload(PNG_1X1, { key: p.secretKey })).body.id as string;
  const ids = [await up(), await up(), await up()];
  const first = await d.request('GET', '/media?limit=2', undefined, { key: p.secretKey });
  assert.is(first.body.hasMore, true);
  const second = await d.request('GET', `/media?limit=2&cursor=${first.body.cursor}`, undefined, { key: p.secretKey });
  assert.is(second.body.hasMore, false);
  const seen = [...first.body.data, ...second.body.data].map((m: { id: string }) => m.id);
  assert.equal([...seen].sort(), [...ids].sort());
  assert.is(new Set(seen).size, 3);
});

test.run();
