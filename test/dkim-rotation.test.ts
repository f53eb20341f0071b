// DKIM keys that rotate, and Ed25519 beside RSA (RFC 8463), through the real daemon: the loopback DNS
// server publishes (or not) the records the API hands out, the SMTP sink receives what is signed, and
// two verifiers apart from the signer (mailauth, and dkimpy where Debian's python3-dkim is installed)
// check every signature with the keys as DNS serves them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyDkim } from './helpers/dkim-verify.js';
import { dkimpyMissing, dkimpyVerify } from './helpers/dkimpy.js';
import type { Keys } from './helpers/daemon.js';
import type { PublishedRecord } from './helpers/domains.js';
import { startMailEnv, type MailEnv } from './helpers/mail-env.js';

const CHECK_EVERY = 5 * 60_000;
const DAY = 24 * 3600_000;
const OVERLAP_DAYS = 3;
const ROTATE_EVERY_DAYS = 180;

interface KeyRecord extends PublishedRecord {
  selector: string;
  algorithm: 'rsa' | 'ed25519';
  state: 'pending' | 'active' | 'retiring' | 'safe_to_remove';
  safeToRemoveAt: string | null;
}

let env: MailEnv;
let edProject: Keys;
/** A message signed with rsa-sha256 and ed25519-sha256, both keys still published (the Ed25519 test). */
let signedTwice: Buffer | null = null;

test.before(async () => {
  env = await startMailEnv({ config: { dkim: { rotationOverlapDays: OVERLAP_DAYS, rotateEveryDays: ROTATE_EVERY_DAYS } }, sinkDomains: ['rcpt.test'] });
  edProject = env.daemon.createProject('ed25519');
});
test.after(async () => env.close());

const keysOf = (records: PublishedRecord[]) => records.filter((r) => r.purpose === 'dkim') as KeyRecord[];
const states = (records: PublishedRecord[]) => keysOf(records).map((r) => `${r.algorithm} ${r.state}`);

async function domain(id: string, key = env.daemon.project.secretKey): Promise<PublishedRecord[]> {
  const r = await env.daemon.request('GET', `/domains/${id}`, undefined, { key });
  assert.is(r.status, 200, JSON.stringify(r.body));
  return r.body.records;
}

/** Sends one message from `from` and answers it as the sink received it. */
async function sent(from: string, key = env.daemon.project.secretKey): Promise<Buffer> {
  const before = env.sink.messages.length;
  const r = await env.daemon.request('POST', '/v1/send', { to: 'ann@rcpt.test', from, subject: 'Hello', body: '<p>Hi</p>' }, { key });
  assert.is(r.status, 200, JSON.stringify(r.body));
  return (await env.sink.waitFor(before + 1, 20_000))[before]!.raw;
}

/** The `s=` and `a=` of each DKIM-Signature, top first. */
function signatures(raw: Buffer): { s: string; a: string }[] {
  const head = raw.toString('latin1').split('\r\n\r\n')[0]!.replace(/\r\n[ \t]/g, ' ');
  return head
    .split('\r\n')
    .filter((line) => /^dkim-signature:/i.test(line))
    .map((line) => ({ s: /\bs=([^;\s]+)/.exec(line)![1]!, a: /\ba=([^;\s]+)/.exec(line)![1]! }));
}

/** The daemon's time (its clock runs ahead of the machine's once a test moved it). */
const daemonNow = () => env.advance(1);

/**
 * Every signature of each message passes mailauth, and dkimpy where it is installed, with the keys
 * in the loopback DNS now.
 */
async function allVerify(messages: Record<string, Buffer>): Promise<void> {
  const counts: number[] = [];
  for (const [what, raw] of Object.entries(messages)) {
    const { results } = await verifyDkim(raw, env.dns.address);
    const outcomes = (results as { status: { result: string } }[]).map((r) => r.status.result);
    assert.ok(outcomes.length > 0 && outcomes.every((r) => r === 'pass'), `${what}: mailauth ${JSON.stringify(results)}`);
    counts.push(outcomes.length);
  }
  if (dkimpyMissing() !== null) return;
  const byDkimpy = await dkimpyVerify(Object.values(messages), env.dns.address, await daemonNow());
  Object.keys(messages).forEach((what, i) => {
    assert.is(byDkimpy[i]!.length, counts[i], `${what}: dkimpy saw every signature`);
    assert.ok(byDkimpy[i]!.every((r) => r.pass), `${what}: dkimpy ${JSON.stringify(byDkimpy[i])}`);
  });
}

/** One turn of the periodic domain check (the durable job), brought due by the test clock; answers the daemon's time it was due at. */
async function checkRuns(): Promise<number> {
  const at = await env.advance(CHECK_EVERY);
  await env.idle();
  return at;
}

const publish = (record: PublishedRecord) => env.dns.set(record.name, 'TXT', [record.value]);

test('rotation: a pending key signs only once the check sees it in DNS; both selectors verify during the overlap, then the old one is safe to remove', async () => {
  const registered = await env.verifySender('rotate.test');
  const [first] = keysOf(registered.records);
  assert.equal(states(registered.records), ['rsa active']);

  const rotated = await env.daemon.request('POST', `/domains/${registered.id}/rotate-key`);
  assert.is(rotated.status, 202, JSON.stringify(rotated.body));
  assert.equal(states(rotated.body.records), ['rsa active', 'rsa pending']);
  const fresh = keysOf(rotated.body.records)[1]!;
  assert.is.not(fresh.selector, first!.selector);
  assert.is(fresh.name, `${fresh.selector}._domainkey.rotate.test`);
  assert.match(fresh.value, /^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]+=*$/);
  assert.is(fresh.verified, false);

  const again = await env.daemon.request('POST', `/domains/${registered.id}/rotate-key`);
  assert.is(again.status, 409, 'a rotation already pending');
  assert.is(again.body.error.code, 'CONFLICT');
  assert.match(again.body.error.message, fresh.name);

  // accepted means kept: the pending key survives kill -9
  await env.daemon.kill();
  await env.daemon.restart();
  assert.equal(states(await domain(registered.id)), ['rsa active', 'rsa pending']);

  // the check runs before the record is published: still the old key
  await checkRuns();
  assert.equal(states(await domain(registered.id)), ['rsa active', 'rsa pending']);
  const before = await sent('news@rotate.test');
  assert.equal(signatures(before), [{ s: first!.selector, a: 'rsa-sha256' }]);
  await allVerify({ 'signed before publication': before });

  publish(fresh);
  const checkedAt = await checkRuns();
  const after = keysOf(await domain(registered.id));
  assert.equal(
    after.map((r) => [r.selector, r.state, r.verified]),
    [
      [fresh.selector, 'active', true],
      [first!.selector, 'retiring', true],
    ],
  );
  const retiredAt = Date.parse(after[1]!.safeToRemoveAt!) - OVERLAP_DAYS * DAY;
  assert.ok(retiredAt >= checkedAt && retiredAt < checkedAt + 60_000, `retired by the check at ${new Date(checkedAt).toISOString()}, not at ${new Date(retiredAt).toISOString()}`);
  assert.is(after[0]!.safeToRemoveAt, null);

  const later = await sent('news@rotate.test');
  assert.equal(signatures(later), [{ s: fresh.selector, a: 'rsa-sha256' }]);
  // the overlap: mail signed with either selector still verifies
  await allVerify({ 'old selector during the overlap': before, 'new selector': later });

  await env.advance(OVERLAP_DAYS * DAY - 2 * CHECK_EVERY);
  await env.idle();
  assert.equal(states(await domain(registered.id)), ['rsa active', 'rsa retiring'], 'kept within the overlap');
  await env.advance(3 * CHECK_EVERY);
  await env.idle();
  assert.equal(states(await domain(registered.id)), ['rsa active', 'rsa safe_to_remove']);

  // once removed from DNS, the old key is forgotten; the new one keeps the domain verified
  env.dns.set(first!.name, 'TXT', []);
  await checkRuns();
  const settled = await env.daemon.request('GET', `/domains/${registered.id}`);
  assert.equal(states(settled.body.records), ['rsa active']);
  assert.is(settled.body.status, 'verified');
  assert.equal(signatures(await sent('news@rotate.test')), [{ s: fresh.selector, a: 'rsa-sha256' }]);
});

test('rotate-key: 404 for a domain of another project or none, 409 only while a key is pending', async () => {
  const own = await env.verifySender('mine.test');
  const other = env.daemon.createProject('other');
  assert.is((await env.daemon.request('POST', `/domains/${own.id}/rotate-key`, undefined, { key: other.secretKey })).status, 404);
  assert.is((await env.daemon.request('POST', '/domains/00000000-0000-4000-8000-000000000000/rotate-key')).status, 404);
  const first = await env.daemon.request('POST', `/domains/${own.id}/rotate-key`);
  assert.is(first.status, 202);
  assert.is((await env.daemon.request('POST', `/domains/${own.id}/rotate-key`)).status, 409);
  publish(keysOf(first.body.records).find((r) => r.state === 'pending')!);
  const checked = await env.daemon.request('GET', `/domains/${own.id}/verify`);
  assert.equal(states(checked.body.records), ['rsa active', 'rsa retiring']);
  assert.is((await env.daemon.request('POST', `/domains/${own.id}/rotate-key`)).status, 202, 'the next rotation may start');
});

test('Ed25519: the project setting gives each domain a key; once published, mail carries ed25519-sha256 beside rsa-sha256, both verifying', async () => {
  const key = edProject.secretKey;
  const registered = await env.verifySender('ed.test', edProject);
  assert.equal((await env.daemon.request('GET', '/settings/dkim', undefined, { key })).body, { dkimEd25519: false });
  for (const body of [{}, { dkimEd25519: 'yes' }, { dkimEd25519: 1 }, { dkimEd25519: true, extra: 1 }, undefined]) {
    const bad = await env.daemon.request('PATCH', '/settings/dkim', body, { key });
    assert.is(bad.status, 422, `${JSON.stringify(bad.body)} for ${JSON.stringify(body)}`);
  }
  assert.equal((await env.daemon.request('GET', '/settings/dkim', undefined, { key })).body, { dkimEd25519: false }, 'refused bodies change nothing');
  assert.equal(states(await domain(registered.id, key)), ['rsa active'], 'and make no key');
  const on = await env.daemon.request('PATCH', '/settings/dkim', { dkimEd25519: true }, { key });
  assert.is(on.status, 200, JSON.stringify(on.body));
  assert.equal(on.body, { dkimEd25519: true });
  assert.equal((await env.daemon.request('GET', '/settings/dkim')).body, { dkimEd25519: false }, 'per project');

  const records = await domain(registered.id, key);
  assert.equal(states(records), ['rsa active', 'ed25519 pending']);
  const ed = keysOf(records)[1]!;
  assert.match(ed.value, /^v=DKIM1; k=ed25519; p=[A-Za-z0-9+/]{43}=$/);
  assert.is(Buffer.from(ed.value.split('p=')[1]!, 'base64').length, 32, 'the raw 32-byte public key (RFC 8463 4)');

  const unpublished = await sent('hi@ed.test', key);
  assert.equal(signatures(unpublished).map((s) => s.a), ['rsa-sha256'], 'no Ed25519 signature before its record is seen');

  publish(ed);
  await checkRuns();
  assert.equal(states(await domain(registered.id, key)), ['rsa active', 'ed25519 active']);
  const both = await sent('hi@ed.test', key);
  const rsa = keysOf(records)[0]!;
  assert.equal(signatures(both), [
    { s: rsa.selector, a: 'rsa-sha256' },
    { s: ed.selector, a: 'ed25519-sha256' },
  ]);
  await allVerify({ 'rsa-sha256 and ed25519-sha256': both });
  signedTwice = both;
  // each signature stands on its own: with only the Ed25519 key in DNS, that one still passes
  env.dns.set(rsa.name, 'TXT', []);
  const { results } = await verifyDkim(both, env.dns.address);
  assert.equal(
    (results as { selector: string; status: { result: string } }[]).map((r) => [r.selector, r.status.result === 'pass']),
    [
      [rsa.selector, false],
      [ed.selector, true],
    ],
  );
  publish(rsa);

  // a domain registered now gets both keys; a rotation rotates both
  const added = await env.daemon.request('POST', '/domains', { domain: 'ed2.test' }, { key });
  assert.equal(states(added.body.records), ['rsa active', 'ed25519 pending']);
  const rotated = await env.daemon.request('POST', `/domains/${registered.id}/rotate-key`, undefined, { key });
  assert.equal(states(rotated.body.records), ['rsa active', 'ed25519 active', 'rsa pending', 'ed25519 pending']);
  for (const record of keysOf(rotated.body.records)) publish(record);
  await checkRuns();
  const swapped = keysOf(await domain(registered.id, key));
  assert.equal(states(swapped), ['rsa active', 'ed25519 active', 'rsa retiring', 'ed25519 retiring']);
  const rotatedMail = await sent('hi@ed.test', key);
  assert.equal(signatures(rotatedMail), [
    { s: swapped[0]!.selector, a: 'rsa-sha256' },
    { s: swapped[1]!.selector, a: 'ed25519-sha256' },
  ]);
  await allVerify({ 'both rotated keys': rotatedMail, 'both old keys during the overlap': both });

  // off: the Ed25519 keys stop signing and stay published for the overlap; a pending one goes
  assert.equal((await env.daemon.request('PATCH', '/settings/dkim', { dkimEd25519: false }, { key })).body, { dkimEd25519: false });
  assert.equal(states(await domain(registered.id, key)), ['rsa active', 'rsa retiring', 'ed25519 retiring', 'ed25519 retiring']);
  assert.equal(states(await domain(added.body.id, key)), ['rsa active']);
  assert.equal(signatures(await sent('hi@ed.test', key)).map((s) => s.a), ['rsa-sha256']);
});

const dkimpyReason = dkimpyMissing();
(dkimpyReason === null ? test : test.skip)('dkimpy (an implementation apart from the signer) verifies rsa-sha256 and ed25519-sha256 and refuses a changed message', async () => {
  assert.ok(signedTwice, 'the Ed25519 test left its message');
  const raw = signedTwice!;
  const changed = Buffer.from(raw.toString('latin1').replace('Subject: Hello', 'Subject: Hullo'), 'latin1');
  const [intact, altered] = await dkimpyVerify([raw, changed], env.dns.address, await daemonNow());
  assert.equal(
    intact!.map((r) => [r.algorithm, r.pass]),
    [
      ['rsa-sha256', true],
      ['ed25519-sha256', true],
    ],
  );
  assert.equal(
    altered!.map((r) => [r.algorithm, r.pass]),
    [
      ['rsa-sha256', false],
      ['ed25519-sha256', false],
    ],
    'a changed subject fails both',
  );
});

// last: it moves the clock half a year, which makes every domain due
test('dkim.rotateEveryDays: a verified domain whose key has signed that long gets a rotation from the durable job, the next one as long after', async () => {
  const registered = await env.verifySender('schedule.test');
  await env.advance((ROTATE_EVERY_DAYS - 1) * DAY);
  await env.idle();
  assert.equal(states(await domain(registered.id)), ['rsa active'], 'not due yet');
  await env.advance(DAY + 3600_000);
  await env.idle();
  const due = await domain(registered.id);
  assert.equal(states(due), ['rsa active', 'rsa pending'], 'the scheduled rotation started');
  assert.is((await env.daemon.request('POST', `/domains/${registered.id}/rotate-key`)).status, 409, 'one rotation at a time');
  publish(keysOf(due).find((r) => r.state === 'pending')!);
  await checkRuns();
  assert.equal(states(await domain(registered.id)), ['rsa active', 'rsa retiring']);
  await env.advance(DAY + 3600_000);
  await env.idle();
  assert.equal(states(await domain(registered.id)), ['rsa active', 'rsa retiring'], 'the new key is not due before it has signed that long');
});

if (dkimpyReason !== null) console.log(`skipped the dkimpy test: ${dkimpyReason}`);

test.run();
