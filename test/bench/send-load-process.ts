// A /v1/send load generator in a process of its own: argv URL KEY DURATION_MS CONCURRENCY DOMAIN;
// sends its LoadResult back over IPC.
import { NEWSLETTER } from './drain.js';
import { call, closeAgent, load } from './load.js';

const [url, key, durationMs, concurrency, domain] = process.argv.slice(2) as [string, string, string, string, string];
const result = await load(Number(concurrency), Number(durationMs), async (i) => {
  const r = await call(url, 'POST', '/v1/send', key, {
    to: `u${process.pid}x${i}@${domain}`,
    from: 'news@sender.test',
    subject: 'Hello {{name}}',
    body: NEWSLETTER,
    data: { name: `User ${i}` },
  });
  return r.status === 200;
});
closeAgent();
process.send?.(result, () => process.exit(0));
