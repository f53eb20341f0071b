import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js';
import { eventsNamed, eventually } from './helpers/mail-env.js';
import { advance, idle, TEST_HOOKS } from './helpers/test-hooks.js';
import { finished, uploadCsv } from './helpers/upload.js';

let d: TestDaemon;
test.before(async () => {
  d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 }, ...TEST_HOOKS } });
});
test.after(async () => d.dispose());

async function importCsv(content: string | Buffer, key = d.project.secretKey) {
  const r = await uploadCsv(d, content, { key });
  assert.is(r.status, 202, JSON.stringify(r.body));
  assert.ok(/^[0-9a-f-]{36}$/.test(r.body.jobId));
  assert.type(r.body.message, 'string');
  return finished(d, `/contacts/import/${r.body.jobId}`, key);
}

const contactByEmail = async (email: string, key = d.project.secretKey) => {
  const r = await d.request('POST', '/contacts/lookup', { emails: [email] }, { key });
  const found = r.body.found[0];
  return found ? (await d.request('GET', `/contacts/${found.id}`, undefined, { key })).body : null;
};

test('a CSV with quotes, embedded newlines, a BOM, CRLF and ";" is imported with typed data', async () => {
  const csv =
    '\uFEFFEmail;Subscribed;plan;data.age;zip;vip;note;score\r\n' +
    'ann@import.test;yes;pro;42;01234;TRUE;"hello; ""world""\r\nsecond line";3.50\r\n' +
    'bob@bücher.de;0;free;;;false;;\r\n';
  const job = await importCsv(csv);
  assert.is(job.type, 'import');
  assert.is(job.state, 'completed');
  assert.is(job.progress, 100);
  assert.is(job.error, null);
  assert.ok(job.finishedAt && Date.parse(job.finishedAt) >= Date.parse(job.createdAt));
  assert.equal(job.result, { totalRows: 2, created: 2, updated: 0, failed: 0, errors: [] });

  const ann = await contactByEmail('ann@import.test');
  assert.is(ann.subscribed, true);
  assert.equal(ann.data, { plan: 'pro', age: 42, zip: '01234', vip: true, note: 'hello; "world"\r\nsecond line', score: 3.5 });
  const bob = await contactByEmail('bob@xn--bcher-kva.de');
  assert.ok(bob, 'the internationalised domain is stored in punycode');
  assert.is(bob.subscribed, false);
  assert.equal(bob.data, { plan: 'free', vip: false }, 'empty cells are skipped');
});

test('bad rows are reported by row number and never stop the import; rows upsert existing contacts', async () => {
  await d.request('POST', '/contacts', { email: 'Existing@Import.test', data: { keep: 'me' } });
  const csv = [
    'email,subscribed,city',
    'existing@import.test,,Berlin', // row 2: updates, keeps data
    'not-an-email,,x', // row 3
    ',,', // row 4: blank, skipped
    'carl@import.test,maybe,x', // row 5
    'dora@import.test,no,Paris,extra', // row 6: one cell too many
    ',,Nowhere', // row 7: no email
    '"eve@import.test",1,"Rome"', // row 8
  ].join('\n');
  const job = await importCsv(csv);
  assert.is(job.state, 'completed');
  assert.is(job.result.totalRows, 6);
  assert.is(job.result.created, 1);
  assert.is(job.result.updated, 1);
  assert.is(job.result.failed, 4);
  assert.equal(
    job.result.errors.map((e: { row: number }) => e.row),
    [3, 5, 6, 7],
  );
  assert.match(job.result.errors[0].message, /Invalid email address "not-an-email"/);
  assert.match(job.result.errors[1].message, /subscribed/);
  assert.match(job.result.errors[2].message, /4 cells; the header has 3/);
  const existing = await contactByEmail('existing@import.test');
  assert.is(existing.email, 'Existing@Import.test', 'matched ignoring case, stored as first given');
  assert.equal(existing.data, { keep: 'me', city: 'Berlin' });
  assert.ok(await contactByEmail('eve@import.test'));
  assert.not.ok(await contactByEmail('dora@import.test'));
});

test('subscription flips of imported rows emit contact.unsubscribed / contact.subscribed once each', async () => {
  const a = await d.request('POST', '/contacts', { email: 'flip-a@import.test' });
  const b = await d.request('POST', '/contacts', { email: 'flip-b@import.test', subscribed: false });
  await importCsv('email,subscribed\nflip-a@import.test,false\nflip-b@import.test,yes\nflip-new@import.test,no\n');
  const unsubscribed = (await eventsNamed(d, 'contact.unsubscribed')).filter((e) => e.contactId === a.body.id);
  const subscribed = (await eventsNamed(d, 'contact.subscribed')).filter((e) => e.contactId === b.body.id);
  assert.is(unsubscribed.length, 1);
  assert.is(subscribed.length, 1);
  assert.equal(unsubscribed[0].data, {});
  const fresh = await contactByEmail('flip-new@import.test');
  assert.is(fresh.subscribed, false, 'a new contact takes the given state without an event');
});

test('a quote never closed fails the rest of the file as one row; the rows before it are imported', async () => {
  const job = await importCsv('email,note\nq1@import.test,fine\nq2@import.test,"never closed\nq3@import.test,x\n');
  assert.is(job.state, 'completed');
  assert.is(job.result.created, 1);
  assert.is(job.result.failed, 1);
  assert.is(job.result.errors[0].row, 3);
  assert.match(job.result.errors[0].message, /cannot be read/);
});

test('upload refusals: no multipart, no file, not a CSV, no email column, a column twice, empty, over 5 MB', async () => {
  const json = await d.request('POST', '/contacts/import', { file: 'email\nx@y.test' });
  assert.is(json.status, 400);
  assert.is(json.body.error.code, 'BAD_REQUEST');

  for (const [type, raw] of [
    ['multipart/form-data', 'no boundary'],
    ['multipart/form-data; boundary=xyz', '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nemail\n'],
    ['multipart/form-data; boundary=xyz', 'garbage without any boundary line'],
  ]) {
    const r = await d.request('POST', '/contacts/import', undefined, { raw, headers: { 'content-type': type } });
    assert.ok(r.status === 400 || r.status === 422, `${type}: ${r.status}`);
    assert.is(r.body.success, false);
  }

  const noFile = await uploadCsv(d, 'email\nx@y.test', { field: 'other' });
  assert.is(noFile.status, 422);
  assert.is(noFile.body.error.errors[0].field, 'file');

  const notCsv = await uploadCsv(d, 'email\nx@y.test', { filename: 'contacts.xlsx', type: 'application/octet-stream' });
  assert.is(notCsv.status, 422);
  assert.match(notCsv.body.error.errors[0].message, /\.csv/);

  for (const [content, message] of [
    ['name,city\nAnn,Berlin\n', /no "email" column/],
    ['email,Email\nx@y.test,x@y.test\n', /appears twice/],
    ['', /empty/],
    ['\uFEFF\r\n\r\n', /empty/],
  ] as const) {
    const r = await uploadCsv(d, content);
    assert.is(r.status, 422, content);
    assert.is(r.body.error.code, 'VALIDATION_ERROR');
    assert.match(r.body.error.errors[0].message, message);
  }

  const big = Buffer.alloc(5 * 1024 * 1024 + 10, 'a');
  const tooBig = await uploadCsv(d, big).catch(() => null);
  // the daemon may close the connection before the client has sent everything; a reply, if any, is the 400
  if (tooBig) {
    assert.is(tooBig.status, 400);
    assert.match(tooBig.body.error.message, /5 MB/);
  }
  const incoming = join(d.dataDir, 'store', 'imports', 'incoming');
  await eventually((saw) => (saw({ files: readdirSync(incoming) }), readdirSync(incoming).length === 0), 5000, 'refused uploads to leave no file behind');
  assert.is((await d.request('GET', '/health', undefined, { key: null })).status, 200);
});

test("another project's import job is 404; a bulk job id is not an import", async () => {
  const other = d.createProject('other-import');
  const r = await uploadCsv(d, 'email\nmine@import.test\n');
  assert.is((await d.request('GET', `/contacts/import/${r.body.jobId}`, undefined, { key: other.secretKey })).status, 404);
  assert.is((await d.request('GET', `/contacts/bulk/${r.body.jobId}`)).status, 404);
  assert.is((await d.request('GET', '/contacts/import/not-a-uuid')).status, 404);
  await finished(d, `/contacts/import/${r.body.jobId}`);
});

test('a public key is refused; a disabled project cannot import', async () => {
  assert.is((await uploadCsv(d, 'email\nx@y.test', { key: d.project.publicKey })).status, 401);
  const p = d.createProject('disabled-import');
  d.cli('project', 'disable', p.id);
  const r = await uploadCsv(d, 'email\nx@y.test', { key: p.secretKey });
  assert.is(r.status, 403);
  assert.is(r.body.error.code, 'PROJECT_DISABLED');
});

test('kill -9 in the middle of an import: the restarted daemon finishes it without duplicating or losing rows', async () => {
  const p = d.createProject('crash-import');
  const rows = 40_000;
  // every tenth row flips an existing contact: its event must exist exactly once afterwards
  const flips = 200;
  for (let i = 0; i < flips; i++) await d.request('POST', '/contacts', { email: `row${i * 10}@crash.test` }, { key: p.secretKey });
  const lines = ['email,subscribed,n'];
  for (let i = 0; i < rows; i++) lines.push(`row${i}@crash.test,${i % 10 === 0 && i < flips * 10 ? 'no' : ''},${i}`);
  const r = await uploadCsv(d, lines.join('\n'), { key: p.secretKey });
  assert.is(r.status, 202);
  const poll = `/contacts/import/${r.body.jobId}`;
  // killed once rows are imported, before the last
  const midway = await eventually(
    async () => {
      const job = (await d.request('GET', poll, undefined, { key: p.secretKey })).body;
      assert.is.not(job.state, 'completed', 'the import ended before the daemon could be killed in its middle');
      return job.state === 'running' && job.result.totalRows > 0 ? job : null;
    },
    30_000,
    'the import running with some of its rows done',
    10,
  );
  await d.kill();
  assert.ok(midway.result.totalRows < rows);
  await d.restart();
  const job = await finished(d, poll, p.secretKey, 60_000);
  assert.is(job.state, 'completed');
  assert.equal(job.result, { totalRows: rows, created: rows - flips, updated: flips, failed: 0, errors: [] });
  const list = await d.request('GET', '/contacts?limit=1', undefined, { key: p.secretKey });
  assert.is(list.body.total, rows);
  const unsubscribed = await d.request('GET', '/events?name=contact.unsubscribed&limit=500', undefined, { key: p.secretKey });
  assert.is(unsubscribed.body.data.length, flips, 'one event per flip, none repeated by the second run');
  assert.is(new Set(unsubscribed.body.data.map((e: { contactId: string }) => e.contactId)).size, flips);
});

test('jobs are kept 7 days: the sweep drops older ones and their files', async () => {
  const r = await uploadCsv(d, 'email\nold@import.test\n');
  const poll = `/contacts/import/${r.body.jobId}`;
  await finished(d, poll);
  const imports = join(d.dataDir, 'store', 'imports');
  // the job is marked completed, then its file removed: on a loaded machine a poll can come between
  const csvFiles = () => readdirSync(imports).filter((f) => f.endsWith('.csv'));
  await eventually((saw) => (saw(csvFiles()), csvFiles().length === 0), 10_000, 'a finished import leaves no file');
  // the sweep is a recurring job: each move of the clock makes it due, idle has let it run
  await advance(d, 6 * 24 * 3600_000);
  await idle(d);
  assert.is((await d.request('GET', poll)).status, 200, 'still there after 6 days');
  await advance(d, 2 * 24 * 3600_000);
  await idle(d);
  assert.is((await d.request('GET', poll)).status, 404, 'swept after 7 days');
  assert.ok(existsSync(imports));
});

test.run();
