import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestDaemon, type Keys, type TestDaemon } from './helpers/daemon.js';

let d: TestDaemon;
let p: Keys;
const pk = () => ({ key: p.publicKey });

test.before(async () => {
  d = await startTestDaemon({ config: { rateLimit: { perMinute: 0 } } });
  p = d.createProject('track');
});
test.after(async () => d.dispose());

const contactByEmail = async (email: string) => {
  const found = await d.request('POST', '/contacts/lookup', { emails: [email] }, { key: p.secretKey });
  return (await d.request('GET', `/contacts/${found.body.found[0].id}`, undefined, { key: p.secretKey })).body;
};
const eventsOf = async (contactId: string) => (await d.request('GET', `/events/contact/${contactId}`, undefined, { key: p.secretKey })).body.data;

test('POST /v1/track with the public key upserts the contact and records the event', async () => {
  const r = await d.request(
    'POST',
    '/v1/track',
    { email: 'Track@Example.test', event: 'signed-up', data: { plan: 'pro', seats: 3, once: { value: 'code-1', persistent: false }, id: 'dropped' } },
    pk(),
  );
  assert.is(r.status, 200);
  assert.is(r.body.success, true);
  assert.match(r.body.data.contact, /^[0-9a-f-]{36}$/);
  assert.match(r.body.data.event, /^[0-9a-f-]{36}$/);
  assert.ok(!Number.isNaN(Date.parse(r.body.data.timestamp)));

  const contact = await contactByEmail('track@example.test');
  assert.is(contact.id, r.body.data.contact);
  assert.is(contact.email, 'Track@Example.test');
  assert.is(contact.subscribed, true, 'new contacts from /v1/track are subscribed');
  assert.equal(contact.data, { plan: 'pro', seats: 3 }, 'one-off values and reserved keys are not stored');

  const [event] = await eventsOf(contact.id);
  assert.equal(event, {
    id: r.body.data.event,
    name: 'signed-up',
    contactId: contact.id,
    emailId: null,
    data: { plan: 'pro', seats: 3, once: 'code-1' },
    createdAt: r.body.data.timestamp,
  });
});

test('a secret key is refused on /v1/track with 401 INVALID_API_KEY; a missing key too', async () => {
  const secret = await d.request('POST', '/v1/track', { email: 'sk@example.test', event: 'x' }, { key: p.secretKey });
  assert.is(secret.status, 401);
  assert.is(secret.body.error.code, 'INVALID_API_KEY');
  const none = await d.request('POST', '/v1/track', { email: 'sk@example.test', event: 'x' }, { key: null });
  assert.is(none.status, 401);
  const found = await d.request('POST', '/contacts/lookup', { emails: ['sk@example.test'] }, { key: p.secretKey });
  assert.equal(found.body.notFound, ['sk@example.test'], 'nothing was written');
});

test('subscribed: false keeps a new contact out, flips an existing one (contact.unsubscribed); omitted keeps the state', async () => {
  await d.request('POST', '/v1/track', { email: 'quiet@example.test', event: 'visit', subscribed: false }, pk());
  assert.is((await contactByEmail('quiet@example.test')).subscribed, false);

  await d.request('POST', '/v1/track', { email: 'flip@example.test', event: 'visit' }, pk());
  await d.request('POST', '/v1/track', { email: 'flip@example.test', event: 'visit', subscribed: false }, pk());
  const flipped = await contactByEmail('flip@example.test');
  assert.is(flipped.subscribed, false);
  await d.request('POST', '/v1/track', { email: 'flip@example.test', event: 'visit' }, pk());
  assert.is((await contactByEmail('flip@example.test')).subscribed, false, 'omitting subscribed keeps the state');
  await d.request('POST', '/v1/track', { email: 'flip@example.test', event: 'visit', subscribed: true }, pk());
  assert.is((await contactByEmail('flip@example.test')).subscribed, true);

  const names = (await eventsOf(flipped.id)).map((e: { name: string }) => e.name).reverse();
  assert.equal(names, ['visit', 'contact.unsubscribed', 'visit', 'visit', 'contact.subscribed', 'visit']);
});

test('reserved event names are refused with 422 and field error code reserved_event; near misses are fine', async () => {
  for (const event of ['email.open', 'email.anything', 'email.', 'contact.subscribed', 'contact.unsubscribed', 'segment.vip-users.entry', 'segment.a.b.exit']) {
    const r = await d.request('POST', '/v1/track', { email: 'reserved@example.test', event }, pk());
    assert.is(r.status, 422, event);
    assert.is(r.body.error.code, 'VALIDATION_ERROR');
    assert.equal(r.body.error.errors, [{ field: 'event', message: `"${event}" is reserved for events the service emits`, code: 'reserved_event', received: event }]);
  }
  const found = await d.request('POST', '/contacts/lookup', { emails: ['reserved@example.test'] }, { key: p.secretKey });
  assert.equal(found.body.found, [], 'a refused track writes no contact');
  for (const event of ['emails.open', 'contact.created', 'segment.entry', 'segment.x.entered', 'Email.open']) {
    const r = await d.request('POST', '/v1/track', { email: 'near@example.test', event }, pk());
    assert.is(r.status, 200, event);
  }
});

test('re-tracking the same event creates a new event each time', async () => {
  const first = await d.request('POST', '/v1/track', { email: 'again@example.test', event: 'clicked-cta' }, pk());
  const second = await d.request('POST', '/v1/track', { email: 'again@example.test', event: 'clicked-cta' }, pk());
  assert.is(first.body.data.contact, second.body.data.contact);
  assert.is.not(first.body.data.event, second.body.data.event);
  assert.is((await eventsOf(first.body.data.contact)).length, 2);
});

test('schema failures are 422 with dot-path field errors', async () => {
  const missing = await d.request('POST', '/v1/track', {}, pk());
  assert.is(missing.status, 422);
  assert.equal(missing.body.error.errors.map((e: { field: string }) => e.field).sort(), ['email', 'event']);
  const wrong = await d.request('POST', '/v1/track', { email: 'not-an-email', event: 5, subscribed: 'yes', data: [] }, pk());
  assert.is(wrong.status, 422);
  const byField = Object.fromEntries(wrong.body.error.errors.map((e: { field: string; code: string }) => [e.field, e.code]));
  assert.equal(byField, { email: 'invalid_string', event: 'invalid_type', subscribed: 'invalid_type', data: 'invalid_type' });
  const control = await d.request('POST', '/v1/track', { email: 'a@example.test', event: 'line\nbreak' }, pk());
  assert.is(control.status, 422);
  const malformed = await d.request('POST', '/v1/track', undefined, { ...pk(), raw: '{"email":' });
  assert.is(malformed.status, 400);
});

test('Idempotency-Key: reuse is 409 with the original request; a 4xx answer releases the key', async () => {
  const headers = { 'idempotency-key': 'track-key-1' };
  const first = await d.request('POST', '/v1/track', { email: 'idem@example.test', event: 'paid' }, { ...pk(), headers });
  assert.is(first.status, 200);
  const again = await d.request('POST', '/v1/track', { email: 'idem@example.test', event: 'paid' }, { ...pk(), headers });
  assert.is(again.status, 409);
  assert.is(again.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
  assert.is(again.body.error.details.originalRequest, 'POST /v1/track');
  assert.is(again.body.error.details.originalStatusCode, 200);
  assert.is((await eventsOf(first.body.data.contact)).length, 1, 'not performed again');

  const released = { 'idempotency-key': 'track-key-2' };
  assert.is((await d.request('POST', '/v1/track', { email: 'idem@example.test', event: 'email.paid' }, { ...pk(), headers: released })).status, 422);
  const retried = await d.request('POST', '/v1/track', { email: 'idem@example.test', event: 'paid' }, { ...pk(), headers: released });
  assert.is(retried.status, 200, 'the corrected request may reuse the key');
});

test('a disabled project cannot track (403 PROJECT_DISABLED)', async () => {
  const off = d.createProject('off');
  d.cli('project', 'disable', off.id);
  const r = await d.request('POST', '/v1/track', { email: 'off@example.test', event: 'x' }, { key: off.publicKey });
  assert.is(r.status, 403);
  assert.is(r.body.error.code, 'PROJECT_DISABLED');
});

test.run();
