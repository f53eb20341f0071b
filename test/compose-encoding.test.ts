import { simpleParser } from 'mailparser';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { composeReceipt } from './helpers/receipt.js';

const compose = (html: string) => composeReceipt(html, 'Receipt').raw;

const encodings = (raw: Buffer) => [...raw.toString('latin1').matchAll(/Content-Transfer-Encoding: ([\w-]+)/g)].map((m) => m[1]);

test('text mostly outside ASCII goes base64 (about half the size of quoted-printable), and reads back the same', async () => {
  const html = `<h1>Здравствуйте</h1>${'<p>Спасибо за ваш заказ; подробности ниже.</p>'.repeat(200)}`;
  const raw = compose(html);
  assert.equal(encodings(raw), ['base64', 'base64']);
  assert.ok(raw.length < Buffer.byteLength(html) * 3, `${raw.length} bytes for ${Buffer.byteLength(html)} of HTML and its text`);
  const mail = await simpleParser(raw);
  assert.is(mail.html, html);
  assert.match(mail.text ?? '', 'Спасибо за ваш заказ');
});

test('text mostly in ASCII stays quoted-printable, readable as it travels', async () => {
  const html = `<h1>Grüße</h1>${'<p>Thank you for your order; the details follow.</p>'.repeat(50)}`;
  const raw = compose(html);
  assert.equal(encodings(raw), ['quoted-printable', 'quoted-printable']);
  assert.match(raw.toString('latin1'), 'Thank you for your order');
  assert.is((await simpleParser(raw)).html, html);
});

test.run();
