#!/usr/bin/env node
// Every screenshot of docs/console/ (the one way they are made): each page at 1280 and 390 px wide,
// in the light and the dark theme, taken with the browser tests' helpers from real daemons with some data made through the API: one delivering to a loopback MX
// (loopback DNS, SMTP sink with STARTTLS) for the everyday pages, one in capture mode for the
// Outbox, one with two campaigns read and clicked over hours for the campaign analytics, one with a
// workflow that executions went through (and an HTTP receiver for its webhook). After
// `npm run build && npm run build:test`:  node docs/console/screenshots.mjs [everyday|capture|campaigns|workflows]...
// (every group when none is named). `page.png` is 1280 px light, `page-dark.png`, `page-390.png` and
// `page-390-dark.png` the others; a page wider than its viewport is reported.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openTab, signInAs, startBrowser } from '../../.build-test/test/helpers/browser.js';
import { makeUser, PASSWORD } from '../../.build-test/test/helpers/console-session.js';
import { openAndClick } from '../../.build-test/test/helpers/engage.js';
import { publishRecords } from '../../.build-test/test/helpers/domains.js';
import { startHttpReceiver } from '../../.build-test/test/helpers/http-receiver.js';
import { startMailEnv } from '../../.build-test/test/helpers/mail-env.js';

const out = dirname(fileURLToPath(import.meta.url));
const OWNER = 'owner@acme.example';

const WELCOME = `<div style="font-family: sans-serif; max-width: 480px; margin: auto; padding: 24px; border: 1px solid #e5e7eb; border-radius: 8px">
  <h1 style="color: #2457c5; font-size: 22px">Welcome aboard, {{name ?? friend}}!</h1>
  <p style="color: #374151; line-height: 1.5">Your <strong>{{plan ?? Free}}</strong> plan is ready. Start by importing your contacts.</p>
  <p><a href="https://acme.example/start" style="display: inline-block; background: #2457c5; color: white; padding: 10px 16px; border-radius: 4px; text-decoration: none">Get started</a></p>
  <p style="color: #9ca3af; font-size: 12px"><a href="{{unsubscribeUrl}}" style="color: #9ca3af">Unsubscribe</a> · <a href="{{manageUrl}}" style="color: #9ca3af">Preferences</a></p>
</div>`;

/** The widths and themes of each page; 1280 px light last, so the page is left as the script found it. */
const VARIANTS = [
  { width: 390, height: 844, colorScheme: 'light', suffix: '-390' },
  { width: 390, height: 844, colorScheme: 'dark', suffix: '-390-dark' },
  { width: 1280, height: 900, colorScheme: 'dark', suffix: '-dark' },
  { width: 1280, height: 900, colorScheme: 'light', suffix: '' },
];

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
    for (const { width, height, colorScheme, suffix } of VARIANTS) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme });
      // two frames: the layout and the paint of the new width and theme
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (wide > 0) console.warn(`${file} at ${width} px is ${wide} px wider than the viewport`);
      const name = file.replace(/\.png$/, `${suffix}.png`);
      await page.screenshot({ path: join(out, name), fullPage: true });
      console.log(`docs/console/${name}`);
    }
  };
  return { tab, page, shoot };
}

/** The everyday pages, against a daemon that delivers to a loopback MX. */
async function everydayPages(browser) {
  const env = await startMailEnv({ sinkDomains: ['example.org'], senders: ['acme.example'], sink: { tls: true } });
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
    await campaignPages(ok, env.sink, page, shoot, contact);
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
    await env.close();
  }
}

const SPRING = `<h1>Spring is here, {{name ?? friend}}</h1>
<p>Three things are new on your <strong>{{plan ?? Free}}</strong> plan this month:</p>
<ul><li><p>Scheduled exports</p></li><li><p>Shared dashboards</p></li><li><p>A faster search</p></li></ul>
<p><a href="https://acme.example/spring">Read what changed</a></p>
<p><a href="{{unsubscribeUrl}}">Unsubscribe</a></p>`;

/** Campaigns: the list, the composer in both modes with its preview, the send's confirmation, its progress. */
async function campaignPages(ok, sink, page, shoot, contact) {
  const pro = await ok('POST', '/segments', { name: 'Pro customers', condition: { logic: 'AND', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'Pro' }] }] } });
  const content = { subject: 'Spring is here, {{name ?? friend}}', body: SPRING, from: 'hello@acme.example', fromName: 'Acme' };
  const spring = (await ok('POST', '/campaigns', { name: 'Spring news', previewText: 'Three new things on your plan', ...content, audienceType: 'SEGMENT', segmentId: pro.id })).data;
  const autumn = (await ok('POST', '/campaigns', { name: 'Autumn sale', ...content, subject: 'The autumn sale starts now', audienceType: 'ALL' })).data;
  await ok('POST', `/campaigns/${autumn.id}/send`, { scheduledFor: '2099-09-21T08:00:00Z' });
  await ok('POST', '/campaigns', { name: 'Product digest', ...content, subject: 'This month at Acme', audienceType: 'ALL' });

  const counted = () => page.getByRole('status').filter({ hasText: /recipients?/ }).first().waitFor();
  await shoot(`/app/campaigns/${spring.id}`, 'Campaign: Spring news', 'campaign-composer.png', async () => {
    await counted();
    const code = page.getByRole('textbox', { name: 'HTML body' });
    await code.getByText('Spring is here').waitFor();
    // the code editor measures its lines once it is in view: its line numbers line up in the picture
    await code.scrollIntoViewIfNeeded();
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await page.getByLabel('Find a contact').fill('ann');
    await page.getByRole('status').filter({ hasText: '1 found' }).waitFor();
    await page.getByLabel('Preview for').selectOption({ label: contact.email });
    await page.getByTitle('Email preview').contentFrame().getByText('Spring is here, Ann').waitFor();
  });
  await shoot(null, 'Campaign: Spring news', 'campaign-visual.png', async () => {
    await page.getByRole('radio', { name: 'Visual' }).check();
    await page.getByRole('textbox', { name: 'Visual body' }).getByRole('heading', { name: /Spring is here/ }).waitFor();
    await page.getByRole('radio', { name: 'Mobile' }).check();
  });
  await shoot(null, 'Campaign: Spring news', 'campaign-confirm.png', async () => {
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('dialog', { name: 'Send Spring news now?' }).getByRole('button', { name: /^Send to \d+ recipients?$/ }).waitFor();
  });
  // one recipient's server holds its answer: the progress is seen under way
  const release = sink.hold((rcpt) => rcpt === 'cy@example.org');
  await page.getByRole('dialog', { name: 'Send Spring news now?' }).getByRole('button', { name: /^Send to / }).click();
  await shoot(null, 'Campaign: Spring news', 'campaign-progress.png', async () => {
    await page.getByRole('status').filter({ hasText: 'Sending…' }).waitFor();
    await page.getByText(/^2 of 3 emails finished$/).waitFor({ timeout: 30_000 });
  });
  release();
  await page.getByRole('status').filter({ hasText: 'Sent: every email reached its end' }).waitFor({ timeout: 30_000 });
  await shoot('/app/campaigns', 'Campaigns', 'campaigns.png', () => page.getByRole('row', { name: /Spring news SENT/ }).waitFor());
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

/** A campaign's analytics and the comparison: two newsletters to a few domains, read and clicked over the hours after each send. */
async function campaignAnalyticsPages(browser) {
  const domains = ['example.org', 'example.net', 'example.com'];
  const env = await startMailEnv({ sinkDomains: domains, senders: ['acme.example'] });
  try {
    const d = env.daemon;
    const ok = apiOf(d);
    d.cli('project', 'tracking', d.project.id, 'on');
    const deferred = new Set();
    env.sink.onRecipient((rcpt) => {
      if (rcpt.startsWith('gone')) return { code: 550, message: '5.1.1 no such user here' };
      // the first try at example.net is deferred: that domain shows it
      if (rcpt.endsWith('@example.net') && !deferred.has(rcpt)) {
        deferred.add(rcpt);
        return { code: 451, message: '4.7.1 try again later' };
      }
      return null;
    });
    const names = ['ann', 'bob', 'cy', 'dee', 'eve', 'fay', 'gus', 'hal', 'ida', 'jo', 'kim', 'lee', 'max', 'ned', 'oli', 'pat', 'quinn', 'ray', 'sam', 'tia', 'gone'];
    for (const [i, name] of names.entries()) await ok('POST', '/contacts', { email: `${name}@${domains[i % 3]}` });
    const body = `<p>This month: <a href="https://acme.example/blog/spring">the spring collection</a>, <a href="https://acme.example/pricing">new prices</a>
      and <a href="https://acme.example/events">events near you</a>.</p>`;
    const send = async (name) => {
      const campaign = await ok('POST', '/campaigns', { name, subject: `${name}: what is new`, body, from: 'news@acme.example', audienceType: 'ALL', type: 'MARKETING' });
      await ok('POST', `/campaigns/${campaign.data.id}/send`, {});
      await env.idle();
      await env.advance(2 * 60_000);
      await env.idle();
      const emails = (await ok('GET', `/emails?campaignId=${campaign.data.id}&limit=100`)).data.filter((e) => e.status === 'delivered');
      return { id: campaign.data.id, emails };
    };
    /** Over the hours after the send: `readers` of the emails open, some click one of the links. */
    const readOver = async (emails, readers) => {
      for (const [i, email] of emails.slice(0, readers).entries()) {
        if (i % 3 === 0) await env.advance(3600_000);
        await openAndClick(d, email.id, i % 2 === 0 ? i % 3 : null);
      }
    };
    const may = await send('May newsletter');
    await readOver(may.emails, 14);
    const june = await send('June newsletter');
    await readOver(june.emails, 8);
    await env.advance(3600_000);

    const { tab, page, shoot } = await owner(browser, d);
    await signInAs(page, OWNER, PASSWORD);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await shoot(`/app/campaigns/${may.id}/analytics`, 'Analytics: May newsletter', 'campaign-analytics.png', () =>
      page.getByRole('table', { name: 'Results by recipient domain, the most outcomes first' }).waitFor(),
    );
    await shoot(`/app/campaigns/compare?ids=${may.id},${june.id}`, 'Compare campaigns', 'campaigns-compare.png', () =>
      page.getByRole('img', { name: /^Opened so far/ }).waitFor(),
    );
    if (tab.problems.length > 0) throw new Error(`the pages reported: ${tab.problems.join(' | ')}`);
  } finally {
    await env.close();
  }
}

/**
 * The Workflows list and an Onboarding workflow: trigger -> Is Pro? -> yes: Welcome -> Wait an hour
 * -> Tell the CRM (a webhook to a loopback receiver), no: Not Pro. Ann has been through it (the
 * clock moved past the delay), Cy waits in the delay, Bob and Dee left by the no branch.
 */
async function workflowPages(browser) {
  const [env, hooks] = await Promise.all([
    startMailEnv({ sinkDomains: ['example.org'], senders: ['acme.example'], config: { webhooks: { allowPrivate: true } } }),
    startHttpReceiver(),
  ]);
  try {
    const d = env.daemon;
    const ok = apiOf(d);
    for (const [email, plan] of [['ann@example.org', 'Pro'], ['bob@example.org', 'Free'], ['cy@example.org', 'Pro'], ['dee@example.org', 'Team']]) await ok('POST', '/contacts', { email, data: { plan } });
    const welcome = await ok('POST', '/templates', { name: 'Welcome', subject: 'Welcome, {{name ?? friend}}', body: WELCOME, from: 'hello@acme.example', fromName: 'Acme', type: 'MARKETING' });
    const w = await ok('POST', '/workflows', { name: 'Onboarding', description: 'Welcome Pro sign-ups, then tell the CRM', eventName: 'signed-up' });
    const step = async (type, name, position, config) => (await ok('POST', `/workflows/${w.id}/steps`, { type, name, position, config })).id;
    const trigger = w.steps[0].id;
    await ok('PATCH', `/workflows/${w.id}/steps/${trigger}`, { position: { x: 160, y: 0 } });
    const pro = await step('CONDITION', 'Is Pro?', { x: 160, y: 140 }, { field: 'data.plan', operator: 'equals', value: 'Pro' });
    const mail = await step('SEND_EMAIL', 'Welcome', { x: 0, y: 280 }, { templateId: welcome.id });
    const notPro = await step('EXIT', 'Not Pro', { x: 320, y: 280 }, { reason: 'Not on the Pro plan' });
    const wait = await step('DELAY', 'Wait an hour', { x: 0, y: 420 }, { amount: 1, unit: 'hours' });
    const crm = await step('WEBHOOK', 'Tell the CRM', { x: 0, y: 560 }, { url: `${hooks.url}/crm/{{data.plan}}` });
    for (const [fromStepId, toStepId, branch] of [[trigger, pro], [pro, mail, 'yes'], [pro, notPro, 'no'], [mail, wait], [wait, crm]]) {
      await ok('POST', `/workflows/${w.id}/transitions`, { fromStepId, toStepId, ...(branch ? { condition: { branch } } : {}) });
    }
    await ok('PATCH', `/workflows/${w.id}`, { enabled: true });
    await ok('POST', '/events/track', { email: 'ann@example.org', event: 'signed-up' });
    await env.idle();
    await env.advance(3_600_000 + 1000);
    await env.idle();
    for (const email of ['cy@example.org', 'bob@example.org', 'dee@example.org']) await ok('POST', '/events/track', { email, event: 'signed-up' });
    await env.idle();

    const { tab, page, shoot } = await owner(browser, d);
    await signInAs(page, OWNER, PASSWORD);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await shoot('/app/workflows', 'Workflows', 'workflows.png', () => page.getByRole('row', { name: /Onboarding/ }).getByText('1 active · 4 in all').waitFor());
    await shoot(`/app/workflows/${w.id}`, 'Workflow: Onboarding', 'workflow-canvas.png', async () => {
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
    if (tab.problems.length > 0) throw new Error(`the pages reported: ${tab.problems.join(' | ')}`);
  } finally {
    await Promise.all([env.close(), hooks.close()]);
  }
}

const GROUPS = { everyday: everydayPages, capture: capturePages, campaigns: campaignAnalyticsPages, workflows: workflowPages };
const wanted = process.argv.slice(2);
for (const name of wanted) if (!(name in GROUPS)) throw new Error(`no screenshot group ${name}: ${Object.keys(GROUPS).join(', ')}`);

const browser = await startBrowser();
try {
  for (const [name, group] of Object.entries(GROUPS)) if (wanted.length === 0 || wanted.includes(name)) await group(browser);
} finally {
  await browser.close();
}
