// A sent campaign as a store holds it a few weeks later, written straight into the store: its
// recipients (contacts), their emails with every outcome (deferrals, deliveries, permanent bounces,
// complaints, first opens and clicks, unsubscribes), and the events of all of it. The outcomes are
// written the way the daemon writes them (an email inserted queued, then updated; events inserted),
// so every trigger of the store runs as it would.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/store/db.js';

const HOUR = 3_600_000;

/** Where the recipients' addresses are: the large providers, then a long tail of small domains. */
const DOMAIN_SQL = `CASE WHEN n % 100 < 40 THEN 'gmail.com' WHEN n % 100 < 55 THEN 'outlook.com' WHEN n % 100 < 65 THEN 'yahoo.com'
  WHEN n % 100 < 70 THEN 'icloud.com' WHEN n % 100 < 73 THEN 'hotmail.com' WHEN n % 100 < 75 THEN 'aol.com'
  ELSE 'corp' || (n % 3000) || '.example' END`;

/** The newsletter's links, the first clicked most. */
export const LINKS = Array.from({ length: 8 }, (_, i) => `https://news.example/story-${i + 1}`);

export interface SeededCampaign {
  id: string;
  sentAt: number;
  events: number;
}

/** The n-th recipient's ids: uuid-shaped and in the order of n. */
const contactId = (n: string) => `printf('00000000-0000-4000-8000-%012d', ${n})`;
const emailId = (n: string) => `printf('00000000-0000-7000-8000-%012d', ${n})`;
/** n of an email row of the seeded campaign. */
const N = 'CAST(substr(id, 25) AS INTEGER)';

/**
 * A SENT campaign of `recipients` emails, sent `ageHours` before `now`, with `events` events in all
 * (the remainder after the outcome events are repeated opens and clicks). Answers its id.
 */
export function seedSentCampaign(db: Db, projectId: string, o: { recipients: number; events: number; now: number; ageHours: number }): SeededCampaign {
  const id = randomUUID();
  const sentAt = o.now - o.ageHours * HOUR;
  const run = (text: string, ...params: unknown[]) => db.prepare(text).run(...params).changes;
  // bound numbers are REALs to SQLite: a divisor is written into the text, so times stay whole milliseconds
  const recipients = Math.trunc(o.recipients);
  run(
    `INSERT INTO campaigns (id, project_id, name, subject, body, from_email, type, status, audience_type, sent_at, send_round, walked,
       total_recipients, search_lc, created_at, updated_at)
     VALUES (?, ?, 'Spring news', 'Spring news', '<p>news</p>', 'editor@news.example', 'MARKETING', 'SENDING', 'ALL', ?, 1, 0, ?, 'spring news', ?, ?)`,
    id,
    projectId,
    sentAt,
    o.recipients,
    sentAt,
    sentAt,
  );
  const numbers = `WITH RECURSIVE k(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM k WHERE n < ? - 1)`;
  run(
    `${numbers} INSERT INTO contacts (id, project_id, email, email_lc, subscribed, data, created_at, updated_at)
     SELECT ${contactId('n')}, ?, 'reader' || n || '@' || ${DOMAIN_SQL}, 'reader' || n || '@' || ${DOMAIN_SQL}, 1, '{}', ?, ? FROM k`,
    o.recipients,
    projectId,
    sentAt - HOUR,
    sentAt - HOUR,
  );
  // the fan-out: 100,000 emails queued within a minute
  run(
    `${numbers} INSERT INTO emails (id, project_id, contact_id, campaign_id, source_type, message_type, to_email, from_email, subject,
       sender_domain, message_id, status, created_at, updated_at)
     SELECT ${emailId('n')}, ?, ${contactId('n')}, ?, 'CAMPAIGN', 'MARKETING', 'reader' || n || '@' || ${DOMAIN_SQL}, 'editor@news.example', 'Spring news',
       'news.example', '<' || ${emailId('n')} || '@mail.news.example>', 'queued', ? + n * 60000 / ${recipients}, ? + n * 60000 / ${recipients}
     FROM k`,
    o.recipients,
    projectId,
    id,
    sentAt,
    sentAt,
  );
  run(`INSERT INTO campaign_recipients (campaign_id, contact_id, email_id) SELECT campaign_id, contact_id, id FROM emails WHERE campaign_id = ?`, id);
  const outcome = (set: string, where: string) => run(`UPDATE emails SET ${set} WHERE campaign_id = ? AND ${where}`, id);
  // 5% deferred once; 97% delivered within the first hour; 3% bounced for good
  outcome(`status = 'deferred', deferrals = 1, updated_at = created_at + 1000`, `${N} % 20 = 0`);
  outcome(`status = 'delivered', delivered_at = created_at + 1000 + (${N} % 3600) * 1000, updated_at = created_at + 1000 + (${N} % 3600) * 1000`, `${N} % 100 >= 3`);
  outcome(`status = 'bounced', bounced_at = created_at + 2000, updated_at = created_at + 2000`, `${N} % 100 < 3`);
  run(`UPDATE campaigns SET status = 'SENT', walked = 1, pending = 0 WHERE id = ?`, id);
  // 40% of the delivered open, most of them soon after delivery (the square of a uniform spread over 14 days)
  const openDelay = `((${N} * 7919) % 10000) * ((${N} * 7919) % 10000) / 100000000.0 * 14 * 24 * ${HOUR}`;
  outcome(`first_opened_at = delivered_at + CAST(${openDelay} AS INTEGER), opens = 1 + ${N} % 5`, `delivered_at IS NOT NULL AND ${N} % 10 < 4`);
  outcome(`first_clicked_at = first_opened_at + (${N} % 600) * 1000, clicks = 1 + ${N} % 3`, `first_opened_at IS NOT NULL AND ${N} % 10 = 0`);
  outcome(`complained_at = delivered_at + (${N} % 48) * ${HOUR}`, `delivered_at IS NOT NULL AND ${N} % 1000 = 7`);
  outcome(`unsubscribed_at = first_opened_at + 60000`, `first_opened_at IS NOT NULL AND ${N} % 200 = 11`);

  const data = (extra: string) =>
    `json_object('subject', e.subject, 'from', e.from_email, 'fromName', '', 'messageId', e.message_id, 'emailId', e.id, 'templateId', NULL, 'campaignId', e.campaign_id, 'sourceType', 'CAMPAIGN'${extra})`;
  const insertEvents = (name: string, dataSql: string, at: string, from: string, ...params: unknown[]) =>
    run(
      `INSERT INTO events (id, project_id, contact_id, email_id, name, data, created_at)
       SELECT lower(hex(randomblob(16))), e.project_id, e.contact_id, e.id, '${name}', ${dataSql}, ${at} ${from}`,
      ...params,
    );
  const events = (name: string, dataSql: string, at: string, where: string) => insertEvents(name, dataSql, `e.${at}`, `FROM emails e WHERE e.campaign_id = ? AND ${where}`, id);
  let written = 0;
  written += events('email.sent', data(''), 'created_at', '1');
  written += events('email.delivery', data(''), 'delivered_at', 'e.delivered_at IS NOT NULL');
  written += events('email.bounce', data(`, 'bounceType', 'Permanent'`), 'bounced_at', 'e.bounced_at IS NOT NULL');
  written += events('email.complaint', data(`, 'feedbackType', 'abuse'`), 'complained_at', 'e.complained_at IS NOT NULL');
  written += events('contact.unsubscribed', `json_object('reason', 'unsubscribe-link')`, 'unsubscribed_at', 'e.unsubscribed_at IS NOT NULL');
  written += events('email.open', data(`, 'opens', 1, 'isFirstOpen', json('true')`), 'first_opened_at', 'e.first_opened_at IS NOT NULL');
  // each clicker's first click, on the story its number picks (story 1 most)
  const pick = (n: string) => `(1 + ((${n} * 31 % 64) * (${n} * 31 % 64)) / 512)`;
  written += events('email.click', data(`, 'link', 'https://news.example/story-' || ${pick(N.replace('id', 'e.id'))}, 'clicks', 1, 'isFirstClick', json('true')`), 'first_clicked_at', 'e.first_clicked_at IS NOT NULL');
  // the rest: repeated opens and clicks (one in five a click, on any story) by recipients who opened
  // (n % 10 < 4 and delivered, n % 100 >= 3) and clicked (n % 10 = 0, delivered)
  const rest = Math.max(0, o.events - written);
  const clicks = Math.floor(rest / 5);
  const tens = `(((k.x * 7919) % ${recipients - 100}) / 10 * 10)`;
  const opener = `(${tens} + CASE WHEN ${tens} % 100 = 0 THEN 10 ELSE 0 END)`;
  const repeats = (name: string, count: number, who: string, dataSql: string, first: string) =>
    insertEvents(
      name,
      dataSql,
      `e.${first} + (k.x % 97) * 600000`,
      `FROM (WITH RECURSIVE k(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM k WHERE x < ? - 1) SELECT x FROM k) k JOIN emails e ON e.id = ${emailId(who)}`,
      count,
    );
  if (clicks > 0) {
    written += repeats('email.click', clicks, opener, data(`, 'link', 'https://news.example/story-' || (1 + k.x % 8), 'clicks', 2, 'isFirstClick', json('false')`), 'first_clicked_at');
  }
  if (rest - clicks > 0) {
    written += repeats('email.open', rest - clicks, `${opener} + k.x % 4`, data(`, 'opens', 2, 'isFirstOpen', json('false')`), 'first_opened_at');
  }
  return { id, sentAt, events: written };
}
