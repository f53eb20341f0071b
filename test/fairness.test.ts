// One project's backlog in a shared queue must not hold up another project's work: workflow steps,
// contact imports and bulk jobs (the job runner's claims), and /v1/verify's DNS lookups (a fair gate
// and a short failure cache). Each test builds the backlog, then times or orders the other
// project's work against it: what finished before what, never how long it took (a loaded machine
// stretches that). (Delivery's claims: test/delivery-lanes.test.ts.)
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestDaemon, type Keys, type TestDaemon } from './helpers/daemon.js';
import { startDnsServer, type TestDnsServer } from './helpers/dns-server.js';
import { holdLargeSends } from './helpers/held-sends.js';
import { ADMIN, eventually } from './helpers/mail-env.js';
import { finished, uploadCsv } from './helpers/upload.js';

let d: TestDaemon;
let dns: TestDnsServer;

test.before(async () => {
  dns = await startDnsServer();
  d = await startTestDaemon({
    config: { rateLimit: { perMinute: 0 }, webhooks: { allowPrivate: true }, dns: { servers: [dns.address] }, adminToken: ADMIN, testHooks: true },
  });
});
test.after(async () => {
  await d.dispose();
  await dns.close();
});

/**
 * A webhook receiver that answers `/fast/...` at once and keeps every other request waiting until
 * closed; `arrivals` says, for each fast request, how many held ones the daemon had given up on
 * (its 10 s timeout) before it came.
 */
async function startSlowReceiver(): Promise<{ url: string; held: () => number; arrivals: Map<string, { heldEnded: number }>; close(): Promise<void> }> {
  const held: ServerResponse[] = [];
  const arrivals = new Map<string, { heldEnded: number }>();
  let heldEnded = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (!req.url?.startsWith('/fast/')) {
        res.once('close', () => heldEnded++);
        return void held.push(res);
      }
      arrivals.set(req.url, { heldEnded });
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
    await eventually((saw) => (saw({ held: hooks.held() }), hooks.held() >= 16), 15_000, '16 slow webhooks in flight');
    await track(other, 'quick@other.test', 'quick-signup');
    await eventually((saw) => (saw([...hooks.arrivals.keys()]), hooks.arrivals.has('/fast/other')), 20_000, 'the other project\'s webhook');
    // one FIFO pool of places made it wait for slow webhooks to time out (10 s each) and free theirs
    assert.is(hooks.arrivals.get('/fast/other')!.heldEnded, 0, "the other project's webhook arrived before any of the backlog's had ended");
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
  const small = await uploadCsv(d, csvOf(1, 'small.test'), { key: other.secretKey });
  assert.is(small.status, 202, JSON.stringify(small.body));
  const done = await finished(d, `/contacts/import/${small.body.jobId}`, other.secretKey, 60_000);
  assert.is(done.state, 'completed');
  assert.is(done.result.created, 1);
  const backlog = await Promise.all(ids.map((id) => finished(d, `/contacts/import/${id}`, busy.secretKey, 120_000)));
  assert.ok(backlog.every((j) => j.state === 'completed' && j.result.created === 8000));
  // one import at a time in the daemon ran it after every one queued before it
  const { waiting, finishedFirst } = overtaken(backlog, done);
  assert.ok(waiting >= 2, `the backlog was there: ${waiting} large imports unfinished when the small one was queued`);
  assert.ok(finishedFirst <= 1, `${finishedFirst} of those ${waiting} finished before the small one`);
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

test('large requests: one project\'s pile of waiting large sends is refused at its own bound, never another project\'s send', async () => {
  const busy = d.createProject('heavy-pile');
  const other = d.createProject('heavy-other');
  // the first holds the project's turn, the rest wait for it
  const pile = holdLargeSends(d, busy.secretKey, 41);
  try {
    await eventually((saw) => (saw(pile.statuses), pile.statuses.length >= 8), 15_000, 'the pile past its bound refused');
    const body = { to: 'big@rcpt.test', from: 'desk@heavy-other.test', subject: 'Large', body: `<p>${'x'.repeat(1_200_000)}</p>` };
    // two at once: the second waits for the project's turn, in a waiting room the pile must not fill
    const answers = await Promise.all([1, 2].map(() => d.request('POST', '/v1/send', body, { key: other.secretKey })));
    for (const r of answers) assert.is.not(r.status, 429, `the other project's large send was refused for the busy one's pile: ${JSON.stringify(r.body).slice(0, 300)}`);
    // one in its turn, 8 waiting, the rest refused
    await eventually((saw) => (saw(pile.statuses), pile.statuses.length >= 41 - 1 - 8), 15_000, '32 of the pile refused');
    assert.ok(pile.statuses.every((s) => s === 429), `the pile's answers: ${pile.statuses.join(', ')}`);
  } finally {
    pile.release();
  }
});

/** A domain that exists (NS) and takes mail (MX), with a website. */
function mailDomain(name: string): void {
  dns.set(name, 'NS', [`ns1.${name}`]);
  dns.set(name, 'MX', [{ exchange: `mx.${name}`, priority: 10 }]);
  dns.set(name, 'A', ['192.0.2.1']);
}

const verify = (project: Keys, email: string) => d.request('POST', '/v1/verify', { email }, { key: project.secretKey });

test('verify: another project\'s verification answers at once while one project verifies 40 names whose DNS never answers; its waiting pile is bounded', async () => {
  const busy = d.createProject('silent-names');
  const other = d.createProject('good-names');
  for (let i = 0; i < 40; i++) dns.misbehave(`silent${i}.test`, 'silent');
  mailDomain('answers.test');
  let busyAnswered = 0;
  const counted = () => void busyAnswered++;
  const pending = Array.from({ length: 40 }, (_, i) => verify(busy, `a@silent${i}.test`).then(counted, counted));
  await eventually((saw) => (saw({ asked: dns.asked('silent3.test') }), dns.asked('silent3.test') > 0), 10_000, 'the silent names asked');
  const r = await verify(other, 'ann@answers.test');
  const answeredBefore = busyAnswered;
  assert.is(r.status, 200);
  assert.is(r.body.data.valid, true);
  // one queue of 16 DNS queries for the daemon put it behind 160 lookups that each wait out their timeout (5 s, twice)
  assert.is(answeredBefore, 0, "the other project's verification answered before any of the busy project's");
  // 4 of the busy project's verifications ask DNS, 36 wait; 64 may wait: of 30 more, 2 are refused
  const more = await Promise.all(Array.from({ length: 30 }, (_, i) => verify(busy, `b@silent${i}.test`).then((x) => x.status).catch(() => 0)));
  const refused = more.filter((s) => s === 429).length;
  assert.ok(refused >= 2, `${refused} of 30 more refused (statuses ${[...new Set(more)].join(', ')})`);
  assert.is((await verify(other, 'bob@answers.test')).status, 200, 'the other project is not refused for the busy one\'s pile');
  void Promise.all(pending);
});

test('verify: a failed lookup is kept 30 s (one question for many verifications), then asked again', async () => {
  const p = d.createProject('servfail');
  dns.misbehave('broken.test', 'servfail');
  const first = await verify(p, 'a@broken.test');
  assert.is(first.status, 200);
  assert.ok(first.body.data.reasons.some((x: string) => /DNS could not be asked/.test(x)), JSON.stringify(first.body.data));
  const asked = dns.asked('broken.test');
  for (const local of ['b', 'c', 'd']) assert.is((await verify(p, `${local}@broken.test`)).body.data.valid, false);
  assert.is(dns.asked('broken.test'), asked, 'the failure was kept: no new question');
  assert.is((await d.request('POST', '/_test/clock', { advanceMs: 31_000 }, { key: ADMIN })).status, 200);
  dns.clear('broken.test');
  mailDomain('broken.test');
  const later = await verify(p, 'e@broken.test');
  assert.ok(dns.asked('broken.test') > asked, 'asked again after 30 s');
  assert.is(later.body.data.valid, true, JSON.stringify(later.body.data));
});

test.run();
