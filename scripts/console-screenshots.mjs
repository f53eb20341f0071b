#!/usr/bin/env node
// Every screenshot of docs/console/ (the one way they are made), taken with the browser tests'
// helpers from real daemons with some data made through the API: one delivering to a loopback MX
// (loopback DNS, SMTP sink with STARTTLS, an HTTP receiver for webhooks) for the everyday pages, one in capture mode for the
// Outbox. After `npm run build && npm run build:test`:  node scripts/console-screenshots.mjs
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openTab, signInAs, startBrowser } from '../.build-test/test/helpers/browser.js';
import { makeUser, PASSWORD } from '../.build-test/test/helpers/console-session.js';
import { openAndClick } from '../.build-test/test/helpers/engage.js';
import { publishRecords } from '../.build-test/test/helpers/domains.js';
import { startHttpReceiver } from '../.build-test/test/helpers/http-receiver.js';
import { startMailEnv } from '../.build-test/test/helpers/mail-env.js';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'console');
const OWNER = 'owner@acme.example';

const WELCOME = `<div style="font-family: sans-serif; max-width: 480px; margin: auto; padding: 24px; border: 1px solid #e5e7eb; border-radius: 8px">
  <h1 style="color: #2457c5; font-size: 22px">Welcome aboard, {{name ?? friend}}!</h1>
  <p style="color: #374151; line-height: 1.5">Your <strong>{{plan ?? Free}}</strong> plan is ready. Start by importing your contacts.</p>
  <p><a href="https://acme.example/start" style="display: inline-block; background: #2457c5; color: white; padding: 10px 16px; border-radius: 4px; text-decoration: none">Get started</a></p>
  <p style="color: #9ca3af; font-size: 12px"><a href="{{unsubscribeUrl}}" style="color: #9ca3af">Unsubscribe</a> · <a href="{{manageUrl}}" style="color: #9ca3af">Preferences</a></p>
</div>`;

/** The API of a daemon with its secret key; a refusal stops the script. */
const apiOf = (d) => async (method, path, body) => {
  const r = await d.request(method, path, body);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

/** A signed-in owner's tab and a function that saves a page once `ready` says it has loaded. */
async function owner(browser, d) {
  makeUser(d, OWNER, { id: d.project.id, role: 'OWNER' });
  const tab = await openTab(browser, `${d.url}/app/sign-in`);
  const { page } = tab;
  await page.setViewportSize({ width: 1280, height: 900 });
  const shoot = async (path, heading, file, ready = async () => {}) => {
    if (path) await page.goto(d.url + path);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    await ready();
    await page.screenshot({ path: join(out, file), fullPage: true });
    console.log(`docs/console/${file}`);
  };
  return { tab, page, shoot };
}

/**
 * A workflow with executions through it: trigger -> Is Pro? -> yes: Welcome -> Wait an hour -> Tell
 * the CRM (a webhook to `hookUrl`), no: Not Pro. Ann has been through it (the clock moved past the
 * delay), Cy waits in the delay, Bob and Dee left by the no branch.
 */
async function onboardingWorkflow(env, ok, templateId, hookUrl) {
  const w = await ok('POST', '/workflows', { name: 'Onboarding', description: 'Welcome Pro sign-ups, then tell the CRM', eventName: 'signed-up' });
  const step = async (type, name, position, config) => (await ok('POST', `/workflows/${w.id}/steps`, { type, name, position, config })).id;
  const trigger = w.steps[0].id;
  await ok('PATCH', `/workflows/${w.id}/steps/${trigger}`, { position: { x: 160, y: 0 } });
  const pro = await step('CONDITION', 'Is Pro?', { x: 160, y: 140 }, { field: 'data.plan', operator: 'equals', value: 'Pro' });
  const welcome = await step('SEND_EMAIL', 'Welcome', { x: 0, y: 280 }, { templateId });
  const notPro = await step('EXIT', 'Not Pro', { x: 320, y: 280 }, { reason: 'Not on the Pro plan' });
  const wait = await step('DELAY', 'Wait an hour', { x: 0, y: 420 }, { amount: 1, unit: 'hours' });
  const crm = await step('WEBHOOK', 'Tell the CRM', { x: 0, y: 560 }, { url: `${hookUrl}/crm/{{data.plan}}` });
  for (const [fromStepId, toStepId, branch] of [[trigger, pro], [pro, welcome, 'yes'], [pro, notPro, 'no'], [welcome, wait], [wait, crm]]) {
    await ok('POST', `/workflows/${w.id}/transitions`, { fromStepId, toStepId, ...(branch ? { condition: { branch } } : {}) });
  }
  await ok('PATCH', `/workflows/${w.id}`, { enabled: true });
  await ok('POST', '/events/track', { email: 'ann@example.org', event: 'signed-up' });
  await env.idle();
  await env.advance(3_600_000 + 1000);
  await env.idle();
  for (const email of ['cy@example.org', 'bob@example.org', 'dee@example.org']) await ok('POST', '/events/track', { email, event: 'signed-up' });
  await env.idle();
  return w;
}

/** The everyday pages, against a daemon that delivers to a loopback MX. */
async function everydayPages(browser) {
  const [env, hooks] = await Promise.all([
    startMailEnv({ sinkDomains: ['example.org'], senders: ['acme.example'], sink: { tls: true }, config: { webhooks: { allowPrivate: true } } }),
    startHttpReceiver(),
  ]);
  try {
    const d = env.daemon;
    const ok = apiOf(d);
    d.cli('project', 'tracking', d.project.id, 'on');
    env.sink.onRecipient((rcpt) => (rcpt.startsWith('gone') ? { code: 550, message: '5.1.1 <gone@example.org>: no such user here' } : null));
    // a second domain, pending, with its records published but for DKIM
    const pending = await ok('POST', '/domains', { domain: 'news.acme.example' });
    publishRecords(env.dns, pending.records.filter((r) => r.purpose !== 'dkim'));
    await ok('GET', `/domains/${pending.id}/verify`);
    const contact = await ok('POST', '/contacts', { email: 'ann@example.org', data: { name: 'Ann', plan: 'Pro' } });
    for (const [email, plan] of [['bob@example.org', 'Free'], ['cy@example.org', 'Pro'], ['dee@example.org', 'Team']]) await ok('POST', '/contacts', { email, data: { plan } });
    const welcome = await ok('POST', '/templates', { name: 'Welcome', description: 'Sent after sign-up', subject: 'Welcome, {{name ?? friend}}', body: WELCOME, from: 'hello@acme.example', fromName: 'Acme', type: 'MARKETING' });
    await ok('POST', '/templates', { name: 'Password reset', subject: 'Reset your password', body: '<p>Reset it here: {{{link}}}</p>', from: 'hello@acme.example', type: 'TRANSACTIONAL' });
    await ok('POST', '/templates', { name: 'Receipt', subject: 'Your receipt {{order}}', body: '<p>Thanks for your order.</p>', from: 'hello@acme.example', type: 'TRANSACTIONAL' });
    // segments: purchases by some contacts; a dynamic segment of two groups, one with a nested condition; a static one
    for (const email of ['bob@example.org', 'cy@example.org', 'dee@example.org']) await ok('POST', '/events/track', { email, event: 'purchase' });
    const buyers = await ok('POST', '/segments', {
      name: 'Pro buyers and teams',
      description: 'Pro plan with a purchase in the last 30 days, or a subscribed Team plan',
      condition: {
        logic: 'OR',
        groups: [
          { filters: [{ field: 'data.plan', operator: 'equals', value: 'Pro' }, { field: 'purchase', operator: 'triggeredWithin', value: 30, unit: 'days' }] },
          { filters: [{ field: 'data.plan', operator: 'equals', value: 'Team' }], conditions: { logic: 'AND', groups: [{ filters: [{ field: 'subscribed', operator: 'equals', value: true }] }] } },
        ],
      },
    });
    const guests = await ok('POST', '/segments', { name: 'Launch guests', description: 'Invited by hand', type: 'STATIC' });
    await ok('POST', `/segments/${guests.id}/members`, { emails: ['ann@example.org', 'cy@example.org', 'dee@example.org'] });
    // mail that delivers, one that is opened and clicked, and two that bounce (suppressed)
    const sent = await ok('POST', '/v1/send', { to: contact.email, template: welcome.id, subscribed: true });
    for (const to of ['bob@example.org', 'cy@example.org', 'gone1@example.org', 'gone2@example.org']) {
      await ok('POST', '/v1/send', { to, from: 'hello@acme.example', subject: 'Your receipt', body: '<p>Thanks for your order.</p>' });
    }
    await env.idle();
    const annEmail = sent.data.emails[0].email;
    await openAndClick(d, annEmail);

    const { tab, page, shoot } = await owner(browser, d);
    await shoot(null, 'Sign in to Postmill', 'sign-in.png');
    await signInAs(page, OWNER, PASSWORD);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await shoot('/app/overview', 'Overview', 'overview.png', () => page.getByRole('img', { name: /Emails per day/ }).waitFor());
    await shoot('/app/contacts/all', 'Contacts', 'contacts.png', () => page.getByRole('link', { name: 'ann@example.org' }).waitFor());
    await shoot(`/app/contacts/${contact.id}`, 'ann@example.org', 'contact.png', () => page.getByRole('region', { name: 'Activity' }).getByText('email.sent').waitFor());
    await shoot('/app/contacts/import', 'Import contacts', 'import.png', async () => {
      const csv = ['email,plan,seats', 'eve@example.org,pro,3', 'not-an-address,free,1', 'fay@example.org,free,2', ''].join('\n');
      await page.getByLabel('CSV file').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await page.getByRole('button', { name: 'Import' }).click();
      await page.getByRole('heading', { name: 'Imported' }).waitFor();
    });
    await shoot('/app/contacts/suppressions', 'Suppressions', 'suppressions.png', () => page.getByRole('row', { name: /gone2@example\.org/ }).waitFor());
    await shoot('/app/messages', 'Messages', 'messages.png', () => page.getByRole('link', { name: 'gone1@example.org' }).waitFor());
    await shoot(`/app/messages/${annEmail}`, 'Email to ann@example.org', 'email.png', () =>
      page.getByRole('list', { name: 'Timeline' }).getByText('Clicked', { exact: true }).waitFor(),
    );
    await shoot('/app/templates', 'Templates', 'templates.png', () => page.getByRole('row', { name: /Welcome/ }).waitFor());
    await shoot(`/app/templates/${welcome.id}`, 'Template: Welcome', 'template-editor.png', async () => {
      await page.getByLabel('Find a contact').fill('ann');
      await page.getByRole('status').filter({ hasText: '1 found' }).waitFor();
      await page.getByLabel('Preview for').selectOption({ label: contact.email });
      await page.getByTitle('Email preview').contentFrame().getByText('Welcome aboard, Ann!').waitFor();
    });
    await shoot('/app/segments', 'Segments', 'segments.png', () => page.getByRole('row', { name: /Launch guests/ }).waitFor());
    await shoot(`/app/segments/${buyers.id}`, `Segment: ${buyers.name}`, 'segment-builder.png', () =>
      page.getByRole('region', { name: 'Members now' }).getByRole('status').filter({ hasText: /match/ }).waitFor(),
    );
    await shoot(`/app/segments/${guests.id}`, 'Segment: Launch guests', 'segment-static.png', () =>
      page.getByRole('region', { name: 'Members', exact: true }).getByRole('status').filter({ hasText: '3 members' }).waitFor(),
    );
    // the workflow's mail and the moved clock come after the pages above
    const onboarding = await onboardingWorkflow(env, ok, welcome.id, hooks.url);
    await shoot('/app/workflows', 'Workflows', 'workflows.png', () => page.getByRole('row', { name: /Onboarding/ }).getByText('1 active · 4 in all').waitFor());
    await shoot(`/app/workflows/${onboarding.id}`, 'Workflow: Onboarding', 'workflow-canvas.png', async () => {
      await page.getByRole('group', { name: 'Step Wait an hour' }).getByText('1 here now · 1 passed').waitFor();
      await page.getByRole('table', { name: /executions/ }).getByRole('link', { name: 'dee@example.org' }).waitFor();
    });
    await shoot(null, 'Workflow: Onboarding', 'workflow-webhook.png', async () => {
      await page.getByRole('group', { name: 'Step Tell the CRM' }).getByRole('button', { name: 'Tell the CRM', exact: true }).click();
      await page.getByRole('button', { name: 'Send test request' }).click();
      await page.getByRole('status').filter({ hasText: 'answered 200' }).waitFor();
    });
    await shoot(null, 'Workflow: Onboarding', 'workflow-executions.png', async () => {
      await page.getByRole('row', { name: /COMPLETED/ }).getByRole('button', { name: 'Timeline' }).click();
      await page.getByRole('region', { name: 'Execution timeline' }).getByRole('listitem').filter({ hasText: 'Tell the CRM' }).waitFor();
    });
    await shoot('/app/domains', 'Domains', 'domains.png', () => page.getByRole('status').filter({ hasText: 'Pending' }).waitFor());
    await shoot('/app/settings/members', 'Members', 'members.png', () => page.getByRole('row', { name: new RegExp(OWNER) }).waitFor());
    await shoot('/app/settings/webhooks', 'Webhook signing', 'settings-webhooks.png');
    await shoot('/app/settings/tracking', 'Tracking', 'settings-tracking.png', () => page.getByRole('checkbox').waitFor());
    // last: the rotation ends the keys the API calls above use
    await shoot('/app/settings/keys', 'API keys', 'settings-keys.png', async () => {
      await page.getByRole('button', { name: 'Rotate keys' }).click();
      await page.getByRole('dialog', { name: 'Rotate both keys?' }).getByRole('button', { name: 'Rotate keys now' }).click();
      await page.getByRole('textbox', { name: 'New secret key' }).waitFor();
    });
    if (tab.problems.length > 0) throw new Error(`the pages reported: ${tab.problems.join(' | ')}`);
  } finally {
    await Promise.all([env.close(), hooks.close()]);
  }
}

/** The Outbox and the capture-mode banner, against a daemon in capture mode. */
async function capturePages(browser) {
  const env = await startMailEnv({ config: { delivery: { mode: 'capture' } } });
  try {
    const d = env.daemon;
    const ok = apiOf(d);
    const domain = await ok('POST', '/domains', { domain: 'acme.example' });
    await ok('POST', `/domains/${domain.id}/mark-verified`);
    await ok('POST', '/contacts', { email: 'ann@example.org', data: { name: 'Ann', plan: 'Pro' } });
    await ok('POST', '/v1/send', { to: 'bounce@simulator.postmill.invalid', from: 'hello@acme.example', subject: 'Bounce me', body: '<p>Bye</p>' });
    const sent = await ok('POST', '/v1/send', { to: 'ann@example.org', from: 'hello@acme.example', name: 'Acme', subject: 'Welcome, Ann', body: WELCOME.replaceAll('{{name ?? friend}}', 'Ann').replaceAll('{{plan ?? Free}}', 'Pro') });
    await env.idle();
    const { tab, page, shoot } = await owner(browser, d);
    await signInAs(page, OWNER, PASSWORD);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await shoot('/app/outbox', 'Outbox', 'outbox.png', () => page.getByRole('link', { name: 'ann@example.org' }).waitFor());
    await shoot(`/app/outbox/${sent.data.emails[0].email}`, 'Welcome, Ann', 'outbox-message.png', async () => {
      await page.getByTitle('Rendered message').contentFrame().getByText('Welcome aboard, Ann!').waitFor();
      await page.getByRole('list', { name: 'DKIM signatures' }).waitFor({ timeout: 30_000 });
    });
    await shoot('/app/domains', 'Domains', 'domains-capture.png', () => page.getByText('Verified without DNS', { exact: true }).waitFor());
    if (tab.problems.length > 0) throw new Error(`the pages reported: ${tab.problems.join(' | ')}`);
  } finally {
    await env.close();
  }
}

const browser = await startBrowser();
try {
  await everydayPages(browser);
  await capturePages(browser);
} finally {
  await browser.close();
}
