#!/usr/bin/env node
// Screenshots of the console's Domains, Templates, Segments and Settings pages into docs/console/, taken from
// a real daemon (loopback DNS and SMTP sink, some data made through the API) with the browser
// tests' helpers. After `npm run build && npm run build:test`:  node scripts/console-screenshots.mjs
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openTab, signInAs, startBrowser } from '../.build-test/test/helpers/browser.js';
import { makeUser, PASSWORD } from '../.build-test/test/helpers/console-session.js';
import { publishRecords } from '../.build-test/test/helpers/domains.js';
import { startMailEnv } from '../.build-test/test/helpers/mail-env.js';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'console');
const env = await startMailEnv({ sinkDomains: ['example.org'], senders: ['acme.example'] });
const browser = await startBrowser();
try {
  const d = env.daemon;
  const ok = async (method, path, body) => {
    const r = await d.request(method, path, body);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  makeUser(d, 'owner@acme.example', { id: d.project.id, role: 'OWNER' });
  // a second domain, pending, with its records published but for DMARC
  const pending = await ok('POST', '/domains', { domain: 'news.acme.example' });
  publishRecords(env.dns, pending.records.filter((r) => r.purpose !== 'dkim'));
  await ok('GET', `/domains/${pending.id}/verify`);
  const contact = await ok('POST', '/contacts', { email: 'ann@example.org', data: { name: 'Ann', plan: 'Pro' } });
  const body = `<div style="font-family: sans-serif; max-width: 480px; margin: auto; padding: 24px; border: 1px solid #e5e7eb; border-radius: 8px">
  <h1 style="color: #2457c5; font-size: 22px">Welcome aboard, {{name ?? friend}}!</h1>
  <p style="color: #374151; line-height: 1.5">Your <strong>{{plan ?? Free}}</strong> plan is ready. Start by importing your contacts.</p>
  <p><a href="https://acme.example/start" style="display: inline-block; background: #2457c5; color: white; padding: 10px 16px; border-radius: 4px; text-decoration: none">Get started</a></p>
  <p style="color: #9ca3af; font-size: 12px"><a href="{{unsubscribeUrl}}" style="color: #9ca3af">Unsubscribe</a> · <a href="{{manageUrl}}" style="color: #9ca3af">Preferences</a></p>
</div>`;
  const welcome = await ok('POST', '/templates', { name: 'Welcome', description: 'Sent after sign-up', subject: 'Welcome, {{name ?? friend}}', body, from: 'hello@acme.example', fromName: 'Acme', type: 'MARKETING' });
  await ok('POST', '/templates', { name: 'Password reset', subject: 'Reset your password', body: '<p>Reset it here: {{{link}}}</p>', from: 'hello@acme.example', type: 'TRANSACTIONAL' });
  await ok('POST', '/templates', { name: 'Receipt', subject: 'Your receipt {{order}}', body: '<p>Thanks for your order.</p>', from: 'hello@acme.example', type: 'TRANSACTIONAL' });
  // segments: contacts with a plan, seats and purchases; a dynamic segment of two groups, one nested; a static one
  for (const [email, plan, seats, bought] of [
    ['bo@example.org', 'Free', 1, true],
    ['cy@example.org', 'Pro', 12, false],
    ['dee@example.org', 'Pro', 3, true],
    ['eve@example.org', 'Team', 25, true],
    ['fay@example.org', 'Team', 40, false],
  ]) {
    await ok('POST', '/contacts', { email, data: { plan, seats } });
    if (bought) await ok('POST', '/events/track', { email, event: 'purchase' });
  }
  await ok('POST', '/events/track', { email: contact.email, event: 'purchase' });
  const proBuyers = await ok('POST', '/segments', {
    name: 'Pro buyers and big teams',
    description: 'Pro plan with a purchase in the last 30 days, or 20 seats and more',
    condition: {
      logic: 'OR',
      groups: [
        { filters: [{ field: 'data.plan', operator: 'equals', value: 'Pro' }, { field: 'purchase', operator: 'triggeredWithin', value: 30, unit: 'days' }] },
        { filters: [{ field: 'data.seats', operator: 'greaterThanOrEqual', value: 20 }], conditions: { logic: 'AND', groups: [{ filters: [{ field: 'subscribed', operator: 'equals', value: true }] }] } },
      ],
    },
  });
  const guests = await ok('POST', '/segments', { name: 'Launch guests', description: 'Invited by hand', type: 'STATIC' });
  await ok('POST', `/segments/${guests.id}/members`, { emails: ['ann@example.org', 'cy@example.org', 'eve@example.org'] });

  const tab = await openTab(browser, `${d.url}/app/`);
  const { page } = tab;
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAs(page, 'owner@acme.example', PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  const shoot = async (path, heading, file, prepare = async () => {}) => {
    await page.goto(d.url + path);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    await prepare();
    await page.screenshot({ path: join(out, file), fullPage: true });
    console.log(`docs/console/${file}`);
  };
  await shoot('/app/domains', 'Domains', 'domains.png', () => page.getByRole('status').filter({ hasText: 'Pending' }).waitFor());
  await shoot('/app/templates', 'Templates', 'templates.png', () => page.getByRole('row', { name: /Welcome/ }).waitFor());
  await shoot(`/app/templates/${welcome.id}`, 'Template: Welcome', 'template-editor.png', async () => {
    await page.getByLabel('Find a contact').fill('ann');
    await page.getByRole('status').filter({ hasText: '1 found' }).waitFor();
    await page.getByLabel('Preview for').selectOption({ label: contact.email });
    await page.frameLocator('iframe[title="Email preview"]').getByText('Welcome aboard, Ann!').waitFor();
  });
  await shoot('/app/segments', 'Segments', 'segments.png', () => page.getByRole('row', { name: /Launch guests/ }).waitFor());
  await shoot(`/app/segments/${proBuyers.id}`, `Segment: ${proBuyers.name}`, 'segment-builder.png', () =>
    page.getByRole('region', { name: 'Members now' }).getByRole('status').filter({ hasText: /match/ }).waitFor(),
  );
  await shoot(`/app/segments/${guests.id}`, 'Segment: Launch guests', 'segment-static.png', () =>
    page.getByRole('region', { name: 'Members', exact: true }).getByRole('status').filter({ hasText: '3 members' }).waitFor(),
  );
  await shoot('/app/settings/keys', 'API keys', 'settings-keys.png', async () => {
    await page.getByRole('button', { name: 'Rotate keys' }).click();
    await page.getByRole('dialog', { name: 'Rotate both keys?' }).getByRole('button', { name: 'Rotate keys now' }).click();
    await page.getByRole('textbox', { name: 'New secret key' }).waitFor();
  });
  await shoot('/app/settings/webhooks', 'Webhook signing', 'settings-webhooks.png');
  await shoot('/app/settings/tracking', 'Tracking', 'settings-tracking.png', () => page.getByRole('checkbox').waitFor());
  if (tab.problems.length > 0) throw new Error(`the pages reported: ${tab.problems.join(' | ')}`);
} finally {
  await browser.close();
  await env.close();
}
