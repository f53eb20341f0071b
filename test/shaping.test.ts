// The pure parts of good-citizen sending: the throttling classifier, the provider rules, the
// suspensions' back-off, a fractional rate, the warm-up budget and the sender health figures.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ShiftableClock } from '../src/clock.js';
import { ConfigError } from '../src/config.js';
import { HEALTH_THRESHOLDS, senderHealth } from '../src/domains/health.js';
import { createKeyedLimiter } from '../src/outbound/engine/keyed-limiter.js';
import { Pacer } from '../src/outbound/pacer.js';
import { BUILT_IN_PROVIDERS, providerOf, providerRules } from '../src/outbound/shaping/providers.js';
import { FIRST_SUSPENSION_MS, LONGEST_SUSPENSION_MS, Suspensions } from '../src/outbound/shaping/suspensions.js';
import { isThrottling } from '../src/outbound/shaping/throttling.js';
import { warmupBudget } from '../src/outbound/warmup.js';

test('throttling replies of the large providers are recognised', () => {
  const throttling: [number, string][] = [
    [421, '421 4.7.0 [TSS04] Messages from 192.0.2.1 temporarily deferred due to unexpected volume or user complaints'], // Yahoo
    [421, '421-4.7.28 Gmail has detected an unusual rate of unsolicited mail originating from your IP address'], // Gmail
    [450, '450 4.7.1 Client host rejected: too many connections'],
    [451, '451 4.7.500 Server busy. Please try again later from [192.0.2.1]'], // Microsoft
    [451, '451 4.7.650 The mail server [192.0.2.1] has been temporarily rate limited due to IP reputation'],
    [421, '421 Too many concurrent SMTP connections; please try again later'], // no enhanced code: the words say it
    [421, '421 4.3.2 Rate limit exceeded, try again later'],
    [450, '450 Requested action aborted: rate limited'],
  ];
  for (const [code, reply] of throttling) assert.ok(isThrottling(code, reply), reply);
});

test('other temporary replies are not throttling', () => {
  const other: [number | null, string][] = [
    [null, 'Connection refused'],
    [421, '421 4.3.2 Service not available, closing transmission channel'], // busy or closing, no words of rate
    [450, '450 4.2.1 The user you are trying to contact is receiving mail at a rate that prevents additional messages'], // one recipient
    [451, '451 4.7.1 Greylisting in action, please come back later'],
    [452, '452 4.5.3 Too many recipients'],
    [450, '450 4.1.1 Mailbox temporarily unavailable'],
    [550, '550 5.7.1 Too many complaints, rejected'], // permanent: a bounce, not a pause
    [250, '250 2.0.0 OK'],
  ];
  for (const [code, reply] of other) assert.not.ok(isThrottling(code, reply), reply);
});

test('a provider is found by the suffix of its MX hosts, label by label; the first host any rule names decides', () => {
  const rules = providerRules({});
  const name = (hosts: string[]) => providerOf(rules, hosts)?.name ?? null;
  assert.is(name(['aspmx.l.google.com']), 'google');
  assert.is(name(['ALT1.ASPMX.L.GOOGLE.COM.']), 'google', 'case and the root dot do not matter');
  assert.is(name(['smtp.google.com']), 'google');
  assert.is(name(['gmail-smtp-in.l.google.com']), 'google');
  assert.is(name(['mta7.am0.yahoodns.net']), 'yahoo');
  assert.is(name(['mx-aol.mail.gm0.yahoodns.net']), 'yahoo');
  assert.is(name(['example-com.mail.protection.outlook.com']), 'microsoft');
  assert.is(name(['hotmail-com.olc.protection.outlook.com']), 'microsoft');
  assert.is(name(['mx01.mail.icloud.com']), 'apple');
  assert.is(name(['mx00.emig.gmx.net']), 'gmx');
  assert.is(name(['mx-ha03.web.de']), 'gmx');
  assert.is(name(['mxs.mail.ru']), 'mailru');
  assert.is(name(['mx.yandex.net']), 'yandex');
  assert.is(name(['mail.notgoogle.com']), null, 'a suffix matches whole labels');
  assert.is(name(['google.com.evil.test']), null);
  assert.is(name(['mx.example.test']), null);
  assert.is(name(['mx.example.test', 'aspmx.l.google.com']), 'google', 'a backup MX at a provider names it');
});

test('configured providers change built-in ones field by field, add new ones, and a new one needs its suffixes', () => {
  const rules = providerRules({ google: { perMinute: 60 }, acme: { suffixes: ['MX.Acme.test'], connections: 2 } });
  const google = rules.find((r) => r.name === 'google')!;
  assert.equal(google, { name: 'google', ...BUILT_IN_PROVIDERS.google!, perMinute: 60 });
  assert.equal(providerOf(rules, ['in1.mx.acme.test']), { name: 'acme', suffixes: ['mx.acme.test'], connections: 2, perConnection: 20, perMinute: 0 });
  // the longest matching suffix wins: a provider can carve a part out of another's
  const carved = providerRules({ partner: { suffixes: ['partner.protection.outlook.com'] } });
  assert.is(providerOf(carved, ['x.partner.protection.outlook.com'])?.name, 'partner');
  assert.is(providerOf(carved, ['x.protection.outlook.com'])?.name, 'microsoft');
  assert.throws(() => providerRules({ acme: { connections: 2 } }), (err: Error) => err instanceof ConfigError && /delivery\.providers\.acme/.test(err.message));
});

test('a suspension grows while the provider keeps throttling, is bounded, does not grow from replies under way, and starts over after an answer', () => {
  const clock = new ShiftableClock();
  const s = new Suspensions(clock);
  assert.is(s.until('google'), null);
  const first = s.throttled('google');
  assert.is(first - clock.now(), FIRST_SUSPENSION_MS);
  assert.is(s.throttled('google'), first, 'replies of deliveries under way do not lengthen it');
  assert.is(s.until('google'), first);
  assert.is(s.until('yahoo'), null, 'other providers run');
  clock.advance(FIRST_SUSPENSION_MS);
  assert.is(s.until('google'), null, 'the queue runs again at the end');
  assert.is(s.throttled('google') - clock.now(), 2 * FIRST_SUSPENSION_MS, 'throttled again: twice as long');
  for (let i = 0; i < 10; i++) {
    clock.advance(LONGEST_SUSPENSION_MS);
    assert.ok(s.throttled('google') - clock.now() <= LONGEST_SUSPENSION_MS);
  }
  assert.is(s.until('google')! - clock.now(), LONGEST_SUSPENSION_MS, 'bounded');
  s.served('google');
  assert.is(s.until('google')! - clock.now(), LONGEST_SUSPENSION_MS, 'an answer during the pause (one under way) does not end it');
  clock.advance(LONGEST_SUSPENSION_MS);
  s.served('google');
  assert.is(s.throttled('google') - clock.now(), FIRST_SUSPENSION_MS, 'after an answer the pauses start over');
});

test("a key with a window of its own (a provider's connections) keeps to it; other keys take the default", async () => {
  const limiter = createKeyedLimiter({ initial: 5, limit: 20 }, (key) => (key === 'provider acme' ? { initial: 5, limit: 2 } : undefined));
  const peakOf = async (key: string) => {
    let running = 0;
    let peak = 0;
    const task = async () => {
      peak = Math.max(peak, ++running);
      await new Promise((resolve) => setTimeout(resolve, 2));
      running--;
    };
    await Promise.all(Array.from({ length: 40 }, () => limiter.run(key, task, 0, () => 'served' as const)));
    return peak;
  };
  assert.is(await peakOf('provider acme'), 2, 'the initial window is capped at the limit, and never grows past it');
  assert.ok((await peakOf('example.test')) >= 5);
});

test('a rate under one a second still lets one through, then spaces the next by its interval', () => {
  const clock = new ShiftableClock();
  const perMinute = new Pacer(clock, 2 / 60);
  assert.is(perMinute.take('google'), null);
  const next = perMinute.take('google')!;
  assert.is(next - clock.now(), 30_000);
  assert.is(perMinute.take('yahoo'), null, 'each key has its own');
  clock.advance(30_000);
  assert.is(perMinute.take('google'), null, 'back at its slot it goes');
});

test('the warm-up budget follows the schedule from day 1, then there is none', () => {
  const schedule = [50, 100, 200];
  assert.equal([1, 2, 3, 4, 400].map((day) => warmupBudget(schedule, day)), [50, 100, 200, null, null]);
});

test('sender health: rates over 7 and 30 days, and the worse window decides the status', () => {
  const today = 20_000;
  const clean = senderHealth([{ day: today - 20, metric: 'sent', count: 1000 }, { day: today - 20, metric: 'bounced', count: 5 }, { day: today, metric: 'sent', count: 1000 }], today);
  assert.equal(clean.windows, [
    { days: 7, sent: 1000, bounced: 0, complained: 0, bounceRate: 0, complaintRate: 0 },
    { days: 30, sent: 2000, bounced: 5, complained: 0, bounceRate: 0.0025, complaintRate: 0 },
  ]);
  assert.is(clean.status, 'good');
  assert.equal(clean.thresholds, HEALTH_THRESHOLDS);
  const complaints = (n: number) => senderHealth([{ day: today - 1, metric: 'sent', count: 10_000 }, { day: today - 1, metric: 'complained', count: n }], today).status;
  assert.equal([complaints(5), complaints(10), complaints(29), complaints(30)], ['good', 'warning', 'warning', 'critical'], 'at 0.1% a warning, at 0.3% critical');
  const old = senderHealth([{ day: today - 25, metric: 'sent', count: 100 }, { day: today - 25, metric: 'bounced', count: 10 }], today);
  assert.is(old.status, 'critical', 'a bad month shows though the week was quiet');
  assert.equal(old.windows[0], { days: 7, sent: 0, bounced: 0, complained: 0, bounceRate: null, complaintRate: null });
  assert.is(senderHealth([{ day: today - 31, metric: 'sent', count: 10 }], today).status, 'unknown', 'nothing sent in 30 days');
});

test.run();
