// Warm-up holds a new domain's bulk mail past the day's budget and spreads it over the next day at
// that day's pace, instead of making all of it due at 00:00 UTC at once: with a budget of 4 on day
// 2, the held emails go one at the day's start and one every 6 hours after, moved by the test clock.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startMailEnv } from './helpers/mail-env.js';
import { queueDirect } from './helpers/queue-direct.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

test('held bulk mail is due across the next day at its budget pace, never all at midnight', async () => {
  const env = await startMailEnv({ senders: ['sender.test'], sinkDomains: ['rcpt.test'], config: { delivery: { warmup: { enabled: true, schedule: [2, 4] } } } });
  try {
    await env.daemon.stop();
    await queueDirect(env, 'bulk', Array.from({ length: 6 }, (_, i) => `bulk${i}@rcpt.test`));
    await env.daemon.restart();
    await env.sink.waitFor(2, 8000);
    await env.idle();
    assert.is(env.sink.messages.length, 2, "day 1's budget");

    // day 2 begins: one held email is due now, not all four
    const now = await env.advance(1);
    await env.advance(Math.ceil(now / DAY_MS) * DAY_MS - now + 1000);
    await env.sink.waitFor(3, 8000);
    await env.idle();
    assert.is(env.sink.messages.length, 3, 'one at the start of day 2');
    for (const delivered of [4, 5, 6]) {
      await env.advance(6 * HOUR_MS - 2000);
      await env.idle();
      assert.is(env.sink.messages.length, delivered - 1, 'not before its time');
      await env.advance(2000);
      await env.sink.waitFor(delivered, 8000);
      await env.idle();
      assert.is(env.sink.messages.length, delivered, `one more ${((delivered - 3) * 6)} hours into day 2`);
    }
    const domain = (await env.daemon.request('GET', '/domains')).body.data.find((d: { domain: string }) => d.domain === 'sender.test');
    assert.equal(domain.warmup, { day: 2, budget: 4, sentToday: 4 });
  } finally {
    await env.close();
  }
});

test.run();
