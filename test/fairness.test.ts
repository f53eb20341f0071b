// One project's backlog in a shared queue must not hold up another project's work: workflow steps,
// contact imports and bulk jobs (the job runner's claims). Each test builds the backlog, then times
// or orders the other project's work against it. (Delivery's claims: test/delivery-lanes.test.ts.)
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestDaemon, type Keys, type TestDaemon } from './helpers/daemon.js';
import { eventually } from './helpers/mail-env.js';
import { finished, uploadCsv } from './helpers/upload.js';

let d: TestDaemon;

test.before(async () => {
  d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 }, webhooks: { allowPrivate: true } } });
});
test.after(async () => d.dispose());

/** A webhook receiver that answers `/fast/...` at once and keeps every other request waiting until closed. */
async function startSlowReceiver(): Promise<{ url: string; held: () => number; arrivals: Map<string, number>; close(): Promise<void> }> {
  const held: ServerResponse[] = [];
  const arrivals = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (!req.url?.startsWith('/fast/')) return void held.push(res);
      arrivals.set(req.url, performance.now());
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => held.filter((res) => !res.writableEnded && !res.destroyed).length,
    arrivals,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A workflow of one WEBHOOK step to `url`, enabled, started by `event`, in the project of `key`. */
async function webhookFlow(key: string, event: string, url: string): Promise<void> {
  const w = (await d.request('POST', '/workflows', { name: event, eventName: event }, { key })).body;
  const step = (await d.request('POST', `/workflows/${w.id}/steps`, { type: 'WEBHOOK', name: 'hook', config: { url } }, { key })).body;
  await d.request('POST', `/workflows/${w.id}/transitions`, { fromStepId: w.steps[0].id, toStepId: step.id }, { key });
  assert.is((await d.request('PATCH', `/workflows/${w.id}`, { enabled: true }, { key })).status, 200);
}

const track = async (project: Keys, email: string, event: string) => {
  const r = await d.request('POST', '/v1/track', { email, event }, { key: project.publicKey });
  assert.is(r.status, 200, JSON.stringify(r.body));
};

test('workflow steps: another project\'s webhook step runs at once while one project\'s 48 slow webhooks are in flight', async () => {
  const hooks = await startSlowReceiver();
  try {
    const busy = d.createProject('slow-hooks');
    const other = d.createProject('quick-hook');
    await webhookFlow(busy.secretKey, 'slow-signup', `${hooks.url}/slow`);
    await webhookFlow(other.secretKey, 'quick-signup', `${hooks.url}/fast/other`);
    await Promise.all(Array.from({ length: 48 }, (_, i) => track(busy, `slow${i}@busy.test`, 'slow-signup')));
    // the backlog holds its places: its webhooks wait for an answer that does not come (10 s timeout)
    await eventually(async () => hooks.held() >= 16, 15_000, '16 slow webhooks in flight');
    const started = performance.now();
    await track(other, 'quick@other.test', 'quick-signup');
    await eventually(async () => hooks.arrivals.has('/fast/other'), 20_000, 'the other project\'s webhook');
    const ms = hooks.arrivals.get('/fast/other')! - started;
    // one FIFO pool of places made it wait for the first slow webhook to time out (10 s and more)
    assert.ok(ms < 5000, `the other project's webhook arrived after ${Math.round(ms)} ms (alone: a few hundred)`);
    assert.ok(hooks.held() >= 16, `the backlog was still in flight (${hooks.held()} webhooks held)`);
  } finally {
    await hooks.close();
  }
});

/** A CSV of `rows` contacts of `domain`, each with a little data. */
const csvOf = (rows: number, domain: string) => ['email,plan,score', ...Array.from({ length: rows }, (_, i) => `c${i}@${domain},pro,${i}`)].join('\n');

interface JobPoll {
  createdAt: string;
  finishedAt: string;
}

/**
 * Of a project's `backlog`, how many were still unfinished when the other project's job was created,
 * and how many of those finished before it did (from the polls' createdAt and finishedAt).
 */
function overtaken(backlog: JobPoll[], other: JobPoll): { waiting: number; finishedFirst: number } {
  const unfinished = backlog.filter((j) => Date.parse(j.finishedAt) > Date.parse(other.createdAt));
  return { waiting: unfinished.length, finishedFirst: unfinished.filter((j) => Date.parse(j.finishedAt) <= Date.parse(other.finishedAt)).length };
}

test('imports: another project\'s one-row import completes while one project\'s six large imports are queued', async () => {
  const busy = d.createProject('big-imports');
  const other = d.createProject('small-import');
  const ids: string[] = [];
  for (let i = 0; i < 6; i++) {
    const r = await uploadCsv(d, csvOf(8000, `import${i}.test`), { key: busy.secretKey });
    assert.is(r.status, 202, JSON.stringify(r.body));
    ids.push(r.body.jobId);
  }
  const started = performance.now();
  const small = await uploadCsv(d, csvOf(1, 'small.test'), { key: other.secretKey });
  assert.is(small.status, 202, JSON.stringify(small.body));
  const done = await finished(d, `/contacts/import/${small.body.jobId}`, other.secretKey, 60_000);
  const ms = performance.now() - started;
  assert.is(done.state, 'completed');
  assert.is(done.result.created, 1);
  const backlog = await Promise.all(ids.map((id) => finished(d, `/contacts/import/${id}`, busy.secretKey, 120_000)));
  assert.ok(backlog.every((j) => j.state === 'completed' && j.result.created === 8000));
  // one import at a time in the daemon ran it after every one queued before it
  const { waiting, finishedFirst } = overtaken(backlog, done);
  assert.ok(waiting >= 2, `the backlog was there: ${waiting} large imports unfinished when the small one was queued`);
  assert.ok(finishedFirst <= 1, `${finishedFirst} of those ${waiting} finished before the small one (which took ${Math.round(ms)} ms)`);
});

test('bulk jobs: another project\'s bulk job completes beside one project\'s eight queued ones', async () => {
  const busy = d.createProject('big-bulk');
  const other = d.createProject('small-bulk');
  const ids: string[] = [];
  for (let i = 0; i < 8; i++) {
    const r = await d.request('POST', '/contacts/bulk-unsubscribe', { contactIds: Array.from({ length: 1000 }, () => randomUUID()) }, { key: busy.secretKey });
    assert.is(r.status, 202, JSON.stringify(r.body));
    ids.push(r.body.jobId);
  }
  const contact = (await d.request('POST', '/contacts', { email: 'one@small-bulk.test' }, { key: other.secretKey })).body;
  const r = await d.request('POST', '/contacts/bulk-unsubscribe', { contactIds: [contact.id] }, { key: other.secretKey });
  const done = await finished(d, `/contacts/bulk/${r.body.jobId}`, other.secretKey, 60_000);
  assert.is(done.result.changed, 1);
  const backlog = await Promise.all(ids.map((id) => finished(d, `/contacts/bulk/${id}`, busy.secretKey, 120_000)));
  const { waiting, finishedFirst } = overtaken(backlog, done);
  assert.ok(waiting >= 3, `the backlog was there: ${waiting} bulk jobs unfinished when the other project's was queued`);
  assert.ok(finishedFirst <= 1, `${finishedFirst} of those ${waiting} finished before the other project's`);
});

test.run();
