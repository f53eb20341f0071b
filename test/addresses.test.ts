import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseEmailAddress } from '../src/addresses/email.js';
import { editDistance, suggestDomain } from '../src/verify/typos.js';

test('parseEmailAddress: ASCII kept as written, Unicode domains in punycode, bad syntax refused', () => {
  assert.equal(parseEmailAddress('Ann.Lee+x@Example.COM'), { local: 'Ann.Lee+x', domain: 'Example.COM', address: 'Ann.Lee+x@Example.COM' });
  assert.is(parseEmailAddress('ann@Bücher.DE')?.address, 'ann@xn--bcher-kva.de');
  assert.is(parseEmailAddress('ann@日本.jp')?.domain, 'xn--wgv71a.jp');
  for (const bad of ['', 'ann', '@x.test', 'ann@', 'ann@x', 'a b@x.test', 'ann@x..test', 'ann@-x.test', 'ann@-bücher.de', 'a@b@c.test', `${'a'.repeat(65)}@x.test`, `a@${'b'.repeat(64)}.test`, '"q"@x.test']) {
    assert.is(parseEmailAddress(bad), null, bad);
  }
});

test('typo suggestions: one or two edits from a common provider; real providers and rare names left alone', () => {
  assert.is(editDistance('gmial.com', 'gmail.com'), 1, 'a swap is one edit');
  assert.is(editDistance('kitten', 'sitting'), 3);
  const cases: [string, string | null][] = [
    ['gmial.com', 'gmail.com'],
    ['gmail.con', 'gmail.com'],
    ['hotmial.com', 'hotmail.com'],
    ['hotnail.con', 'hotmail.com'],
    ['yaho.com', 'yahoo.com'],
    ['outlok.com', 'outlook.com'],
    ['gmail.com', null],
    ['mail.com', null],
    ['ymail.com', null],
    ['aim.com', null],
    ['company.test', null],
    ['me.org', null],
  ];
  for (const [domain, suggestion] of cases) assert.is(suggestDomain(domain), suggestion, domain);
});

test.run();
