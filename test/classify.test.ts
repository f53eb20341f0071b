import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cpuMs } from './helpers/cpu-time.js';
import { classifyMessage, emailIdFromVerp, verpAddress } from '../src/inbound/classify.js';
import type { Classification, Envelope } from '../src/inbound/classify.js';

const FIXTURES = fileURLToPath(new URL('../../test/fixtures/inbound/', import.meta.url));

type Bounce = Extract<Classification, { kind: 'bounce' }>;
/** A bounce's diagnostic is checked as a substring; everything else must match exactly. */
type ExpectedBounce = Omit<Bounce, 'diagnostic'> & { diagnosticIncludes: string | null };
type Expected = Exclude<Classification, Bounce> | ExpectedBounce;

interface Case {
  envelope: Envelope;
  expected: Expected;
}

const verp = (emailId: string): Envelope => ({
  mailFrom: '',
  rcptTo: [verpAddress(emailId, 'shop.example')],
});
const plain = (mailFrom: string, rcptTo = 'news@shop.example'): Envelope => ({ mailFrom, rcptTo: [rcptTo] });
const messageId = (emailId: string): string => `<${emailId}@mta.postmill.test>`;

const bounce = (fields: Omit<ExpectedBounce, 'kind'>): Expected => ({ kind: 'bounce', ...fields });

const CASES: Record<string, Case> = {
  'postfix-dsn-user-unknown.eml': {
    envelope: verp('786e17de-f7ae-407a-bfc8-7db485549fe9'),
    expected: bounce({
      bounceType: 'Permanent',
      status: '5.1.1',
      diagnosticIncludes: 'User unknown in local recipient table',
      recipient: 'alice@recipient.example',
      emailId: '786e17de-f7ae-407a-bfc8-7db485549fe9',
      originalMessageId: messageId('786e17de-f7ae-407a-bfc8-7db485549fe9'),
    }),
  },
  'postfix-delayed.eml': {
    envelope: verp('aa3f8856-ed2a-451f-b111-b4a913d643d5'),
    expected: bounce({
      bounceType: 'Transient',
      status: '4.4.1',
      diagnosticIncludes: 'Connection timed out',
      recipient: 'bob@slow.example',
      emailId: 'aa3f8856-ed2a-451f-b111-b4a913d643d5',
      originalMessageId: messageId('aa3f8856-ed2a-451f-b111-b4a913d643d5'),
    }),
  },
  'exim-dsn.eml': {
    envelope: verp('d198b64e-3528-449e-8a56-7ef41500e160'),
    expected: bounce({
      bounceType: 'Permanent',
      status: '5.0.0',
      diagnosticIncludes: '550 5.1.1 <carol@isp.example>',
      recipient: 'carol@isp.example',
      emailId: 'd198b64e-3528-449e-8a56-7ef41500e160',
      originalMessageId: messageId('d198b64e-3528-449e-8a56-7ef41500e160'),
    }),
  },
  'exim-plain.eml': {
    envelope: plain(''),
    expected: bounce({
      bounceType: 'Permanent',
      status: '5.1.1',
      diagnosticIncludes: '550 5.1.1 No such user here',
      recipient: 'dave@legacy.example',
      emailId: '5dbf5dce-f00e-4eda-a240-2a90de45a19a',
      originalMessageId: messageId('5dbf5dce-f00e-4eda-a240-2a90de45a19a'),
    }),
  },
  'exim-delay-plain.eml': {
    envelope: verp('169615da-9093-4ca8-8857-4311b2a0ddf7'),
    expected: bounce({
      bounceType: 'Transient',
      status: null,
      diagnosticIncludes: null,
      recipient: 'erin@overseas.example',
      emailId: '169615da-9093-4ca8-8857-4311b2a0ddf7',
      originalMessageId: null,
    }),
  },
  'sendmail-dsn.eml': {
    envelope: verp('e81a60c6-1386-4202-86f6-ab2a603c7807'),
    expected: bounce({
      bounceType: 'Permanent',
      status: '5.1.1',
      diagnosticIncludes: '<frank@univ.example>... User unknown',
      recipient: 'frank@univ.example',
      emailId: 'e81a60c6-1386-4202-86f6-ab2a603c7807',
      originalMessageId: messageId('e81a60c6-1386-4202-86f6-ab2a603c7807'),
    }),
  },
  'sendmail-plain.eml': {
    envelope: verp('2aa4a531-969f-41f3-a5e5-c02611d0c141'),
    expected: bounce({
      bounceType: 'Permanent',
      status: '550',
      diagnosticIncludes: '550 User unknown',
      recipient: 'grace@old.coop.example',
      emailId: '2aa4a531-969f-41f3-a5e5-c02611d0c141',
      originalMessageId: messageId('2aa4a531-969f-41f3-a5e5-c02611d0c141'),
    }),
  },
  'qmail.eml': {
    envelope: plain(''),
    expected: bounce({
      bounceType: 'Permanent',
      status: '5.1.1',
      diagnosticIncludes: 'no mailbox here by that name',
      recipient: 'heidi@hosting.example',
      emailId: '45c51305-f89f-48a7-8233-ddc47e71a08b',
      originalMessageId: messageId('45c51305-f89f-48a7-8233-ddc47e71a08b'),
    }),
  },
  'exchange-ndr.eml': {
    envelope: verp('f1972824-f0f4-4ca5-8aeb-480e7c36d9da'),
    expected: bounce({
      bounceType: 'Permanent',
      status: '5.1.1',
      diagnosticIncludes: 'RESOLVER.ADR.RecipNotFound',
      recipient: 'ivan@corp.example',
      emailId: 'f1972824-f0f4-4ca5-8aeb-480e7c36d9da',
      originalMessageId: messageId('f1972824-f0f4-4ca5-8aeb-480e7c36d9da'),
    }),
  },
  'office365-ndr.eml': {
    envelope: plain('', 'billing@shop.example'),
    expected: bounce({
      bounceType: 'Permanent',
      status: '5.1.10',
      diagnosticIncludes: 'RESOLVER.ADR.RecipientNotFound; Recipient judy@tenant.example not found',
      recipient: 'judy@tenant.example',
      emailId: '3eb1568f-c4da-44b2-8818-11e1c6516802',
      originalMessageId: messageId('3eb1568f-c4da-44b2-8818-11e1c6516802'),
    }),
  },
  'exchange-plain-ndr.eml': {
    envelope: plain('postmaster@lawfirm.example'),
    expected: bounce({
      bounceType: 'Permanent',
      status: '5.1.1',
      diagnosticIncludes: 'RESOLVER.ADR.RecipNotFound',
      recipient: 'kim.mueller@lawfirm.example',
      emailId: null,
      originalMessageId: null,
    }),
  },
  'gmail-ndr.eml': {
    envelope: verp('2cf8d7c0-e5c2-4837-8041-c10563c9f846'),
    expected: bounce({
      bounceType: 'Permanent',
      status: '5.1.1',
      diagnosticIncludes: 'The email account that you tried to reach does not exist',
      recipient: 'leo.nonexistent@gmail.example',
      emailId: '2cf8d7c0-e5c2-4837-8041-c10563c9f846',
      originalMessageId: messageId('2cf8d7c0-e5c2-4837-8041-c10563c9f846'),
    }),
  },
  'gmail-html-only.eml': {
    envelope: verp('a24f6c10-ef8c-4f55-a857-50c1bdf359b1'),
    expected: bounce({
      bounceType: 'Transient',
      status: '5.2.2',
      diagnosticIncludes: "552 5.2.2 The recipient's inbox is out of storage space",
      recipient: 'mia@blocked.example',
      emailId: 'a24f6c10-ef8c-4f55-a857-50c1bdf359b1',
      originalMessageId: null,
    }),
  },
  'yahoo-ndr.eml': {
    envelope: verp('a3dd425f-0aad-4341-807d-4a4c7c1e1a36'),
    expected: bounce({
      bounceType: 'Permanent',
      status: '554',
      diagnosticIncludes: "554: delivery error: dd This user doesn't have a yahoo.example account",
      recipient: 'noah.gone@yahoo.example',
      emailId: 'a3dd425f-0aad-4341-807d-4a4c7c1e1a36',
      originalMessageId: messageId('a3dd425f-0aad-4341-807d-4a4c7c1e1a36'),
    }),
  },
  'outlook-com-ndr.eml': {
    envelope: verp('af1fa7b4-ca5a-4572-b277-1b7d68473c2e'),
    expected: bounce({
      bounceType: 'Permanent',
      status: '5.5.0',
      diagnosticIncludes: 'mailbox unavailable (S2017062302)',
      recipient: 'olivia.x@outlook.example',
      emailId: 'af1fa7b4-ca5a-4572-b277-1b7d68473c2e',
      originalMessageId: messageId('af1fa7b4-ca5a-4572-b277-1b7d68473c2e'),
    }),
  },
  'ses-dsn.eml': {
    envelope: verp('3e157852-7ffb-4fb1-93f1-9e768f192322'),
    expected: bounce({
      bounceType: 'Permanent',
      status: '5.1.1',
      diagnosticIncludes: '550 5.1.1 user unknown',
      recipient: 'pat@retail.example',
      emailId: '3e157852-7ffb-4fb1-93f1-9e768f192322',
      originalMessageId: messageId('3e157852-7ffb-4fb1-93f1-9e768f192322'),
    }),
  },
  // A full mailbox (5.2.2) is treated as temporary: it must not unsubscribe the contact.
  'mailbox-full-552.eml': {
    envelope: verp('274f95cb-10c5-4b7e-8b16-428281a94e07'),
    expected: bounce({
      bounceType: 'Transient',
      status: '5.2.2',
      diagnosticIncludes: 'Mailbox full',
      recipient: 'quinn@mailbox.example',
      emailId: '274f95cb-10c5-4b7e-8b16-428281a94e07',
      originalMessageId: messageId('274f95cb-10c5-4b7e-8b16-428281a94e07'),
    }),
  },
  'mailbox-full-422.eml': {
    envelope: verp('786e17de-f7ae-407a-bfc8-7db485549fe9'),
    expected: bounce({
      bounceType: 'Transient',
      status: '4.2.2',
      diagnosticIncludes: 'Mailbox over quota',
      recipient: 'rosa@mailbox.example',
      emailId: '786e17de-f7ae-407a-bfc8-7db485549fe9',
      originalMessageId: null,
    }),
  },
  'dsn-headers-only.eml': {
    envelope: plain(''),
    expected: bounce({
      bounceType: 'Permanent',
      status: '5.1.1',
      diagnosticIncludes: 'Mailbox does not exist',
      recipient: 'sam@coop.example',
      emailId: 'd198b64e-3528-449e-8a56-7ef41500e160',
      originalMessageId: messageId('d198b64e-3528-449e-8a56-7ef41500e160'),
    }),
  },
  'dsn-verp-only.eml': {
    envelope: verp('45c51305-f89f-48a7-8233-ddc47e71a08b'),
    expected: bounce({
      bounceType: 'Permanent',
      status: '5.7.1',
      diagnosticIncludes: 'Delivery not authorized',
      recipient: 'tara@hospital.example',
      emailId: '45c51305-f89f-48a7-8233-ddc47e71a08b',
      originalMessageId: null,
    }),
  },
  'dsn-message-id-only.eml': {
    envelope: plain(''),
    expected: bounce({
      bounceType: 'Permanent',
      status: '5.1.2',
      diagnosticIncludes: 'Host unknown',
      recipient: 'uma@agency.example',
      emailId: null,
      originalMessageId: '<0f1e2d3c.4b5a.6978@mta.postmill.test>',
    }),
  },
  'dsn-original-message-id-field.eml': {
    envelope: plain(''),
    expected: bounce({
      bounceType: 'Permanent',
      status: '5.7.1',
      diagnosticIncludes: 'content policy',
      recipient: 'victor@bank.example',
      emailId: null,
      originalMessageId: messageId('9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a'),
    }),
  },
  'truncated-dsn.eml': {
    envelope: verp('a24f6c10-ef8c-4f55-a857-50c1bdf359b1'),
    expected: bounce({
      bounceType: 'Permanent',
      status: '5.1.1',
      diagnosticIncludes: 'Recipient address',
      recipient: 'cara@cutoff.example',
      emailId: 'a24f6c10-ef8c-4f55-a857-50c1bdf359b1',
      originalMessageId: null,
    }),
  },
  'arf-yahoo.eml': {
    envelope: plain('feedbackloop@fbl.yahoo.example', 'fbl@shop.example'),
    expected: {
      kind: 'complaint',
      feedbackType: 'abuse',
      recipient: 'wendy@yahoo.example',
      emailId: '786e17de-f7ae-407a-bfc8-7db485549fe9',
      originalMessageId: messageId('786e17de-f7ae-407a-bfc8-7db485549fe9'),
    },
  },
  'arf-microsoft-jmrp.eml': {
    envelope: plain('staff@hotmail.example', 'jmrp@shop.example'),
    expected: {
      kind: 'complaint',
      feedbackType: 'abuse',
      recipient: null,
      emailId: 'e81a60c6-1386-4202-86f6-ab2a603c7807',
      originalMessageId: messageId('e81a60c6-1386-4202-86f6-ab2a603c7807'),
    },
  },
  'arf-fraud-headers-only.eml': {
    envelope: plain('abuse@isp-fbl.example', 'fbl@shop.example'),
    expected: {
      kind: 'complaint',
      feedbackType: 'fraud',
      recipient: 'xavier@isp-fbl.example',
      emailId: '2aa4a531-969f-41f3-a5e5-c02611d0c141',
      originalMessageId: messageId('2aa4a531-969f-41f3-a5e5-c02611d0c141'),
    },
  },
  'out-of-office.eml': {
    envelope: plain('yusuf@company.example'),
    expected: {
      kind: 'auto-reply',
      from: 'yusuf@company.example',
      subject: 'Automatic reply: April newsletter',
    },
  },
  'vacation-auto-submitted.eml': {
    envelope: plain(''),
    expected: { kind: 'auto-reply', from: 'zoe@home.example', subject: 'Re: Spring sale starts today' },
  },
  'abwesenheitsnotiz.eml': {
    envelope: plain('juergen@firma.example'),
    expected: {
      kind: 'auto-reply',
      from: 'juergen@firma.example',
      subject: 'Abwesenheitsnotiz: Ihre Bestellung ist unterwegs',
    },
  },
  'dsn-delivered.eml': {
    envelope: verp('169615da-9093-4ca8-8857-4311b2a0ddf7'),
    expected: {
      kind: 'auto-reply',
      from: 'MAILER-DAEMON@mx.notify.example',
      subject: 'Successful Mail Delivery Report',
    },
  },
  'human-reply.eml': { envelope: plain('ben@personal.example'), expected: { kind: 'received' } },
  'malformed-mime.eml': { envelope: plain('broken@client.example'), expected: { kind: 'received' } },
  'eight-bit-garbage.eml': { envelope: plain(''), expected: { kind: 'received' } },
};

function readFixture(name: string): Buffer {
  return readFileSync(FIXTURES + name);
}

function assertClassification(actual: Classification, expected: Expected): void {
  if (actual.kind === 'bounce' && expected.kind === 'bounce') {
    const { diagnostic, ...rest } = actual;
    const { diagnosticIncludes, ...expectedRest } = expected;
    assert.equal(rest, expectedRest);
    if (diagnosticIncludes === null) assert.is(diagnostic, null);
    else assert.ok(diagnostic?.includes(diagnosticIncludes), `diagnostic ${JSON.stringify(diagnostic)}`);
    return;
  }
  assert.equal(actual, expected);
}

// A deterministic byte source, so a failing input can be reproduced.
function pseudoRandomBytes(length: number, seed: number): Buffer {
  const bytes = Buffer.alloc(length);
  let state = seed;
  for (let index = 0; index < length; index++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    bytes[index] = state >>> 16;
  }
  return bytes;
}

test('every fixture has an expected classification', () => {
  const files = readdirSync(FIXTURES).filter((name) => name.endsWith('.eml'));
  assert.equal(files.sort(), Object.keys(CASES).sort());
  assert.ok(files.length >= 24);
});

for (const [name, { envelope, expected }] of Object.entries(CASES)) {
  test(`classifies ${name}`, async () => {
    const raw = readFixture(name);
    assertClassification(await classifyMessage(raw, envelope), expected);
    const crlf = Buffer.from(raw.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1');
    assertClassification(await classifyMessage(crlf, envelope), expected);
  });
}

test('a VERP envelope recipient wins over the X-Postmill-Email-Id of the returned message', async () => {
  const emailId = '0b7f3c2a-1d4e-4f6a-9b8c-7d6e5f4a3b2c';
  const result = await classifyMessage(readFixture('postfix-dsn-user-unknown.eml'), {
    mailFrom: '',
    rcptTo: ['news@shop.example', `<${verpAddress(emailId, 'Shop.Example')}>`],
  });
  assert.is(result.kind === 'bounce' && result.emailId, emailId);
});

test('a report on several recipients names a failure first; Action failed is final', async () => {
  const groups = [
    'Final-Recipient: rfc822; ok@dest.example\nAction: delivered\nStatus: 2.0.0',
    'Final-Recipient: rfc822; slow@dest.example\nAction: delayed\nStatus: 4.4.1',
    // Postfix keeps the 4.x.x status of the last attempt when the queue lifetime runs out.
    'Final-Recipient: rfc822; expired@dest.example\nAction: failed\nStatus: 4.4.7',
  ];
  const raw = Buffer.from(
    'From: MAILER-DAEMON@mx.dest.example\nSubject: Undelivered Mail Returned to Sender\n' +
      'Content-Type: multipart/report; report-type=delivery-status; boundary="B"\n\n' +
      '--B\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.dest.example\n\n' +
      `${groups.join('\n\n')}\n--B--\n`,
  );
  assert.equal(await classifyMessage(raw, plain('')), {
    kind: 'bounce',
    bounceType: 'Permanent',
    status: '4.4.7',
    diagnostic: null,
    recipient: 'expired@dest.example',
    emailId: null,
    originalMessageId: null,
  });
});

test('Auto-Submitted: no is a message from a person', async () => {
  const raw = Buffer.from(
    'From: a@person.example\r\nAuto-Submitted: no\r\nSubject: Question\r\n\r\nHello\r\n',
  );
  assert.equal(await classifyMessage(raw, plain('a@person.example')), { kind: 'received' });
});

test('verpAddress and emailIdFromVerp agree on the format', () => {
  const emailId = '786e17de-f7ae-407a-bfc8-7db485549fe9';
  const address = verpAddress(emailId, 'Shop.Example');
  assert.is(address, `b-${emailId}@bounces.shop.example`);
  assert.is(emailIdFromVerp(address), emailId);
  assert.is(emailIdFromVerp(`<${address.toUpperCase()}>`), emailId);
  assert.is(emailIdFromVerp(` ${address} `), emailId);
});

test('emailIdFromVerp rejects every other address', () => {
  for (const address of [
    '',
    'news@shop.example',
    'b-786e17de-f7ae-407a-bfc8-7db485549fe9',
    'b-786e17de-f7ae-407a-bfc8-7db485549fe9@',
    'x-786e17de-f7ae-407a-bfc8-7db485549fe9@bounces.shop.example',
    'b-786e17de-f7ae-107a-bfc8-7db485549fe9@bounces.shop.example',
    'b-786e17de-f7ae-407a-bfc8-7db485549fe9x@bounces.shop.example',
    'b-not-a-uuid@bounces.shop.example',
  ]) {
    assert.is(emailIdFromVerp(address), null, address);
  }
});

test('verpAddress refuses an id that is not an email id (UUID v7 or v4)', () => {
  assert.throws(() => verpAddress('42', 'shop.example'), /UUID/);
  assert.throws(() => verpAddress('786e17de-f7ae-107a-bfc8-7db485549fe9', 'shop.example'), /UUID/);
});

test('an empty buffer is received mail', async () => {
  assert.equal(await classifyMessage(Buffer.alloc(0), plain('')), { kind: 'received' });
});

test('random bytes always resolve', async () => {
  for (let seed = 1; seed <= 200; seed++) {
    const result = await classifyMessage(pseudoRandomBytes((seed * 97) % 6000, seed), plain(''));
    assert.ok(['bounce', 'complaint', 'auto-reply', 'received'].includes(result.kind));
  }
});

test('every prefix of a report and damaged reports always resolve', async () => {
  for (const name of ['gmail-ndr.eml', 'arf-yahoo.eml', 'exchange-ndr.eml', 'qmail.eml']) {
    const raw = readFixture(name);
    for (let end = 0; end < raw.length; end += 37) await classifyMessage(raw.subarray(0, end), plain(''));
    for (let seed = 1; seed <= 50; seed++) {
      const damaged = Buffer.from(raw);
      const noise = pseudoRandomBytes(40, seed);
      for (let index = 0; index < noise.length; index += 2) {
        damaged[(noise[index] * 256 + noise[index + 1]) % damaged.length] = noise[index + 1];
      }
      await classifyMessage(damaged, plain(''));
    }
  }
});

test('inputs built to make pattern matching backtrack stay fast', async () => {
  const head = 'From: MAILER-DAEMON@mx.example\nSubject: Undelivered Mail Returned to Sender\n';
  const report = (finalRecipient: string): string =>
    `${head}Content-Type: multipart/report; report-type=delivery-status; boundary="B"\n\n--B\n` +
    'Content-Type: message/delivery-status\n\n' +
    `Final-Recipient: rfc822; ${finalRecipient}\nAction: failed\n\n--B--\n`;
  for (const raw of [
    report('a'.repeat(60_000)),
    `${head}Content-Type: text/html\n\n${'<'.repeat(60_000)}\n`,
    `${head}Content-Type: text/html\n\n${'<br'.repeat(20_000)}\n`,
    `${head}\n${'x'.repeat(60_000)}\n`,
  ]) {
    const ms = await cpuMs(async () => assert.is((await classifyMessage(Buffer.from(raw), plain(''))).kind, 'bounce'));
    assert.ok(ms < 250, `${ms.toFixed(1)} ms of CPU`);
  }
});

test('a 2 MB bounce is classified from its head', async () => {
  const padding = `${'x'.repeat(76)}\n`.repeat(27_000);
  const raw = Buffer.concat([readFixture('qmail.eml'), Buffer.from(padding)]);
  assert.ok(raw.length > 2_000_000);
  const classified: Classification[] = [];
  const ms = await cpuMs(async () => classified.push(await classifyMessage(raw, plain(''))));
  assert.ok(ms < 1000, `${ms.toFixed(1)} ms of CPU`);
  const result = classified[0]!;
  assert.is(result.kind === 'bounce' && result.emailId, '45c51305-f89f-48a7-8233-ddc47e71a08b');
});

test('a 20 KB report (a DSN quoting a long newsletter) is classified as the bounce it is', async () => {
  const base = readFixture('postfix-dsn-user-unknown.eml').toString('utf8');
  const body = 'Our spring sale starts today, with offers across the whole shop.\n'.repeat(300);
  const raw = Buffer.from(base.replace('Our spring sale starts today.\n', body));
  assert.ok(raw.length >= 20_000);
  // what it costs a message is a figure of `npm run bench classify` (about 3 ms of CPU here): a bound
  // that tight fails beside busy processes, which share the CPU's caches
  const result = await classifyMessage(raw, verp('786e17de-f7ae-407a-bfc8-7db485549fe9'));
  assert.is(result.kind === 'bounce' && result.emailId, '786e17de-f7ae-407a-bfc8-7db485549fe9');
});

test.run();
