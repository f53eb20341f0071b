// Sender health needs a volume to judge: one bounce of four emails is chance, and the domain's
// health says "unknown" (too few to judge) with its figures; at 100 emails in a window the same
// kind of rate reads "critical". A week later only the 30-day window has the volume, and it decides.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startMailEnv, type MailEnv } from './helpers/mail-env.js';

const DAY_MS = 86_400_000;

async function sendTo(env: MailEnv, to: string[]): Promise<void> {
  const r = await env.daemon.request('POST', '/v1/send', { to, from: 'hello@volume.test', subject: 'Hello', body: '<p>Hi</p>' });
  assert.is(r.status, 200, JSON.stringify(r.body));
}

const healthOf = async (env: MailEnv) => {
  const domains = (await env.daemon.request('GET', '/domains')).body.data as { domain: string; health: any }[];
  return domains.find((d) => d.domain === 'volume.test')!.health;
};

test('under 100 emails a window is not judged; at 100 it is, and a quiet week leaves the month to decide', async () => {
  const env = await startMailEnv({ senders: ['volume.test'], sinkDomains: ['rcpt.test'] });
  try {
    env.sink.onRecipient((rcpt) => (rcpt.startsWith('gone') ? { code: 550, message: '5.1.1 No such user' } : null));
    await sendTo(env, ['a@rcpt.test', 'b@rcpt.test', 'c@rcpt.test', 'gone0@rcpt.test']);
    await env.sink.waitFor(3, 8000);
    await env.idle();
    const few = await healthOf(env);
    assert.equal(few.windows[0], { days: 7, sent: 4, bounced: 1, complained: 0, bounceRate: 0.25, complaintRate: 0 });
    assert.is(few.status, 'unknown', 'a bounce of four emails is not a verdict');
    assert.is(few.thresholds.minimumSent, 100);

    // 96 more, 5 of them gone: 6 bounces of 100 is over the 5% limit
    const more = Array.from({ length: 96 }, (_, i) => (i < 5 ? `gone${i + 1}@rcpt.test` : `r${i}@rcpt.test`));
    await sendTo(env, more.slice(0, 48));
    await sendTo(env, more.slice(48));
    await env.sink.waitFor(94, 15_000);
    await env.idle();
    const judged = await healthOf(env);
    assert.equal(judged.windows[0], { days: 7, sent: 100, bounced: 6, complained: 0, bounceRate: 0.06, complaintRate: 0 });
    assert.is(judged.status, 'critical');

    // eight days on: the week has nothing, the month still has the 100 and judges them
    await env.advance(8 * DAY_MS);
    const later = await healthOf(env);
    assert.is(later.windows[0].sent, 0);
    assert.is(later.windows[1].sent, 100);
    assert.is(later.status, 'critical');
    // a few good emails this week do not make the week a verdict of its own
    await sendTo(env, ['fresh@rcpt.test']);
    await env.sink.waitFor(95, 8000);
    await env.idle();
    assert.is((await healthOf(env)).status, 'critical');
  } finally {
    await env.close();
  }
});

test.run();
