// The console's template routes through the real daemon: POST /templates/preview renders what a
// send renders (compared with the message a real send delivered to the loopback sink for the same
// contact), stores and sends nothing; POST /templates/{id}/test delivers one "[TEST]" message,
// untracked and not counted, through the path of campaign tests.
import { simpleParser, type ParsedMail } from 'mailparser';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Keys, TestDaemon } from './helpers/daemon.js';
import { sendAndReceive } from './helpers/delivered.js';
import { eventsNamed, eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;
let d: TestDaemon;
let other: Keys;
let ann: { id: string; email: string };

test.before(async () => {
  env = await startMailEnv();
  d = env.daemon;
  other = d.createProject('other');
  env.routeToSink('rcpt.test');
  await env.verifySender('tpl.test');
  const made = await d.request('POST', '/contacts', { email: 'ann@rcpt.test', data: { name: 'Ann <b>&', plan: 'pro', address: { city: 'Lyon' } } });
  assert.is(made.status, 201, JSON.stringify(made.body));
  ann = made.body;
});
test.after(async () => env.close());

const createTemplate = async (over: Record<string, unknown>) => {
  const r = await d.request('POST', '/templates', { name: 'T', subject: 'S', body: '<p>B</p>', from: 'hello@tpl.test', type: 'TRANSACTIONAL', ...over });
  assert.is(r.status, 201, JSON.stringify(r.body));
  return r.body as { id: string };
};
const preview = (body: Record<string, unknown>, key = d.project.secretKey) => d.request('POST', '/templates/preview', body, { key });

/** The part as the preview shows it: LF line breaks (MIME carries CRLF). */
const lf = (text: string) => text.replace(/\r\n/g, '\n');

/** A delivered part with its signed subscription links written as the preview's inert ones. */
const withPreviewLinks = (text: string) =>
  text
    .replace(new RegExp(`${d.url}/u/[\\w.-]+`, 'g'), 'https://unsubscribe.preview.invalid/')
    .replace(new RegExp(`${d.url}/s/[\\w.-]+`, 'g'), 'https://subscribe.preview.invalid/')
    .replace(new RegExp(`${d.url}/m/[\\w.-]+`, 'g'), 'https://manage.preview.invalid/');

// variants: escaped values, defaults, nested paths, one-off and stored data, links in attributes
// and text, inline styles; a raw placeholder (its text part is converted per recipient instead)
const BODIES = [
  `<html><head><style>p { color: red }</style></head><body style="margin:0">
<h1 style="font-size:20px">Hello {{name}}</h1>
<p style="color:#333">Plan: {{data.plan}}, city {{address.city}}, country {{country ?? France}}, coupon {{coupon}}</p>
<p>Write to {{email}} · <a href="{{unsubscribeUrl}}">Unsubscribe</a> · <a href="{{manageUrl}}">Manage</a> · {{subscribeUrl}}</p>
<a href="https://example.com/x?id={{id}}">A link</a>
</body></html>`,
  `<div>{{{banner}}}<p>Dear {{name ?? friend}}, {{plan}}</p><a href="{{unsubscribeUrl}}">stop</a></div>`,
];

test('the preview is what a send to that contact delivers: subject, HTML and text part (subscription links inert)', async () => {
  for (const [i, body] of BODIES.entries()) {
    const subject = `Hi {{name}} [{{plan}}] #${i}`;
    const template = await createTemplate({ subject, body });
    const data = { coupon: { value: 'SAVE<10>', persistent: false }, banner: { value: '<b style="color:blue">Sale</b>', persistent: false } };
    const shown = await preview({ subject, body, contactId: ann.id, data });
    assert.is(shown.status, 200, JSON.stringify(shown.body));
    const delivered: ParsedMail = (await sendAndReceive(env, { to: ann.email, template: template.id, data })).parsed;
    assert.is(shown.body.subject, delivered.subject, `subject of body ${i}`);
    assert.is(shown.body.html, withPreviewLinks(lf(delivered.html as string)), `HTML of body ${i}`);
    // a raw value makes the text part a conversion of the rendered HTML, so where html-to-text wraps
    // lines depends on the lengths of the (longer, signed) links: the same words, wrapped elsewhere
    const text = (t: string) => (body.includes('{{{') ? t.replace(/\s+/g, ' ').trim() : t);
    assert.is(text(lf(shown.body.text)), text(withPreviewLinks(lf(delivered.text!)).replace(/\n$/, '')), `text of body ${i}`);
  }
  // what the comparison rests on: escaped values, the contact's data, the inert links
  const shown = (await preview({ subject: 'x', body: BODIES[0]!, contactId: ann.id })).body;
  assert.match(shown.html, /Hello Ann &lt;b&gt;&amp;/);
  assert.match(shown.html, /city Lyon, country France/);
  assert.match(shown.html, /<a href="https:\/\/unsubscribe\.preview\.invalid\/">Unsubscribe<\/a>/);
  assert.match(shown.html, /style="color:#333"/);
  assert.not.match(shown.html, new RegExp(`${d.url}/(u|m|s|t)/`), 'no signed link of ours in a preview');
  assert.match(shown.text, /HELLO Ann <b>&/, "the text part is plain text: values unescaped");
});

test('without a contact: a stand-in with no data; data as a send takes it (reserved keys dropped); nothing is stored or sent', async () => {
  const before = env.sink.messages.length;
  const sentBefore = (await eventsNamed(d, 'email.sent')).length;
  const shown = await preview({ subject: 'For {{email}}', body: '<p>{{name ?? you}} {{email}} {{id}} {{plan}}</p>', data: { plan: 'gold', email: 'evil@x.test', id: 'forged' } });
  assert.is(shown.status, 200, JSON.stringify(shown.body));
  assert.is(shown.body.subject, 'For someone@example.com');
  assert.is(shown.body.html, '<p>you someone@example.com 00000000-0000-4000-8000-000000000000 gold</p>');
  assert.is(shown.body.text, 'you someone@example.com 00000000-0000-4000-8000-000000000000 gold');

  const changed = await preview({ subject: 's', body: '<p>{{plan}}</p>', contactId: ann.id, data: { plan: 'free', extra: 'x' } });
  assert.is(changed.body.html, '<p>free</p>');
  const stored = await d.request('GET', `/contacts/${ann.id}`);
  assert.is(stored.body.data.plan, 'pro', 'the preview stored nothing');
  assert.is(stored.body.data.extra, undefined);
  assert.is(env.sink.messages.length, before, 'nothing sent');
  assert.is((await eventsNamed(d, 'email.sent')).length, sentBefore, 'no email recorded');
  // an empty body or subject is previewed as it is (a template being written)
  assert.equal((await preview({ subject: '', body: '' })).body, { subject: '', html: '', text: '' });
});

test('preview refusals: another project\'s contact is 404; bad bodies are 422, never 500', async () => {
  const elsewhere = await preview({ subject: 's', body: 'b', contactId: ann.id }, other.secretKey);
  assert.is(elsewhere.status, 404);
  assert.is(elsewhere.body.error.code, 'NOT_FOUND');
  for (const bad of [{}, { subject: 's' }, { body: 'b' }, { subject: 1, body: 'b' }, { subject: 's', body: 'b', contactId: 'nope' }, { subject: 's', body: 'b', data: [] }, { subject: 's', body: 'b', extra: 1 }]) {
    const r = await preview(bad);
    assert.is(r.status, 422, `${JSON.stringify(bad)} -> ${r.status} ${JSON.stringify(r.body)}`);
  }
  assert.is((await preview({ subject: 'x'.repeat(999), body: 'b' })).status, 422);
});

test('a body as large as a template can be (the 1 MB request) is previewed', async () => {
  const body = `<p>{{name}}</p>${'<p>filler text</p>'.repeat(55_000)}`;
  const r = await preview({ subject: 's', body, contactId: ann.id });
  assert.is(r.status, 200);
  assert.ok(r.body.html.startsWith('<p>Ann &lt;b&gt;&amp;</p><p>filler text</p>'));
  assert.is(r.body.html.length, body.length - '{{name}}'.length + 'Ann &lt;b&gt;&amp;'.length);
});

test('POST /templates/{id}/test: "[TEST] " subject, rendered for the contact of that address, untracked, not counted; refusals', async () => {
  // a MARKETING template: a real send of it is tracked and carries List-Unsubscribe
  const template = await createTemplate({ type: 'MARKETING', subject: 'News for {{name ?? you}}', body: '<p>Hi {{name}}</p><a href="https://example.com/a">A</a>' });
  const usage = async () => (await d.request('GET', `/templates/${template.id}/usage`)).body.emailsSent;
  const countBefore = await usage();
  for (const [email, name] of [
    [ann.email, 'Ann <b>&'],
    ['stranger@rcpt.test', 'you'],
  ] as const) {
    const before = env.sink.messages.length;
    const r = await d.request('POST', `/templates/${template.id}/test`, { email });
    assert.is(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body, { success: true, data: { emailId: r.body.data.emailId, to: email }, message: `Test email sent to ${email}` });
    const parsed = await simpleParser((await env.sink.waitFor(before + 1, 8000))[before]!.raw);
    assert.is(parsed.subject, `[TEST] News for ${name}`);
    assert.equal(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value[0]!.address : null, email);
    assert.match(parsed.html as string, /<a href="https:\/\/example\.com\/a">A<\/a>/, 'links are not rewritten');
    assert.not.match(parsed.html as string, /\/t\/o\//, 'no open pixel');
  }
  assert.is(await usage(), countBefore, 'a test is not counted as a use of the template');
  assert.is((await d.request('GET', '/contacts?search=stranger')).body.data.length, 0, 'no contact made for a test address');

  assert.is((await d.request('POST', `/templates/${template.id}/test`, { email: 'nope' })).status, 422);
  assert.is((await d.request('POST', `/templates/${template.id}/test`, {})).status, 422);
  const elsewhere = await d.request('POST', `/templates/${template.id}/test`, { email: ann.email }, { key: other.secretKey });
  assert.is(elsewhere.status, 404);
  assert.is(elsewhere.body.error.code, 'NOT_FOUND');
  assert.is((await d.request('POST', '/templates/00000000-0000-4000-8000-000000000000/test', { email: ann.email })).status, 404);
});

test('a test to a suppressed address follows the rules of a real send: MARKETING refused (400), TRANSACTIONAL sent', async () => {
  env.sink.onRecipient((rcpt) => (rcpt === 'gone@rcpt.test' ? { code: 550, message: '5.1.1 no such user' } : null));
  const marketing = await createTemplate({ type: 'MARKETING' });
  const transactional = await createTemplate({ type: 'TRANSACTIONAL' });
  assert.is((await d.request('POST', '/v1/send', { to: 'gone@rcpt.test', subject: 's', body: 'b', from: 'hello@tpl.test' })).status, 200);
  // the 550 is a hard bounce: the address is suppressed once the delivery ran
  const refused = await eventually(async () => {
    const r = await d.request('POST', `/templates/${marketing.id}/test`, { email: 'gone@rcpt.test' });
    return r.status === 400 ? r : null;
  }, 10_000, 'a MARKETING test to the bounced address refused');
  assert.match(refused.body.error.message, /suppressed after a bounce/);
  const real = await d.request('POST', '/v1/send', { to: 'gone@rcpt.test', template: marketing.id });
  assert.is(real.status, 400, 'the real send is refused alike');
  assert.is((await d.request('POST', `/templates/${transactional.id}/test`, { email: 'gone@rcpt.test' })).status, 200);
  env.sink.onRecipient(() => null);
});

test.run();
