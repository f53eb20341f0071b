// axe-core on every page of the console, in Debian's Chromium against the real daemon in capture
// mode: the sign-in and setup pages, then each page of the route table (lists and the pages of one
// item, the new-item editors, the Outbox, the account, a page that does not exist) as an OWNER of a
// project with data in every section. In the light and the dark theme, with no serious or critical
// violation, colour contrast included; a failure names the page, the theme and each violation.
import type { Browser, Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { describeViolations, seriousViolations } from './helpers/axe.js';
import { openTab, signInAs, startBrowser, type ConsoleTab } from './helpers/browser.js';
import { makeUser, PASSWORD } from './helpers/console-session.js';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';

type Theme = 'light' | 'dark';

let env: MailEnv;
let browser: Browser;
const tabs: ConsoleTab[] = [];
/** Each page signed in: its path under /app and the name of its heading. */
let pages: [string, string | RegExp][] = [];
const ids = { template: '', workflow: '' };

const ok = async (method: string, path: string, body?: unknown, key?: string) => {
  const r = await env.daemon.request(method, path, body, key ? { key } : undefined);
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

test.before(async () => {
  [env, browser] = await Promise.all([startMailEnv({ config: { delivery: { mode: 'capture' } }, senders: ['axe.test'] }), startBrowser()]);
  const d = env.daemon;
  makeUser(d, 'owner@axe.test', { id: d.project.id, role: 'OWNER' });
  for (const [email, plan] of [['ann@readers.test', 'pro'], ['bob@readers.test', 'free'], ['cy@readers.test', 'pro']]) {
    await ok('POST', '/contacts', { email, data: { name: email.split('@')[0], plan } });
  }
  const contact = (await ok('POST', '/contacts', { email: 'dee@readers.test', data: { plan: 'pro', seats: 3 } })).id as string;
  const template = (await ok('POST', '/templates', { name: 'Welcome', subject: 'Welcome, {{name ?? friend}}', body: '<h1>Welcome</h1><p>Hello {{name ?? friend}}</p>', from: 'news@axe.test', type: 'MARKETING' })).id as string;
  const email = (await ok('POST', '/v1/send', { to: 'ann@readers.test', from: 'news@axe.test', subject: 'Your receipt', body: '<p>Thanks, <a href="https://axe.test/r">see it</a></p>' })).data.emails[0].email as string;
  // a hard bounce from the simulator: a suppression, and a bounced email in the log
  await ok('POST', '/v1/send', { to: 'bounce@simulator.postmill.invalid', from: 'news@axe.test', subject: 'Bounces', body: '<p>x</p>' });
  await eventually(async () => ((await d.request('GET', '/suppressions')).body.data.length > 0 ? true : null), 10_000, 'a suppression');
  const segment = (await ok('POST', '/segments', { name: 'Pro readers', condition: { logic: 'AND', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }] } })).id as string;
  const sent = (await ok('POST', '/campaigns', { name: 'Spring news', subject: 'Spring', body: '<p>Hi {{name}}, <a href="https://axe.test/spring">read</a></p>', from: 'news@axe.test', audienceType: 'SEGMENT', segmentId: segment })).data.id as string;
  await ok('POST', `/campaigns/${sent}/send`, {});
  const draft = (await ok('POST', '/campaigns', { name: 'Summer news', subject: 'Summer', body: '<p>Soon</p>', from: 'news@axe.test', audienceType: 'ALL' })).data.id as string;
  const workflow = await ok('POST', '/workflows', { name: 'Onboarding', eventName: 'signed-up' });
  const step = async (type: string, config: unknown, position: { x: number; y: number }) => (await ok('POST', `/workflows/${workflow.id}/steps`, { type, name: type.toLowerCase(), config, position })).id as string;
  const condition = await step('CONDITION', { field: 'data.plan', operator: 'equals', value: 'pro' }, { x: 0, y: 150 });
  const send = await step('SEND_EMAIL', { templateId: template }, { x: -150, y: 300 });
  const exit = await step('EXIT', { reason: 'not pro' }, { x: 150, y: 300 });
  await ok('POST', `/workflows/${workflow.id}/transitions`, { fromStepId: workflow.steps[0].id, toStepId: condition });
  await ok('POST', `/workflows/${workflow.id}/transitions`, { fromStepId: condition, toStepId: send, condition: { branch: 'yes' } });
  await ok('POST', `/workflows/${workflow.id}/transitions`, { fromStepId: condition, toStepId: exit, condition: { branch: 'no' } });
  await ok('PATCH', `/workflows/${workflow.id}`, { enabled: true });
  await ok('POST', '/v1/track', { email: 'dee@readers.test', event: 'signed-up', data: { plan: 'pro' } }, d.project.publicKey);
  await eventually(async () => ((await d.request('GET', `/campaigns/${sent}`)).body.status === 'SENT' ? true : null), 15_000, 'the campaign sent');
  await env.idle();

  ids.template = template;
  ids.workflow = workflow.id;
  pages = [
    ['/overview', 'Overview'],
    ['/contacts/all', 'Contacts'],
    ['/contacts/import', 'Import contacts'],
    ['/contacts/suppressions', 'Suppressions'],
    [`/contacts/${contact}`, 'dee@readers.test'],
    ['/messages', 'Messages'],
    [`/messages/${email}`, 'Email to ann@readers.test'],
    [`/messages/${email}/source`, /Your receipt/],
    ['/templates', 'Templates'],
    [`/templates/${template}`, 'Template: Welcome'],
    ['/templates/new', 'New template'],
    ['/campaigns', 'Campaigns'],
    ['/campaigns/compare', 'Compare campaigns'],
    [`/campaigns/${sent}`, 'Campaign: Spring news'],
    [`/campaigns/${sent}/analytics`, 'Analytics: Spring news'],
    [`/campaigns/${draft}`, 'Campaign: Summer news'],
    ['/campaigns/new', 'New campaign'],
    ['/segments', 'Segments'],
    [`/segments/${segment}`, 'Segment: Pro readers'],
    ['/segments/new', 'New segment'],
    ['/workflows', 'Workflows'],
    [`/workflows/${workflow.id}`, 'Workflow: Onboarding'],
    ['/domains', 'Domains'],
    ['/settings/keys', 'API keys'],
    ['/settings/webhooks', 'Webhook signing'],
    ['/settings/tracking', 'Tracking'],
    ['/settings/dkim', 'DKIM signing'],
    ['/settings/members', 'Members'],
    ['/outbox', 'Outbox'],
    [`/outbox/${email}`, /Your receipt/],
    ['/account', 'Your account'],
    ['/no-such-page', 'Page not found'],
  ];
});
test.after(async () => {
  await browser?.close();
  await env?.close();
});
test.after.each(async () => {
  const problems = tabs.flatMap((tab) => tab.problems);
  for (const tab of tabs.splice(0)) await tab.context.close();
  // axe is evaluated, not added as a script: the console's CSP has nothing to refuse
  assert.equal(problems, [], 'the pages reported no errors (CSP violations, exceptions)');
});

/** A tab signed in as the OWNER at `path`, in `theme`. */
async function signedIn(path: string, theme: Theme): Promise<Page> {
  const page = await tabAt(`${env.daemon.url}/app${path}`, theme);
  await signInAs(page, 'owner@axe.test', PASSWORD);
  return page;
}

/** A tab at `url` in `theme` (the system's colour scheme, which the console follows). */
async function tabAt(url: string, theme: Theme): Promise<Page> {
  const tab = await openTab(browser, url);
  tabs.push(tab);
  await tab.page.emulateMedia({ colorScheme: theme });
  return tab.page;
}

/** Every skeleton of the page has given way to what it stood for. */
const loaded = (page: Page) =>
  page.waitForFunction(() => {
    const { document } = globalThis as any;
    return ![...document.querySelectorAll('[role="status"]')].some((e: any) => /^Loading/.test(e.textContent ?? ''));
  }, null, { timeout: 15_000 });

/** The page's heading, then its content; answers its violations as lines naming the page and theme. */
async function audit(page: Page, where: string, heading: string | RegExp, theme: Theme): Promise<string[]> {
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  await loaded(page);
  const violations = await seriousViolations(page);
  return violations.length ? [`${where} (${theme}):\n  ${describeViolations(violations).replace(/\n/g, '\n  ')}`] : [];
}

for (const theme of ['light', 'dark'] as const) {
  test(`no serious or critical axe violation on any page, ${theme} theme`, async () => {
    const found: string[] = [];
    const setup = await tabAt(env.daemon.ownerSetupUrl, theme);
    found.push(...(await audit(setup, '/setup', 'Choose your password', theme)));

    const page = await tabAt(`${env.daemon.url}/app/sign-in`, theme);
    found.push(...(await audit(page, '/sign-in', 'Sign in to Postmill', theme)));
    await signInAs(page, 'owner@axe.test', PASSWORD);
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    for (const [path, heading] of pages) {
      await page.goto(`${env.daemon.url}/app${path}`);
      found.push(...(await audit(page, path, heading, theme)));
    }

    // what opens over a page: the command menu with its groups of results, then the navigation at 390 px
    await page.goto(`${env.daemon.url}/app/overview`);
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await page.keyboard.press('Control+k');
    const menu = page.getByRole('dialog', { name: 'Command menu' });
    await menu.getByRole('combobox').fill('re');
    await menu.getByRole('group', { name: 'Contacts' }).getByRole('option').first().waitFor();
    found.push(...(await audit(page, '/overview with the command menu open', 'Overview', theme)));
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    found.push(...(await audit(page, '/overview at 390 px with the navigation open', 'Overview', theme)));

    assert.ok(found.length === 0, `axe found serious or critical violations:\n${found.join('\n')}`);
  });
}

for (const theme of ['light', 'dark'] as const) {
  test(`no serious or critical axe violation in what opens inside a page (builder, step form, dialog), ${theme} theme`, async () => {
    const found: string[] = [];
    const page = await signedIn(`/templates/${ids.template}`, theme);
    await page.getByRole('radio', { name: 'Visual' }).check();
    await page.getByRole('textbox', { name: 'Visual body' }).getByText('Welcome').waitFor();
    await page.getByRole('button', { name: 'Button', exact: true }).click();
    await page.getByRole('group', { name: 'Button block' }).waitFor();
    found.push(...(await audit(page, 'the visual editor with the Button block form', 'Template: Welcome', theme)));

    await page.goto(`${env.daemon.url}/app/workflows/${ids.workflow}`);
    await page.getByRole('group', { name: 'Step condition' }).getByRole('button', { name: 'condition', exact: true }).click();
    await page.getByLabel('Operator').waitFor();
    found.push(...(await audit(page, 'a workflow with a CONDITION step open', 'Workflow: Onboarding', theme)));

    await page.goto(`${env.daemon.url}/app/templates`);
    await page.getByRole('button', { name: 'Delete Welcome' }).click();
    await page.getByRole('dialog', { name: 'Delete Welcome?' }).waitFor();
    found.push(...(await audit(page, 'the templates with a confirmation open', 'Templates', theme)));
    assert.ok(found.length === 0, `axe found serious or critical violations:\n${found.join('\n')}`);
  });
}

test.run();
