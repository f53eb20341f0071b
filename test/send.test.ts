import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { composeMessage, composerOptions, type ComposeInput } from '../src/compose/mime.js';
import { serializeMime } from '../src/compose/mime/serialize.js';
import { openStore, type Db } from '../src/store/db.js';
import { signToken, verifyToken, type TokenPayload } from '../src/tracking/tokens.js';
import type { Keys, TestDaemon } from './helpers/daemon.js';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';

const EMAIL_ID = '6f1c2c6e-8a51-4c4e-9d1a-0c4a8f9b1a2b';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

const baseInput = (over: Partial<ComposeInput> = {}): ComposeInput => ({
  emailId: EMAIL_ID,
  hostname: 'mx.postmill.test',
  date: new Date('2025-01-02T03:04:05Z'),
  from: { email: 'news@acme.test', name: 'Ácme News' },
  to: { email: 'ann@example.test', name: 'Ann' },
  replyTo: 'help@acme.test',
  subject: 'Grüße, Ann',
  html: '<h1>Hello Ann</h1><p>Your order <b>#42</b> is on its way.</p><img src="cid:logo@acme" alt="Acme">',
  attachments: [],
  headers: {},
  unsubscribe: null,
  ...over,
});

const addressOf = (value: AddressObject | AddressObject[] | undefined) => (Array.isArray(value) ? value[0] : value)?.value[0];
const headerLines = (raw: Buffer) => raw.toString('latin1').split('\r\n\r\n')[0]!.replace(/\r\n[ \t]/g, ' ').split('\r\n');
const parse = (input: ComposeInput): Promise<ParsedMail> => simpleParser(composeMessage(input).raw);

// ---------------------------------------------------------------- compose (unit)

const compose = suite('compose');

compose('a message without attachments (composed without a MIME tree) parses to what the MIME tree writes', async () => {
  const shapes: ComposeInput[] = [
    baseInput(),
    baseInput({ from: { email: 'news@acme.test', name: 'Ácme, "Quoted" Néws' }, to: { email: 'ann@example.test', name: 'Ann Ünï' }, subject: 'Grüße '.repeat(40) }),
    baseInput({ html: `<p>${'long line '.repeat(200)}</p>\n<p>ünïcödé €😀 = trailing space </p>`, replyTo: null }),
    baseInput({
      unsubscribe: { url: 'http://127.0.0.1:3000/u/token', mailto: 'unsubscribe@bounces.acme.test?subject=token' },
      campaign: { id: EMAIL_ID, projectId: EMAIL_ID },
      headers: { 'X-Campaign': 'spring', 'Message-ID': '<custom@acme.test>', 'In-Reply-To': '<a@b.test>', 'Reply-To': 'other@acme.test' },
    }),
  ];
  for (const input of shapes) {
    const lean = await simpleParser(composeMessage(input).raw);
    const tree = await simpleParser(serializeMime(new MailComposer(composerOptions(input)).compile()));
    for (const field of ['subject', 'messageId', 'html', 'text', 'inReplyTo'] as const) assert.equal(lean[field], tree[field], field);
    for (const field of ['from', 'to', 'replyTo'] as const) assert.equal(addressOf(lean[field]), addressOf(tree[field]), field);
    const headerNames = (m: ParsedMail) => [...m.headers.keys()].filter((k) => k !== 'content-type').sort();
    assert.equal(headerNames(lean), headerNames(tree));
    assert.is(lean.headers.get('list-unsubscribe-post'), tree.headers.get('list-unsubscribe-post'));
    assert.is(lean.headers.get('x-postmill-campaign-id'), tree.headers.get('x-postmill-campaign-id'));
    assert.is(lean.attachments.length, 0);
  }
});

compose('the synchronous serializer writes exactly the bytes of MimeNode.build()', async () => {
  const shapes: ComposeInput[] = [
    baseInput(),
    baseInput({ html: 'plain ascii, short lines' }),
    baseInput({ html: `<p>${'x'.repeat(300)} ünïcödé\n<br>\r\n</p>`, subject: 'Ünïcode '.repeat(30) }),
    baseInput({
      unsubscribe: { url: 'http://127.0.0.1:3000/u/token', mailto: 'unsubscribe+token@bounces.acme.test' },
      headers: { 'X-Campaign': 'spring', 'In-Reply-To': '<a@b.test>' },
      attachments: [
        { filename: 'a.txt', content: Buffer.from('hello\r\nworld\n'), contentType: 'text/plain', contentId: null, disposition: 'attachment' },
        { filename: 'logo.png', content: PNG, contentType: 'image/png', contentId: 'logo@acme', disposition: 'inline' },
        { filename: 'fwd.eml', content: Buffer.from('Subject: x\r\n\r\nbody'), contentType: 'message/rfc822', contentId: null, disposition: 'attachment' },
        { filename: 'empty.bin', content: Buffer.alloc(0), contentType: 'application/octet-stream', contentId: null, disposition: 'attachment' },
      ],
    }),
  ];
  for (const input of shapes) {
    const options = { ...composerOptions(input), baseBoundary: 'fixedboundary' };
    const ours = serializeMime(new MailComposer(options).compile());
    const theirs = await new MailComposer({ ...composerOptions(input), baseBoundary: 'fixedboundary' }).compile().build();
    assert.ok(ours.equals(theirs), `same bytes for ${input.subject.slice(0, 20)} with ${input.attachments.length} attachments`);
  }
});

compose('a message has the addresses, subject, Message-ID on our host, the email id header, HTML and a text part', async () => {
  const { raw, messageId } = composeMessage(baseInput());
  assert.is(messageId, `<${EMAIL_ID}@mx.postmill.test>`);
  const mail = await simpleParser(raw);
  assert.equal(addressOf(mail.from), { address: 'news@acme.test', name: 'Ácme News' });
  assert.equal(addressOf(mail.to), { address: 'ann@example.test', name: 'Ann' });
  assert.equal(addressOf(mail.replyTo), { address: 'help@acme.test', name: '' });
  assert.is(mail.subject, 'Grüße, Ann');
  assert.is(mail.messageId, `<${EMAIL_ID}@mx.postmill.test>`);
  assert.is(mail.headers.get('x-postmill-email-id'), EMAIL_ID);
  assert.is(mail.date?.toISOString(), '2025-01-02T03:04:05.000Z');
  assert.match(String(mail.html), '<b>#42</b>');
  assert.match(mail.text ?? '', /HELLO ANN/);
  assert.match(mail.text ?? '', /Your order #42 is on its way\./);
  assert.not.match(mail.text ?? '', /<b>/);
  assert.not.ok(mail.headers.has('list-unsubscribe'), 'no List-Unsubscribe on transactional mail');
  assert.not.ok(mail.headers.has('precedence'));
  assert.ok(raw.includes('\r\n') && !/[^\r]\n/.test(raw.toString('latin1')), 'CRLF line ends only');
});

compose('MARKETING and HEADLESS mail carries one-click List-Unsubscribe, its mailto fallback and Precedence: bulk', async () => {
  const mail = await parse(
    baseInput({ unsubscribe: { url: 'http://127.0.0.1:3000/u/TOKEN_1', mailto: 'unsubscribe+TOKEN_1@bounces.acme.test' } }),
  );
  const lines = headerLines(composeMessage(baseInput({ unsubscribe: { url: 'http://127.0.0.1:3000/u/T', mailto: 'unsubscribe+T@bounces.acme.test' } })).raw);
  assert.ok(lines.includes('List-Unsubscribe: <http://127.0.0.1:3000/u/T>, <mailto:unsubscribe+T@bounces.acme.test>'), lines.join('\n'));
  assert.ok(lines.includes('List-Unsubscribe-Post: List-Unsubscribe=One-Click'));
  assert.ok(lines.includes('Precedence: bulk'));
  assert.is(mail.headers.get('precedence'), 'bulk');
});

compose('attachments: bytes, names and types kept; inline parts carry their Content-ID; message/* is base64 too', async () => {
  const report = Buffer.from('%PDF-1.4 binary \x00\xff bytes', 'latin1');
  const mail = await parse(
    baseInput({
      attachments: [
        { filename: 'report 2025.pdf', content: report, contentType: 'application/pdf', contentId: null, disposition: 'attachment' },
        { filename: 'logo.png', content: PNG, contentType: 'image/png', contentId: 'logo@acme', disposition: 'inline' },
        { filename: 'fwd.eml', content: Buffer.from('Subject: hi\r\n\r\nforwarded'), contentType: 'message/rfc822', contentId: null, disposition: 'attachment' },
      ],
    }),
  );
  const byName = new Map(mail.attachments.map((a) => [a.filename, a]));
  assert.ok(byName.get('report 2025.pdf')!.content.equals(report));
  assert.is(byName.get('report 2025.pdf')!.contentType, 'application/pdf');
  assert.is(byName.get('report 2025.pdf')!.contentDisposition, 'attachment');
  assert.ok(byName.get('logo.png')!.content.equals(PNG));
  assert.is(byName.get('logo.png')!.cid, 'logo@acme');
  assert.is(byName.get('logo.png')!.contentDisposition, 'inline');
  const raw = composeMessage(baseInput({ attachments: [{ filename: 'fwd.eml', content: Buffer.from('Subject: hi\r\n\r\nforwarded'), contentType: 'message/rfc822', contentId: null, disposition: 'attachment' }] })).raw.toString();
  assert.not.match(raw, /^Subject: hi$/m, 'attached message bytes never become MIME structure');
});

compose('caller headers replace ours whatever their case; the composer keeps its own fields', async () => {
  const input = baseInput({
    unsubscribe: { url: 'http://127.0.0.1:3000/u/T', mailto: 'unsubscribe+T@bounces.acme.test' },
    headers: {
      precedence: 'list',
      'list-unsubscribe': '<https://acme.test/unsub>',
      'Message-ID': '<custom-id@acme.test>',
      'reply-to': 'other@acme.test',
      'X-Campaign': 'spring',
      From: 'evil@attacker.test',
      'X-Postmill-Email-Id': 'forged',
      'Content-Type': 'text/plain',
    },
  });
  const { raw, messageId } = composeMessage(input);
  const mail = await simpleParser(raw);
  const lines = headerLines(raw).map((l) => l.toLowerCase());
  assert.equal(lines.filter((l) => l.startsWith('precedence:')), ['precedence: list']);
  assert.equal(lines.filter((l) => l.startsWith('list-unsubscribe:')), ['list-unsubscribe: <https://acme.test/unsub>']);
  assert.is(messageId, '<custom-id@acme.test>');
  assert.is(mail.messageId, '<custom-id@acme.test>');
  assert.equal(addressOf(mail.replyTo)?.address, 'other@acme.test');
  assert.is(mail.headers.get('x-campaign'), 'spring');
  assert.equal(addressOf(mail.from)?.address, 'news@acme.test', 'From stays the sender');
  assert.is(mail.headers.get('x-postmill-email-id'), EMAIL_ID);
  assert.is(lines.filter((l) => l.startsWith('content-type:')).length, 1);
});

compose('header injection is impossible: line breaks in values and names never start a header', async () => {
  const { raw } = composeMessage(
    baseInput({
      subject: 'Hi\r\nBcc: victim@example.test',
      from: { email: 'news@acme.test', name: 'Acme\r\nBcc: victim@example.test' },
      to: { email: 'ann@example.test', name: 'Ann\nX-Injected: 1' },
      headers: { 'X-Note': 'a\r\nBcc: victim@example.test\r\n\r\n<script>' },
    }),
  );
  const lines = headerLines(raw);
  assert.not.ok(lines.some((l) => /^bcc:/i.test(l)), lines.join('\n'));
  assert.not.ok(lines.some((l) => /^x-injected:/i.test(l)));
  assert.is((await simpleParser(raw)).bcc, undefined);
});

compose.run();

// ---------------------------------------------------------------- tokens (unit)

const tokens = suite('tokens');
let dir: string;
let db: Db;

tokens.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'postmill-tokens-'));
  db = openStore(dir);
});
tokens.after(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const P = '11111111-1111-4111-8111-111111111111';
const C = '22222222-2222-4222-8222-222222222222';
const E = '33333333-3333-4333-8333-333333333333';

tokens('every payload kind signs and verifies to itself; tokens are base64url and short', () => {
  const payloads: TokenPayload[] = [
    { kind: 'unsubscribe', projectId: P, contactId: C, emailId: E },
    { kind: 'unsubscribe', projectId: P, contactId: C },
    { kind: 'subscribe', projectId: P, contactId: C, emailId: E },
    { kind: 'manage', projectId: P, contactId: C },
    { kind: 'open', emailId: E },
    { kind: 'click', emailId: E, url: 'https://acme.test/p?q=1&r=ü#x' },
  ];
  for (const payload of payloads) {
    const token = signToken({ db }, payload);
    assert.match(token, /^[A-Za-z0-9_-]+$/);
    assert.equal(verifyToken({ db }, token), payload);
  }
  assert.ok(signToken({ db }, payloads[0]!).length <= 90);
});

tokens('a changed, cut, extended or foreign token verifies to null', () => {
  const token = signToken({ db }, { kind: 'unsubscribe', projectId: P, contactId: C, emailId: E });
  const flip = (i: number) => token.slice(0, i) + (token[i] === 'A' ? 'B' : 'A') + token.slice(i + 1);
  for (let i = 0; i < token.length; i++) assert.is(verifyToken({ db }, flip(i)), null, `changed at ${i}`);
  assert.is(verifyToken({ db }, token.slice(0, -1)), null);
  assert.is(verifyToken({ db }, token + 'A'), null);
  for (const garbage of ['', 'a', '!!!', 'x'.repeat(10_000), token.replace(/./, '+'), '../../etc/passwd']) {
    assert.is(verifyToken({ db }, garbage), null, garbage.slice(0, 20));
  }
  const otherDir = mkdtempSync(join(tmpdir(), 'postmill-tokens-'));
  const other = openStore(otherDir);
  try {
    assert.is(verifyToken({ db: other }, token), null, "another store's secret does not verify it");
  } finally {
    other.close();
    rmSync(otherDir, { recursive: true, force: true });
  }
});

tokens('the secret is generated once into settings and survives a reopen', () => {
  const token = signToken({ db }, { kind: 'open', emailId: E });
  const stored = db.prepare("SELECT value FROM settings WHERE name = 'token.secret'").get() as { value: string };
  assert.match(stored.value, /^[0-9a-f]{64}$/);
  const reopened = openStore(dir);
  try {
    assert.equal(verifyToken({ db: reopened }, token), { kind: 'open', emailId: E });
  } finally {
    reopened.close();
  }
});

tokens.run();

// ---------------------------------------------------------------- POST /v1/send (real daemon)

const send = suite('POST /v1/send');
let env: MailEnv;
let d: TestDaemon;
let templates: { transactional: string; marketing: string; headless: string };

send.before(async () => {
  env = await startMailEnv();
  d = env.daemon;
  // Recipients' mail is delivered to the sink: no bounce changes a contact behind a test's back.
  env.routeToSink('example.test');
  await env.verifySender('acme.test');
  const create = async (type: string, extra: Record<string, unknown> = {}) => {
    const r = await d.request('POST', '/templates', {
      name: `${type} template`,
      subject: 'Hello {{name ?? there}}, your plan is {{data.plan}}',
      body: '<p>Hi {{name}}: {{plan}} {{coupon ?? none}} <a href="{{unsubscribeUrl}}">unsubscribe</a></p>',
      from: 'news@acme.test',
      fromName: 'Acme News',
      replyTo: 'help@acme.test',
      type,
      ...extra,
    });
    assert.is(r.status, 201, JSON.stringify(r.body));
    return r.body.id as string;
  };
  templates = { transactional: await create('TRANSACTIONAL'), marketing: await create('MARKETING'), headless: await create('HEADLESS') };
});
send.after(async () => env.close());

const delivered = (rcpt: string) => eventually(async () => env.sink.messages.find((m) => m.rcptTo.includes(rcpt)), 10_000, `mail for ${rcpt}`);

const contactOf = async (email: string, key?: Keys) => {
  const opts = key ? { key: key.secretKey } : {};
  const found = await d.request('POST', '/contacts/lookup', { emails: [email] }, opts);
  if (found.body.found.length === 0) return null;
  return (await d.request('GET', `/contacts/${found.body.found[0].id}`, undefined, opts)).body;
};
const sentEvent = async (emailId: string) => {
  const r = await d.request('GET', '/events?name=email.sent&limit=500');
  return r.body.data.find((e: { emailId: string }) => e.emailId === emailId);
};
const fieldErrors = (body: { error: { errors: { field: string; code: string }[] } }) =>
  body.error.errors.map((e) => `${e.field}:${e.code}`).sort();

send('a send with subject, body and from answers {success, data: {emails: [{contact, email}], timestamp}}', async () => {
  const r = await d.request('POST', '/v1/send', { to: 'first@example.test', subject: 'Welcome', body: '<p>Hi</p>', from: 'hello@acme.test' });
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.is(r.body.success, true);
  assert.ok(!Number.isNaN(Date.parse(r.body.data.timestamp)));
  assert.is(r.body.data.emails.length, 1);
  const [sent] = r.body.data.emails;
  assert.match(sent.email, /^[0-9a-f-]{36}$/);
  assert.is(sent.contact.email, 'first@example.test');
  const contact = await contactOf('first@example.test');
  assert.is(contact.id, sent.contact.id);
  assert.is(contact.subscribed, false, 'new contacts from /v1/send are unsubscribed');

  const event = await sentEvent(sent.email);
  assert.is(event.contactId, contact.id);
  assert.equal(Object.keys(event.data).sort(), ['campaignId', 'emailId', 'from', 'fromName', 'messageId', 'sentAt', 'sourceType', 'subject', 'templateId']);
  assert.equal(
    { ...event.data, sentAt: undefined },
    {
      subject: 'Welcome',
      from: 'hello@acme.test',
      fromName: '',
      messageId: `<${sent.email}@mx.postmill.test>`,
      emailId: sent.email,
      templateId: null,
      campaignId: null,
      sourceType: 'TRANSACTIONAL',
      sentAt: undefined,
    },
  );
  assert.is(event.data.sentAt, event.createdAt);
});

send('to as an array of strings and {name, email}: each recipient gets its own contact, email and rendering', async () => {
  const r = await d.request('POST', '/v1/send', {
    to: ['list1@example.test', { name: 'Bea', email: 'list2@example.test' }, { email: 'list3@example.test' }],
    subject: 'Hi {{name ?? friend}} ({{email}})',
    body: '<p>x</p>',
    from: { name: 'Acme', email: 'hello@acme.test' },
  });
  assert.is(r.status, 200, JSON.stringify(r.body));
  const emails = r.body.data.emails as { contact: { id: string; email: string }; email: string }[];
  assert.equal(
    emails.map((e) => e.contact.email),
    ['list1@example.test', 'list2@example.test', 'list3@example.test'],
  );
  assert.is(new Set(emails.map((e) => e.email)).size, 3);
  const subjects = await Promise.all(emails.map(async (e) => (await sentEvent(e.email)).data.subject));
  assert.equal(subjects, ['Hi friend (list1@example.test)', 'Hi Bea (list2@example.test)', 'Hi friend (list3@example.test)']);
  assert.equal((await contactOf('list2@example.test')).data, { name: 'Bea' }, 'to.name is stored in contact data');
  assert.is((await sentEvent(emails[1]!.email)).data.fromName, 'Acme');
});

send('template: its subject, sender and reply-to are used, explicit fields override, variables come from data', async () => {
  const viaTemplate = await d.request('POST', '/v1/send', {
    to: 'tpl@example.test',
    template: templates.transactional,
    data: { name: 'Tia', plan: 'pro' },
  });
  assert.is(viaTemplate.status, 200, JSON.stringify(viaTemplate.body));
  const event = await sentEvent(viaTemplate.body.data.emails[0].email);
  assert.is(event.data.subject, 'Hello Tia, your plan is pro');
  assert.is(event.data.from, 'news@acme.test');
  assert.is(event.data.fromName, 'Acme News');
  assert.is(event.data.templateId, templates.transactional);

  const overridden = await d.request('POST', '/v1/send', {
    to: 'tpl@example.test',
    template: templates.transactional,
    subject: 'Override for {{name}}',
    from: 'billing@acme.test',
    name: 'Billing',
  });
  const other = await sentEvent(overridden.body.data.emails[0].email);
  assert.is(other.data.subject, 'Override for Tia', 'data stored by the first send renders in the second');
  assert.is(other.data.from, 'billing@acme.test');
  assert.is(other.data.fromName, 'Billing', 'the deprecated name names a bare from');
});

send('one-off data renders but is not stored; data rules apply (null deletes, empty skipped, reserved dropped)', async () => {
  await d.request('POST', '/contacts', { email: 'oneoff@example.test', data: { plan: 'basic', gone: 'x' } });
  const r = await d.request('POST', '/v1/send', {
    to: 'oneoff@example.test',
    subject: '{{plan}} {{data.code}} {{code}} {{id}}',
    body: '<p>x</p>',
    from: 'hello@acme.test',
    data: { code: { value: 'ONCE-42', persistent: false }, gone: null, plan: '', email: 'forged@example.test', unsubscribeUrl: 'http://evil.test' },
  });
  assert.is(r.status, 200, JSON.stringify(r.body));
  const contact = await contactOf('oneoff@example.test');
  assert.is((await sentEvent(r.body.data.emails[0].email)).data.subject, `basic ONCE-42 ONCE-42 ${contact.id}`);
  assert.equal(contact.data, { plan: 'basic' });
  assert.is(contact.email, 'oneoff@example.test');
});

send('subscribed: new contacts default to false, true subscribes (contact.subscribed), omitted keeps the state', async () => {
  await d.request('POST', '/v1/send', { to: 'sub@example.test', subject: 's', body: 'b', from: 'hello@acme.test', subscribed: true });
  const contact = await contactOf('sub@example.test');
  assert.is(contact.subscribed, true);
  await d.request('POST', '/v1/send', { to: 'sub@example.test', subject: 's', body: 'b', from: 'hello@acme.test' });
  assert.is((await contactOf('sub@example.test')).subscribed, true);
  await d.request('POST', '/v1/send', { to: 'sub@example.test', subject: 's', body: 'b', from: 'hello@acme.test', subscribed: false });
  assert.is((await contactOf('sub@example.test')).subscribed, false);
  // Deliveries may land in between at any moment: only the order of sends and subscription changes is the point.
  const names = (await d.request('GET', `/events/contact/${contact.id}`)).body.data
    .map((e: { name: string }) => e.name)
    .filter((name: string) => name !== 'email.delivery')
    .reverse();
  assert.equal(names, ['email.sent', 'email.sent', 'contact.unsubscribed', 'email.sent']);
});

send('MARKETING or HEADLESS content to an unsubscribed contact is 400 with a suggestion and writes nothing; TRANSACTIONAL sends', async () => {
  const first = await d.request('POST', '/contacts', { email: 'ok-first@example.test', data: { plan: 'gold' } });
  assert.is(first.body.subscribed, true);
  for (const template of [templates.marketing, templates.headless]) {
    const r = await d.request('POST', '/v1/send', { to: ['ok-first@example.test', 'never-subscribed@example.test'], template, data: { plan: 'changed' } });
    assert.is(r.status, 400);
    assert.is(r.body.error.code, 'BAD_REQUEST');
    assert.match(r.body.error.message, /never-subscribed@example\.test is unsubscribed/);
    assert.match(r.body.error.suggestion, /TRANSACTIONAL/);
    assert.match(r.body.error.suggestion, /"subscribed": true/);
  }
  assert.equal((await contactOf('ok-first@example.test')).data, { plan: 'gold' }, 'the first recipient was rolled back too');
  assert.equal((await d.request('GET', `/events/contact/${first.body.id}`)).body.data, [], 'no email.sent for it');
  assert.is(await contactOf('never-subscribed@example.test'), null);

  const agreed = await d.request('POST', '/v1/send', { to: 'agreed@example.test', template: templates.marketing, subscribed: true });
  assert.is(agreed.status, 200);
  await d.request('PATCH', `/contacts/${agreed.body.data.emails[0].contact.id}`, { subscribed: false });
  assert.is((await d.request('POST', '/v1/send', { to: 'agreed@example.test', template: templates.marketing })).status, 400);
  assert.is((await d.request('POST', '/v1/send', { to: 'agreed@example.test', template: templates.transactional })).status, 200);
});

send('template ids: unknown or another project\'s are 404 TEMPLATE_NOT_FOUND; not a uuid is 422', async () => {
  const unknown = await d.request('POST', '/v1/send', { to: 'x@example.test', template: '00000000-0000-4000-8000-000000000000' });
  assert.is(unknown.status, 404);
  assert.is(unknown.body.error.code, 'TEMPLATE_NOT_FOUND');
  const other = d.createProject('other');
  const foreign = await d.request('POST', '/v1/send', { to: 'x@example.test', template: templates.transactional }, { key: other.secretKey });
  assert.is(foreign.status, 404);
  assert.is(foreign.body.error.code, 'TEMPLATE_NOT_FOUND');
  const notUuid = await d.request('POST', '/v1/send', { to: 'x@example.test', template: 'welcome' });
  assert.is(notUuid.status, 422);
  assert.equal(fieldErrors(notUuid.body), ['template:invalid_string']);
});

send('a sender outside the verified domains is 403; the public key is 401; a disabled project is 403', async () => {
  const r = await d.request('POST', '/v1/send', { to: 'x@example.test', subject: 's', body: 'b', from: 'me@elsewhere.test' });
  assert.is(r.status, 403);
  assert.is(r.body.error.code, 'INTERNAL_SERVER_ERROR');
  assert.is(await contactOf('x@example.test'), null);
  const pk = await d.request('POST', '/v1/send', { to: 'x@example.test', subject: 's', body: 'b', from: 'hello@acme.test' }, { key: d.project.publicKey });
  assert.is(pk.status, 401);
  assert.is(pk.body.error.code, 'INVALID_API_KEY');
  const off = d.createProject('disabled');
  d.cli('project', 'disable', off.id);
  const disabled = await d.request('POST', '/v1/send', { to: 'x@example.test', subject: 's', body: 'b', from: 'hello@acme.test' }, { key: off.secretKey });
  assert.is(disabled.status, 403);
  assert.is(disabled.body.error.code, 'PROJECT_DISABLED');
});

send('every schema rule is a 422 with dot-path field errors', async () => {
  const ok = { to: 'rules@example.test', subject: 's', body: 'b', from: 'hello@acme.test' };
  const cases: [Record<string, unknown>, string[]][] = [
    [{}, ['body:invalid_type', 'from:invalid_type', 'subject:invalid_type', 'to:invalid_type']],
    [{ to: 'rules@example.test' }, ['body:invalid_type', 'from:invalid_type', 'subject:invalid_type']],
    [{ ...ok, to: 'not-an-email' }, ['to:invalid_string']],
    [{ ...ok, to: 42 }, ['to:invalid_type']],
    [{ ...ok, to: [] }, ['to:too_small']],
    [{ ...ok, to: Array.from({ length: 51 }, (_, i) => `r${i}@example.test`) }, ['to:too_big']],
    [{ ...ok, to: [{ name: 'No email' }] }, ['to.0.email:invalid_type']],
    [{ ...ok, to: ['a@example.test', { email: 'bad' }] }, ['to.1.email:invalid_string']],
    [{ ...ok, subject: '' }, ['subject:too_small']],
    [{ ...ok, subject: 'x'.repeat(999) }, ['subject:too_big']],
    [{ ...ok, subject: 'line\nbreak' }, ['subject:invalid_string']],
    [{ ...ok, subject: 'line\rbreak' }, ['subject:invalid_string']],
    [{ ...ok, body: '' }, ['body:too_small']],
    [{ ...ok, from: 'Acme <hello@acme.test>' }, ['from:invalid_string']],
    [{ ...ok, from: { name: 'Acme' } }, ['from.email:invalid_type']],
    [{ ...ok, name: 'a\r\nBcc: x@example.test' }, ['name:invalid_string']],
    [{ ...ok, subscribed: 'yes' }, ['subscribed:invalid_type']],
    [{ ...ok, data: 'x' }, ['data:invalid_type']],
    [{ ...ok, reply: 'nope' }, ['reply:invalid_string']],
    [{ ...ok, headers: { 'X-A': 'a\r\nBcc: x@example.test' } }, ['headers.X-A:invalid_string']],
    [{ ...ok, headers: { 'X-A': 'x'.repeat(999) } }, ['headers.X-A:too_big']],
    [{ ...ok, headers: { 'X-A': 5 } }, ['headers.X-A:invalid_type']],
    [{ ...ok, headers: { 'Bad Name': 'v' } }, ['headers.Bad Name:invalid_string']],
    [{ ...ok, headers: { 'X-A\r\nBcc': 'v' } }, ['headers.X-A\r\nBcc:invalid_string']],
    [{ ...ok, headers: { bcc: 'x@example.test' } }, ['headers.bcc:reserved_header']],
    [{ ...ok, headers: { 'X-Postmill-Email-Id': 'forged' } }, ['headers.X-Postmill-Email-Id:reserved_header']],
    [{ ...ok, headers: { 'x-postmill-campaign-id': 'forged' } }, ['headers.x-postmill-campaign-id:reserved_header']],
    // trace and receipt headers belong to servers and clients
    [{ ...ok, headers: { Received: 'from evil by good' } }, ['headers.Received:reserved_header']],
    [{ ...ok, headers: { 'Authentication-Results': 'mx; dkim=pass' } }, ['headers.Authentication-Results:reserved_header']],
    [{ ...ok, headers: { 'ARC-Seal': 'i=1; cv=none' } }, ['headers.ARC-Seal:reserved_header']],
    [{ ...ok, headers: { 'Resent-From': 'a@b.test', 'resent-date': 'x' } }, ['headers.Resent-From:reserved_header', 'headers.resent-date:reserved_header']],
    [{ ...ok, headers: { 'Return-Receipt-To': 'a@b.test' } }, ['headers.Return-Receipt-To:reserved_header']],
    [{ ...ok, headers: { 'Disposition-Notification-To': 'a@b.test' } }, ['headers.Disposition-Notification-To:reserved_header']],
    [{ ...ok, headers: { 'Delivered-To': 'a@b.test' } }, ['headers.Delivered-To:reserved_header']],
    // MIME structure is the composer's
    [{ ...ok, headers: { 'Content-Type': 'multipart/mixed; boundary=x' } }, ['headers.Content-Type:reserved_header']],
    [{ ...ok, headers: { 'Content-Base': 'http://x.test/' } }, ['headers.Content-Base:reserved_header']],
    // message ids are ASCII msg-id syntax
    [{ ...ok, headers: { 'Message-ID': '<ünï@acme.test>' } }, ['headers.Message-ID:invalid_string']],
    [{ ...ok, headers: { 'Message-ID': 'no-brackets@acme.test' } }, ['headers.Message-ID:invalid_string']],
    [{ ...ok, headers: { 'Message-ID': '<a@b.test> <c@d.test>' } }, ['headers.Message-ID:invalid_string']],
    [{ ...ok, headers: { 'In-Reply-To': '<a@b.test> garbage' } }, ['headers.In-Reply-To:invalid_string']],
    [{ ...ok, headers: { References: '<a@b.test>\t<c d@e.test>' } }, ['headers.References:invalid_string']],
  ];
  for (const [body, expected] of cases) {
    const r = await d.request('POST', '/v1/send', body);
    assert.is(r.status, 422, JSON.stringify(body).slice(0, 120));
    assert.is(r.body.error.code, 'VALIDATION_ERROR');
    assert.equal(fieldErrors(r.body), expected, JSON.stringify(body).slice(0, 120));
  }
  const one = await d.request('POST', '/v1/send', { ...ok, subscribed: 'yes' });
  assert.equal(one.body.error.errors[0], { field: 'subscribed', message: 'Expected boolean, received string', code: 'invalid_type', received: 'yes' });
  assert.is(await contactOf('rules@example.test'), null, 'nothing was written');
});

send('attachments: every rule, base64 validity, 10 at most, 10 MB decoded together', async () => {
  const ok = { to: 'att@example.test', subject: 's', body: '<img src="cid:logo">', from: 'hello@acme.test' };
  const file = (over: Record<string, unknown> = {}) => ({ filename: 'a.pdf', content: Buffer.from('pdf').toString('base64'), contentType: 'application/pdf', ...over });
  const cases: [unknown[], string[]][] = [
    [[{}], ['attachments.0.content:invalid_type', 'attachments.0.contentType:invalid_type', 'attachments.0.filename:invalid_type']],
    [[file({ filename: 'a\nb.pdf' })], ['attachments.0.filename:invalid_string']],
    [[file({ filename: 'a"b.pdf' })], ['attachments.0.filename:invalid_string']],
    [[file({ filename: "a'b.pdf" })], ['attachments.0.filename:invalid_string']],
    [[file({ filename: '' })], ['attachments.0.filename:too_small']],
    [[file({ contentType: 'pdf' })], ['attachments.0.contentType:invalid_string']],
    [[file({ contentType: 'text/plain\r\nBcc: x' })], ['attachments.0.contentType:invalid_string']],
    [[file({ disposition: 'inline' })], ['attachments.0.contentId:invalid_type']],
    [[file({ disposition: 'sideways' })], ['attachments.0.disposition:invalid_enum_value']],
    [[file({ contentId: '<logo>' })], ['attachments.0.contentId:invalid_string']],
    [[file({ contentType: 'multipart/mixed; boundary="x"' })], ['attachments.0.contentType:invalid_string']],
    [[file({ contentType: 'Multipart/Alternative' })], ['attachments.0.contentType:invalid_string']],
    [[file({ content: 'not base64!' })], ['attachments.0.content:invalid_string']],
    [[file({ content: 'QUJD=' })], ['attachments.0.content:invalid_string']],
    [[file({ content: 'QQ==QQ==' })], ['attachments.0.content:invalid_string']],
    [[file({ content: 'Q' })], ['attachments.0.content:invalid_string']],
    [[file(), file({ content: 'a b' })], ['attachments.1.content:invalid_string']],
    [Array.from({ length: 11 }, () => file()), ['attachments:too_big']],
    [[file({ content: Buffer.alloc(6 * 1024 * 1024).toString('base64') }), file({ content: Buffer.alloc(5 * 1024 * 1024).toString('base64') })], ['attachments:too_big']],
  ];
  for (const [attachments, expected] of cases) {
    const r = await d.request('POST', '/v1/send', { ...ok, attachments });
    assert.is(r.status, 422, expected.join());
    assert.equal(fieldErrors(r.body), expected);
  }
  assert.is(await contactOf('att@example.test'), null);

  const good = await d.request('POST', '/v1/send', {
    ...ok,
    attachments: [
      file({ content: 'JVBERi0xLjQK\r\nJSVFT0YK' }),
      file({ filename: 'logo.png', content: PNG.toString('base64'), contentType: 'image/png', contentId: 'logo', disposition: 'inline' }),
      file({ filename: 'nopad.txt', content: 'YWI', contentType: 'text/plain; charset=utf-8' }),
      ...Array.from({ length: 7 }, (_, i) => file({ filename: `f${i}.bin`, contentType: 'application/octet-stream' })),
    ],
  });
  assert.is(good.status, 200, JSON.stringify(good.body));
  const big = await d.request('POST', '/v1/send', { ...ok, attachments: [file({ content: Buffer.alloc(9 * 1024 * 1024).toString('base64') })] });
  assert.is(big.status, 200, '9 MB decoded is within the limit');
});

send('a composed message over 40 MB is 422 and writes nothing', async () => {
  // Quoted-printable doubles text of this mix in the HTML part and again in the text part.
  const body = `<p>${'aaé '.repeat(2_000_000)}</p>`;
  const attachments = [{ filename: 'big.bin', content: Buffer.alloc(9 * 1024 * 1024).toString('base64'), contentType: 'application/octet-stream' }];
  const r = await d.request('POST', '/v1/send', { to: 'huge@example.test', subject: 's', body, from: 'hello@acme.test', attachments });
  assert.is(r.status, 422);
  assert.is(r.body.error.errors[0].code, 'too_big');
  assert.is(await contactOf('huge@example.test'), null);
});

send('the subscription links render as variables on the public URL', async () => {
  const r = await d.request('POST', '/v1/send', { to: 'links@example.test', subject: '{{unsubscribeUrl}} {{subscribeUrl}} {{manageUrl}}', body: 'b', from: 'hello@acme.test' });
  const [unsubscribe, subscribe, manage] = (await sentEvent(r.body.data.emails[0].email)).data.subject.split(' ');
  assert.match(unsubscribe, new RegExp(`^${d.url}/u/[A-Za-z0-9_-]{40,}$`));
  assert.match(subscribe, new RegExp(`^${d.url}/s/[A-Za-z0-9_-]{40,}$`));
  assert.match(manage, new RegExp(`^${d.url}/m/[A-Za-z0-9_-]{40,}$`));
});

send('Idempotency-Key: reuse is 409 IDEMPOTENCY_KEY_REUSED and sends nothing; a 4xx answer releases the key', async () => {
  const body = { to: 'idem@example.test', subject: 'once', body: 'b', from: 'hello@acme.test' };
  const headers = { 'idempotency-key': 'send-once-1' };
  const first = await d.request('POST', '/v1/send', body, { headers });
  assert.is(first.status, 200);
  const again = await d.request('POST', '/v1/send', body, { headers });
  assert.is(again.status, 409);
  assert.is(again.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
  assert.equal({ ...again.body.error.details, originalRequestAt: undefined }, {
    key: 'send-once-1',
    originalRequest: 'POST /v1/send',
    originalRequestAt: undefined,
    originalStatusCode: 200,
  });
  const contact = await contactOf('idem@example.test');
  const sends = (await d.request('GET', `/events/contact/${contact.id}`)).body.data.filter((e: { name: string }) => e.name === 'email.sent');
  assert.is(sends.length, 1);

  const released = { 'idempotency-key': 'send-fix-1' };
  assert.is((await d.request('POST', '/v1/send', { ...body, from: 'me@elsewhere.test' }, { headers: released })).status, 403);
  assert.is((await d.request('POST', '/v1/send', { ...body, subject: '' }, { headers: released })).status, 422);
  assert.is((await d.request('POST', '/v1/send', body, { headers: released })).status, 200, 'the corrected request may reuse the key');
  assert.is((await d.request('POST', '/v1/send', body, { headers: { 'idempotency-key': 'é' } })).status, 400);
});

send('end to end: the delivered message is the one composed at acceptance, rendered for its recipient', async () => {
  const r = await d.request('POST', '/v1/send', {
    to: 'e2e@example.test',
    template: templates.marketing,
    subscribed: true,
    data: { name: '<b>Tess</b>', plan: 'team', coupon: { value: 'SAVE10', persistent: false } },
    headers: { 'X-Campaign': 'spring', precedence: 'list' },
    attachments: [{ filename: 'terms.txt', content: Buffer.from('the terms').toString('base64'), contentType: 'text/plain' }],
  });
  assert.is(r.status, 200, JSON.stringify(r.body));
  const emailId = r.body.data.emails[0].email as string;
  const message = await delivered('e2e@example.test');
  assert.is(message.mailFrom, `b-${emailId}@bounces.acme.test`, 'the VERP return path names the email');
  const mail = await simpleParser(message.raw);
  assert.is(mail.subject, 'Hello <b>Tess</b>, your plan is team', 'subjects are plain text, never escaped');
  assert.equal(addressOf(mail.from), { address: 'news@acme.test', name: 'Acme News' });
  assert.equal(addressOf(mail.to), { address: 'e2e@example.test', name: '' });
  assert.equal(addressOf(mail.replyTo)?.address, 'help@acme.test');
  assert.is(mail.messageId, `<${emailId}@mx.postmill.test>`);
  assert.is(mail.headers.get('x-postmill-email-id'), emailId);
  assert.is(mail.headers.get('x-campaign'), 'spring');
  assert.is(mail.headers.get('precedence'), 'list', 'a caller header replaces ours');
  const html = String(mail.html);
  assert.match(html, 'Hi &lt;b&gt;Tess&lt;/b&gt;: team SAVE10', 'values are HTML-escaped, one-off values render');
  const unsubscribeUrl = /href="([^"]+)"/.exec(html)![1]!;
  assert.ok(unsubscribeUrl.startsWith(`${d.url}/u/`), unsubscribeUrl);
  const lines = headerLines(message.raw);
  const listUnsubscribe = lines.find((l) => l.startsWith('List-Unsubscribe:')) ?? '';
  assert.match(listUnsubscribe, `<${unsubscribeUrl}>, <mailto:unsubscribe@bounces.acme.test?subject=`);
  assert.match(listUnsubscribe, /<mailto:unsubscribe@bounces\.acme\.test\?subject=[A-Za-z0-9_-]+>$/);
  assert.ok(lines.includes('List-Unsubscribe-Post: List-Unsubscribe=One-Click'));
  assert.match(mail.text ?? '', /team SAVE10/);
  assert.equal(mail.attachments.map((a) => [a.filename, a.content.toString()]), [['terms.txt', 'the terms']]);
  assert.equal((await contactOf('e2e@example.test')).data, { name: '<b>Tess</b>', plan: 'team' }, 'one-off values are not stored');
});

send('malformed JSON is 400', async () => {
  const r = await d.request('POST', '/v1/send', undefined, { raw: '{"to": "a@example.test",' });
  assert.is(r.status, 400);
  assert.is(r.body.error.code, 'BAD_REQUEST');
});

send.run();
