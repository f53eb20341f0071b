// GET /contacts/export through the daemon: every contact (over several walk steps), a segment's
// members exactly, cells escaped for CSV and defused against spreadsheet formulas, 404 for a
// segment the project does not have.
import { parse } from 'csv-parse/sync';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js';
import { finished, uploadCsv } from './helpers/upload.js';

let d: TestDaemon;

test.before(async () => {
  d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 } } });
});
test.after(async () => d?.dispose());

async function exportCsv(query = '', key = d.project.secretKey) {
  const res = await fetch(`${d.url}/contacts/export${query}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const rowsOf = (text: string): Record<string, string>[] => parse(text, { columns: true, skip_empty_lines: true });

async function allPages(path: string): Promise<string[]> {
  const emails: string[] = [];
  for (let page = 1; ; page++) {
    const r = await d.request('GET', `${path}?page=${page}&pageSize=100`);
    emails.push(...r.body.data.map((c: { email: string }) => c.email));
    if (page >= r.body.totalPages) return emails;
  }
}

test('cells with quotes, commas and line breaks round-trip; text that starts like a formula is defused', async () => {
  const p = d.createProject('escaping');
  const data = {
    quote: 'say "hi"',
    comma: 'a, b',
    lines: 'one\r\ntwo',
    formula: '=HYPERLINK("http://evil.test","x")',
    plus: '+49 30 1234',
    minus: '-2+3',
    at: '@SUM(A1)',
    count: -3,
    vip: true,
    nested: { city: 'Paris' },
    subscribed: 'a data key named like a column',
  };
  const created = await d.request('POST', '/contacts', { email: 'ann@example.org', data }, { key: p.secretKey });
  assert.is(created.status, 201, JSON.stringify(created.body));
  const r = await exportCsv('', p.secretKey);
  assert.is(r.status, 200);
  assert.match(r.headers.get('content-type')!, /^text\/csv/);
  assert.match(r.headers.get('content-disposition')!, /attachment; filename="contacts.csv"/);
  const [header] = r.text.split('\r\n');
  assert.is(header, 'email,subscribed,createdAt,at,comma,count,formula,lines,minus,nested,plus,quote,data.subscribed,vip');
  const [row] = rowsOf(r.text);
  assert.equal(row, {
    email: 'ann@example.org',
    subscribed: 'true',
    createdAt: created.body.createdAt,
    at: "'@SUM(A1)",
    comma: 'a, b',
    count: '-3',
    formula: `'=HYPERLINK("http://evil.test","x")`,
    lines: 'one\r\ntwo',
    minus: "'-2+3",
    nested: '{"city":"Paris"}',
    plus: "'+49 30 1234",
    quote: 'say "hi"',
    'data.subscribed': 'a data key named like a column',
    vip: 'true',
  });
});

test('every contact of the project, over several steps of the walk, each once', async () => {
  const p = d.createProject('many');
  const lines = ['email,plan', ...Array.from({ length: 1234 }, (_, i) => `user${i}@example.org,${i % 3 === 0 ? 'pro' : 'free'}`)];
  const queued = await uploadCsv(d, lines.join('\n'), { key: p.secretKey });
  assert.is(queued.status, 202);
  const job = await finished(d, `/contacts/import/${queued.body.jobId}`, p.secretKey);
  assert.is(job.state, 'completed');
  const rows = rowsOf((await exportCsv('', p.secretKey)).text);
  assert.is(rows.length, 1234);
  assert.is(new Set(rows.map((r) => r.email)).size, 1234);
  assert.is(rows.filter((r) => r.plan === 'pro').length, 412);
  // another project's contacts are not in it
  const mine = rowsOf((await exportCsv()).text).map((r) => r.email);
  assert.not.ok(mine.some((e) => e.startsWith('user')));
});

test("?segmentId= gives exactly the segment's members: a static segment, and a dynamic one as its pages list them", async () => {
  const emails = ['m1@seg.test', 'm2@seg.test', 'm3@seg.test', 'other@seg.test'];
  for (const [i, email] of emails.entries()) {
    const r = await d.request('POST', '/contacts', { email, data: { tier: i < 2 ? 'gold' : 'silver' } });
    assert.ok(r.status === 201 || r.status === 200);
  }
  const fixed = await d.request('POST', '/segments', { name: 'Picked', type: 'STATIC' });
  assert.is(fixed.status, 201);
  await d.request('POST', `/segments/${fixed.body.id}/members`, { emails: ['m1@seg.test', 'm3@seg.test'] });
  const picked = await exportCsv(`?segmentId=${fixed.body.id}`);
  assert.is(picked.status, 200);
  assert.match(picked.headers.get('content-disposition')!, /filename="segment-picked\.csv"/);
  assert.equal(rowsOf(picked.text).map((r) => r.email).sort(), ['m1@seg.test', 'm3@seg.test']);

  const gold = await d.request('POST', '/segments', { name: 'Gold', condition: { logic: 'AND', groups: [{ filters: [{ field: 'data.tier', operator: 'equals', value: 'gold' }] }] } });
  assert.is(gold.status, 201);
  const exported = rowsOf((await exportCsv(`?segmentId=${gold.body.id}`)).text).map((r) => r.email);
  assert.equal(exported.sort(), (await allPages(`/segments/${gold.body.id}/contacts`)).sort());
  assert.equal(exported, ['m1@seg.test', 'm2@seg.test']);
});

test("an unknown segment, or another project's, is a 404 in the error envelope", async () => {
  const unknown = await exportCsv('?segmentId=00000000-0000-4000-8000-000000000000');
  assert.is(unknown.status, 404);
  assert.is(JSON.parse(unknown.text).error.code, 'NOT_FOUND');
  const other = d.createProject('other');
  const theirs = await d.request('POST', '/segments', { name: 'Theirs', type: 'STATIC' }, { key: other.secretKey });
  assert.is((await exportCsv(`?segmentId=${theirs.body.id}`)).status, 404);
  assert.is((await fetch(`${d.url}/contacts/export`)).status, 401);
});

test.run();
