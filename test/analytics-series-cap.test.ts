// A campaign's series is capped in points: a fixed bucket whose series would pass 1000 points is a
// 400 in the envelope naming the way out, and the default widens its daily buckets to stay within
// them (a year of hourly buckets was 8,760 points, compared ten times 87,600).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startMailEnv, type MailEnv } from './helpers/mail-env.js';

const cap = suite('analytics series cap');
let env: MailEnv;
const MAX_POINTS = 1000;
const DAY = 86_400_000;
const key = () => ({ key: env.daemon.project.secretKey });

cap.before(async () => {
  env = await startMailEnv({ senders: ['cap.test'] });
});
cap.after(async () => env.close());

const series = (id: string, bucket: string) => env.daemon.request('GET', `/campaigns/${id}/analytics${bucket ? `?bucket=${bucket}` : ''}`, undefined, key());
const compared = (ids: string[], bucket: string) => env.daemon.request('GET', `/campaigns/compare?ids=${ids.join(',')}${bucket ? `&bucket=${bucket}` : ''}`, undefined, key());

cap('a year after the send: hourly is the 400, daily and the default answer; three years on the default widens its buckets', async () => {
  const d = env.daemon;
  assert.is((await d.request('POST', '/contacts', { email: 'delivered@simulator.postmill.invalid' }, key())).status, 201);
  const created = await d.request('POST', '/campaigns', { name: 'Year', subject: 'Year', body: '<p>Hi</p>', from: 'news@cap.test', audienceType: 'ALL' }, key());
  assert.is(created.status, 201, JSON.stringify(created.body));
  const id = created.body.data.id as string;
  assert.is((await d.request('POST', `/campaigns/${id}/send`, {}, key())).status, 200);
  await env.idle();
  assert.is((await series(id, 'hour')).status, 200);

  await env.advance(365 * DAY);
  const hourly = await series(id, 'hour');
  assert.is(hourly.status, 400, JSON.stringify(hourly.body));
  assert.is(hourly.body.success, false);
  assert.is(hourly.body.error.code, 'BAD_REQUEST');
  assert.ok(Number(/(\d+) points/.exec(hourly.body.error.message)?.[1]) >= 8761, hourly.body.error.message);
  assert.match(hourly.body.error.suggestion, /bucket=day/);
  assert.is((await compared([id, id], 'hour')).status, 400);

  const daily = await series(id, 'day');
  assert.is(daily.status, 200);
  assert.is(daily.body.series.length, 366);
  const auto = await series(id, '');
  assert.is(auto.body.series.length, 48 + 364);
  assert.is(auto.body.series.reduce((sum: number, p: { delivered: number }) => sum + p.delivered, 0), 1);

  for (let year = 0; year < 3; year++) await env.advance(365 * DAY);
  const days = await series(id, 'day');
  assert.is(days.status, 400);
  assert.match(days.body.error.suggestion, /Leave bucket out/);
  const widened = await series(id, '');
  assert.is(widened.status, 200);
  const points = widened.body.series as { at: string; delivered: number }[];
  assert.ok(points.length <= MAX_POINTS && points.length > 48 + 700, `${points.length} points`);
  // hourly for 48 hours, then buckets of two days, the delivery still counted once
  assert.is(Date.parse(points[49]!.at) - Date.parse(points[48]!.at), 2 * DAY);
  assert.is(points.reduce((sum, p) => sum + p.delivered, 0), 1);
  const side = await compared([id], '');
  assert.is(side.status, 200);
  assert.is(side.body.data[0].series.length, points.length);
});

cap.run();
