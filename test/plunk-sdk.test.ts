// The reference platform's Node SDK (@plunk/node, a dev dependency) against the real daemon: its
// requests as it makes them, its errors as it reads them (a top-level `message`).
import plunk from '@plunk/node';
import { simpleParser, type ParsedMail } from 'mailparser';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startMailEnv, type MailEnv } from './helpers/mail-env.js';

// The package is CommonJS with `exports.default`: imported from ESM, the class is under `default`.
const Plunk = plunk.default;

let env: MailEnv;
let baseUrl: string;

test.before(async () => {
  env = await startMailEnv({ senders: ['acme.test'], sinkDomains: ['rcpt.test'] });
  // The SDK joins its paths (`send`, `track`) to the base URL, so the base ends with a slash.
  baseUrl = `${env.daemon.url}/v1/`;
});
test.after(async () => env.close());

const sdk = (key = env.daemon.project.secretKey) => new Plunk(key, { baseUrl });

/** The same request without the SDK: the daemon's own answer, to compare the SDK's error with. */
async function rawAnswer(path: string, key: string, body: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
}

async function sdkError(call: () => Promise<unknown>): Promise<Error> {
  try {
    await call();
  } catch (err) {
    return err as Error;
  }
  throw new Error('the SDK call succeeded; a refusal was expected');
}

async function delivered(count: number): Promise<ParsedMail> {
  const messages = await env.sink.waitFor(count, 8000);
  return simpleParser(messages[count - 1]!.raw);
}

test("every refusal reaches the SDK's caller with Postmill's message, not 'Unknown API Error'", async () => {
  const secret = env.daemon.project.secretKey;
  const cases: { what: string; status: number; key: string; path: 'send' | 'track'; body: Record<string, unknown>; says: RegExp }[] = [
    { what: 'unknown key', status: 401, key: `sk_${'0'.repeat(64)}`, path: 'send', body: { to: 'ann@rcpt.test', subject: 'Hi', body: 'x', from: 'hi@acme.test' }, says: /key/i },
    { what: 'secret key on track', status: 401, key: secret, path: 'track', body: { event: 'signed-up', email: 'ann@rcpt.test' }, says: /public key/i },
    { what: 'unverified sender', status: 403, key: secret, path: 'send', body: { to: 'ann@rcpt.test', subject: 'Hi', body: 'x', from: 'hi@elsewhere.test' }, says: /elsewhere\.test/ },
    { what: 'empty subject', status: 422, key: secret, path: 'send', body: { to: 'ann@rcpt.test', subject: '', body: 'x', from: 'hi@acme.test' }, says: /subject/ },
    { what: 'a field the API does not know', status: 422, key: secret, path: 'send', body: { to: 'ann@rcpt.test', subject: 'Hi', body: 'x', from: 'hi@acme.test', cc: 'bob@rcpt.test' }, says: /cc: Unrecognized field/ },
    { what: 'reserved event', status: 422, key: env.daemon.project.publicKey, path: 'track', body: { event: 'email.open', email: 'ann@rcpt.test' }, says: /event/ },
  ];
  for (const c of cases) {
    const raw = await rawAnswer(c.path, c.key, c.body);
    assert.is(raw.status, c.status, `${c.what}: ${JSON.stringify(raw.body)}`);
    assert.is(raw.body.message, raw.body.error.message, `${c.what}: the top-level message repeats error.message`);
    const client = sdk(c.key);
    // The SDK's own types leave out fields the API refuses; a caller in JavaScript can still send them.
    const err = await sdkError(() => (c.path === 'send' ? client.emails.send(c.body as any) : client.events.track(c.body as any)));
    assert.is(err.message, raw.body.error.message, c.what);
    assert.match(err.message, c.says, c.what);
  }
});

test("the SDK's own request shapes are accepted: send with every field it declares, track with data", async () => {
  const before = env.sink.messages.length;
  const sent = await sdk().emails.send({ to: ['ann@rcpt.test'], subject: 'Hello', body: '<p>Plain <b>HTML</b></p>', type: 'html', from: 'hi@acme.test', name: 'Acme', subscribed: true });
  assert.is((sent as unknown as { success: boolean }).success, true);
  const message = await delivered(before + 1);
  assert.is(message.from?.value[0]?.name, 'Acme');
  assert.match(String(message.html), '<p>Plain <b>HTML</b></p>');
  const tracked = await sdk(env.daemon.project.publicKey).events.track({ event: 'signed-up', email: 'bob@rcpt.test', subscribed: true, data: { plan: 'pro', once: { value: 'x', persistent: false } } });
  assert.is(tracked.success, true);
});

test('a markdown body is rendered to HTML, its text part derived from that HTML, its variables filled in afterwards', async () => {
  const before = env.sink.messages.length;
  const body = [
    '# Title **bold**',
    '',
    'Hi {{name ?? "there"}}, read [the docs](https://example.com/docs?a=1&b=2) or `{{plan ?? free}}`.',
    '',
    '- one',
    '- two',
    '',
    '<p class="note">raw HTML is kept</p>',
  ].join('\n');
  await sdk().emails.send({ to: 'carl@rcpt.test', subject: 'Markdown', body, type: 'markdown', from: 'hi@acme.test' });
  const message = await delivered(before + 1);
  const html = String(message.html);
  assert.match(html, '<h1>Title <strong>bold</strong></h1>');
  assert.match(html, 'Hi there, read <a href="https://example.com/docs?a=1&amp;b=2">the docs</a> or <code>free</code>.');
  assert.match(html, '<li>one</li>');
  assert.match(html, '<p class="note">raw HTML is kept</p>');
  assert.not.match(html, '**');
  const text = String(message.text);
  assert.match(text, 'TITLE BOLD', 'a heading as the text part writes headings');
  assert.match(text, 'Hi there, read the docs [https://example.com/docs?a=1&b=2]');
  assert.not.match(text, '**');
  // The text part is the one the same HTML sent as an HTML body gets (lines wrap where the template's placeholders stood).
  await sdk().emails.send({ to: 'carl@rcpt.test', subject: 'As HTML', body: html, from: 'hi@acme.test' });
  const words = (t: string) => t.replace(/\s+/g, ' ');
  assert.is(words(String((await delivered(before + 2)).text)), words(text));
});

test('a markdown body in a request over 1 MB (parsed on the heavy thread) is rendered there', async () => {
  const before = env.sink.messages.length;
  const content = Buffer.alloc(1024 * 1024, 'pdf').toString('base64');
  const r = await env.daemon.request('POST', '/v1/send', {
    to: 'hal@rcpt.test',
    subject: 'Heavy',
    body: '## Your invoice\n\nIt is *attached*.',
    type: 'markdown',
    from: 'hi@acme.test',
    attachments: [{ filename: 'invoice.pdf', content, contentType: 'application/pdf' }],
  });
  assert.is(r.status, 200, JSON.stringify(r.body));
  const message = await delivered(before + 1);
  assert.match(String(message.html), '<h2>Your invoice</h2>\n<p>It is <em>attached</em>.</p>');
  assert.is(message.attachments[0]?.size, 1024 * 1024);
});

test('values in a markdown body are escaped like in HTML bodies: contact data is text, never Markdown or markup', async () => {
  const before = env.sink.messages.length;
  const r = await env.daemon.request('POST', '/v1/send', {
    to: 'dora@rcpt.test',
    subject: 'Values',
    body: 'Hello **{{name}}** and {{{badge}}}, {{first_name}} {{last_name}}',
    type: 'markdown',
    from: 'hi@acme.test',
    data: { name: '<i>Dora</i> **not bold**', badge: '<b>gold</b>', first_name: 'Do', last_name: 'Ra' },
  });
  assert.is(r.status, 200, JSON.stringify(r.body));
  const html = String((await delivered(before + 1)).html);
  assert.match(html, 'Hello <strong>&lt;i&gt;Dora&lt;/i&gt; **not bold**</strong> and <b>gold</b>, Do Ra');
});

test('fields the API does not know are refused with 422 naming them, at every level of the body; markdown needs a body of its own', async () => {
  const base = { to: 'eve@rcpt.test', subject: 'Hi', body: 'x', from: 'hi@acme.test' };
  const attachment = { filename: 'a.txt', content: 'aGk=', contentType: 'text/plain' };
  const cases: [Record<string, unknown>, string, string][] = [
    [{ ...base, cc: 'bob@rcpt.test' }, 'cc', 'unrecognized_keys'],
    [{ ...base, html: '<p>x</p>' }, 'html', 'unrecognized_keys'],
    [{ ...base, to: { email: 'eve@rcpt.test', name: 'Eve', phone: '1' } }, 'to.phone', 'unrecognized_keys'],
    [{ ...base, to: ['eve@rcpt.test', { email: 'fay@rcpt.test', mobile: '1' }] }, 'to.1.mobile', 'unrecognized_keys'],
    [{ ...base, from: { email: 'hi@acme.test', title: 'x' } }, 'from.title', 'unrecognized_keys'],
    [{ ...base, attachments: [{ ...attachment, size: 2 }] }, 'attachments.0.size', 'unrecognized_keys'],
    [{ ...base, type: 'text' }, 'type', 'invalid_enum_value'],
    [{ to: 'eve@rcpt.test', template: '00000000-0000-4000-8000-000000000000', type: 'markdown' }, 'body', 'invalid_type'],
    [{ ...base, type: 'markdown', body: 'x'.repeat(262_145) }, 'body', 'too_big'],
  ];
  for (const [body, field, code] of cases) {
    const r = await env.daemon.request('POST', '/v1/send', body);
    assert.is(r.status, 422, `${field}: ${JSON.stringify(r.body)}`);
    assert.ok(
      r.body.error.errors.some((e: { field: string; code: string }) => e.field === field && e.code === code),
      `${field}: ${JSON.stringify(r.body.error.errors)}`,
    );
    assert.match(r.body.message, field, 'the message names the field');
  }
});

test.run();
