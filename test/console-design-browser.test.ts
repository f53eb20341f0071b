// The console's design in Debian's Chromium against the real daemon: the command menu (Ctrl-K: go to
// a page, find a contact and an email, create a campaign), the theme switch (dark by choice, kept
// across a reload; the system's theme when nobody chose; readable nav links, canvas controls and
// code gutter in the dark), the navigation at 390 px behind a Menu button, no page wider than its
// viewport at 390 and 1280 px, and the findings fixed: an Overview of a project without a sender
// domain says so, the only owner cannot remove themself, the invitation link has a copy button.
import type { Browser, Locator, Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openTab, signInAs, startBrowser, type ConsoleTab } from './helpers/browser.js';
import { makeUser, PASSWORD } from './helpers/console-session.js';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';

let env: MailEnv;
let browser: Browser;
const tabs: ConsoleTab[] = [];
const ids: { contact: string; email: string; segment: string; workflow: string; template: string } = { contact: '', email: '', segment: '', workflow: '', template: '' };
let bareProject = '';

test.before(async () => {
  [env, browser] = await Promise.all([startMailEnv({ sinkDomains: ['readers.test'], senders: ['design.test'] }), startBrowser()]);
  const d = env.daemon;
  makeUser(d, 'owner@design.test', { id: d.project.id, role: 'OWNER' });
  const ok = async (method: string, path: string, body?: unknown) => {
    const r = await d.request(method, path, body);
    assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  ids.contact = (await ok('POST', '/contacts', { email: 'zelda.quist@readers.test', data: { plan: 'pro' } })).id;
  ids.email = (await ok('POST', '/v1/send', { to: 'ann@readers.test', from: 'news@design.test', subject: 'Quarterly marmalade report', body: '<p>Hi</p>' })).data.emails[0].email;
  ids.template = (await ok('POST', '/templates', { name: 'Welcome', subject: 'Hi', body: '<p>Hello there</p>', from: 'news@design.test', type: 'MARKETING' })).id;
  ids.segment = (
    await ok('POST', '/segments', {
      name: 'Pro readers with a long name that should wrap',
      condition: { logic: 'OR', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }, { field: 'purchase', operator: 'triggeredWithin', value: 30, unit: 'days' }] }] },
    })
  ).id;
  const workflow = await ok('POST', '/workflows', { name: 'Onboarding', eventName: 'signed-up' });
  ids.workflow = workflow.id;
  const end = await ok('POST', `/workflows/${workflow.id}/steps`, { type: 'EXIT', name: 'Done', position: { x: 0, y: 200 }, config: {} });
  await ok('POST', `/workflows/${workflow.id}/transitions`, { fromStepId: workflow.steps[0].id, toStepId: end.id });
  await env.idle();
  // a project with no sender domain, whose one owner is the only one
  bareProject = d.createProject('bare').id;
  makeUser(d, 'solo@design.test', { id: bareProject, role: 'OWNER' });
});
test.after(async () => {
  await browser?.close();
  await env?.close();
});
test.after.each(async () => {
  for (const tab of tabs.splice(0)) await tab.context.close();
});

async function signedIn(email: string, path: string, options: { width?: number; colorScheme?: 'light' | 'dark' } = {}): Promise<ConsoleTab> {
  const tab = await openTab(browser, `${env.daemon.url}/app${path}`);
  tabs.push(tab);
  await tab.page.setViewportSize({ width: options.width ?? 1280, height: options.width === 390 ? 844 : 900 });
  await tab.page.emulateMedia({ colorScheme: options.colorScheme ?? 'light' });
  await signInAs(tab.page, email, PASSWORD);
  return tab;
}

const h1 = (page: Page, name: string | RegExp) => page.getByRole('heading', { name, level: 1 }).waitFor();
const noProblems = (tab: ConsoleTab) => assert.equal(tab.problems, [], 'the page reported no errors (CSP violations, exceptions)');

/** Every skeleton of the page has given way to what it stood for. */
const loaded = (page: Page) =>
  page.waitForFunction(() => {
    const { document } = globalThis as any;
    return ![...document.querySelectorAll('[role="status"]')].some((e: any) => /^Loading/.test(e.textContent ?? ''));
  }, null, { timeout: 15_000 });

test('the command menu: Ctrl-K goes to a page, finds a contact and an email, creates a campaign; Escape closes it', async () => {
  const tab = await signedIn('owner@design.test', '/overview');
  const { page } = tab;
  await h1(page, 'Overview');
  const menu = page.getByRole('dialog', { name: 'Command menu' });
  const search = menu.getByRole('combobox', { name: 'Go to a page, find a contact or an email' });

  await page.keyboard.press('Control+k');
  await search.fill('domains');
  await menu.getByRole('option', { name: 'Domains', exact: true }).waitFor();
  await page.keyboard.press('Enter');
  await h1(page, 'Domains');
  assert.is(await menu.isVisible(), false, 'choosing closes the menu');

  await page.keyboard.press('Control+k');
  await search.fill('zelda');
  await menu.getByRole('group', { name: 'Contacts' }).getByRole('option', { name: 'zelda.quist@readers.test' }).click();
  await h1(page, 'zelda.quist@readers.test');
  assert.ok(page.url().endsWith(`/contacts/${ids.contact}`));

  await page.keyboard.press('Control+k');
  await search.fill('marmalade');
  const found = menu.getByRole('group', { name: 'Emails' }).getByRole('option', { name: 'Quarterly marmalade report (to ann@readers.test)' });
  await found.waitFor();
  // the arrows move the choice; the search's own options (pages) come first when they match, none does here
  assert.is(await found.getAttribute('aria-selected'), 'true');
  await page.keyboard.press('Enter');
  await h1(page, 'Email to ann@readers.test');
  assert.ok(page.url().endsWith(`/messages/${ids.email}`));

  // the header's button opens it too; arrows choose among the actions (the email's page has just
  // loaded: a click while its route settles may land before the header's handler, so it is repeated)
  await page.getByRole('heading', { name: 'Email to ann@readers.test', level: 1 }).waitFor();
  await eventually(
    async () => (await menu.isVisible()) || (await page.getByRole('button', { name: 'Command menu' }).click(), menu.isVisible()),
    15_000,
    'the command menu opened by its button',
  );
  await search.fill('create');
  await menu.getByRole('option', { name: 'Create a segment' }).waitFor();
  const first = await search.getAttribute('aria-activedescendant');
  await page.keyboard.press('ArrowDown');
  assert.is.not(await search.getAttribute('aria-activedescendant'), first, 'ArrowDown moves the choice');
  await page.keyboard.press('ArrowUp');
  assert.is(await menu.getByRole('option', { name: 'Create a campaign' }).getAttribute('aria-selected'), 'true');
  await page.keyboard.press('Enter');
  await h1(page, 'New campaign');

  // Escape closes it and the focus goes back where it was
  await page.getByRole('button', { name: 'Command menu' }).focus();
  await page.keyboard.press('Control+k');
  await search.waitFor();
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'hidden' });
  assert.is(await page.evaluate('document.activeElement?.getAttribute("aria-label")'), 'Command menu');
  // nothing matches: it says so
  await page.keyboard.press('Control+k');
  await search.fill('no such thing anywhere');
  await menu.getByRole('status').filter({ hasText: 'Nothing matches “no such thing anywhere”.' }).waitFor();
  noProblems(tab);
});

/** WCAG's contrast ratio of an element's text against the first opaque background behind it. */
function contrastOf(element: Locator, property: 'color' | 'background-color' = 'color'): Promise<number> {
  return element.evaluate((el: any, property) => {
    const { getComputedStyle } = globalThis as any;
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r, g, b]: number[]) => {
      const lin = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
    };
    const behind = (from: any): string => {
      for (let e = from; e; e = e.parentElement) {
        const bg = getComputedStyle(e).backgroundColor;
        const parts = rgb(bg);
        if (parts.length === 3 || (parts.length === 4 && parts[3]! > 0.9)) return bg;
      }
      return 'rgb(255, 255, 255)';
    };
    const fg = property === 'color' ? getComputedStyle(el).color : getComputedStyle(el).backgroundColor;
    const bg = property === 'color' ? behind(el) : behind(el.parentElement?.closest('main') ?? null);
    const [a, b] = [luminance(rgb(fg)), luminance(rgb(bg))].sort((x, y) => y - x);
    return (a! + 0.05) / (b! + 0.05);
  }, property);
}

const pageBackground = (page: Page) => page.evaluate('getComputedStyle(document.documentElement).backgroundColor');
const DARK_BACKGROUND = 'rgb(14, 16, 20)';
const LIGHT_BACKGROUND = 'rgb(246, 247, 249)';

test('the theme: the system’s until “Dark theme” is pressed; the choice holds after a reload; dark text stays readable', async () => {
  const tab = await signedIn('owner@design.test', '/overview', { colorScheme: 'light' });
  const { page } = tab;
  await h1(page, 'Overview');
  const dark = page.getByRole('button', { name: 'Dark theme' });
  assert.is(await dark.getAttribute('aria-pressed'), 'false');
  assert.is(await pageBackground(page), LIGHT_BACKGROUND);
  await dark.click();
  assert.is(await dark.getAttribute('aria-pressed'), 'true');
  assert.is(await pageBackground(page), DARK_BACKGROUND);
  await page.reload();
  await h1(page, 'Overview');
  assert.is(await page.getByRole('button', { name: 'Dark theme' }).getAttribute('aria-pressed'), 'true', 'the choice is kept in this browser');
  assert.is(await pageBackground(page), DARK_BACKGROUND);

  // in the dark: the nav links, the canvas's controls and the code editor's line numbers are readable
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const name of ['Contacts', 'Overview']) {
    const ratio = await contrastOf(nav.getByRole('link', { name }));
    assert.ok(ratio >= 4.5, `the nav link ${name}: contrast ${ratio.toFixed(2)}`);
  }
  await page.goto(`${env.daemon.url}/app/workflows/${ids.workflow}`);
  await h1(page, 'Workflow: Onboarding');
  const zoom = page.getByRole('button', { name: 'Zoom In' });
  await zoom.waitFor();
  assert.ok((await contrastOf(zoom, 'background-color')) < 3, 'the canvas controls are no white squares on the dark page');
  assert.ok((await contrastOf(zoom.locator('svg'))) >= 3, 'their icons are seen');
  // an edge is drawn: its SVG has a size (a stylesheet capping svg widths once made it 0, which hides it)
  const edgeSvgWidth = await page.locator('.react-flow__edges svg').first().evaluate((svg: any) => svg.getBoundingClientRect().width as number);
  assert.ok(edgeSvgWidth > 0, `the edges' SVG is ${edgeSvgWidth} px wide`);
  await page.goto(`${env.daemon.url}/app/templates/${ids.template}`);
  await h1(page, 'Template: Welcome');
  const body = page.getByRole('textbox', { name: 'HTML body' });
  await body.getByText('Hello there').waitFor();
  const gutter = await body.evaluate((el: any) => {
    const g = el.closest('.cm-editor')?.querySelector('.cm-gutters');
    return g ? ((globalThis as any).getComputedStyle(g).backgroundColor as string) : null;
  });
  assert.ok(gutter, 'the code editor has a gutter');
  assert.is.not(gutter, 'rgb(245, 245, 245)', 'the gutter is not the light theme’s');
  // the gutter has no role of its own: its first line number, found beside the editor's text
  const lineNumber = body.locator('xpath=ancestor::div[contains(@class, "cm-editor")]//div[contains(@class, "cm-gutterElement")][normalize-space() = "1"]');
  assert.ok((await contrastOf(lineNumber)) >= 4.5, 'the line numbers are readable');

  // pressing again for light, which the system has anyway: the console follows the system again
  await page.getByRole('button', { name: 'Dark theme' }).click();
  assert.is(await pageBackground(page), LIGHT_BACKGROUND);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByRole('button', { name: 'Dark theme', pressed: true }).waitFor();
  assert.is(await pageBackground(page), DARK_BACKGROUND);
  noProblems(tab);
});

test('at 390 px: the navigation sits behind Menu, opens over the page, closes on a choice; the header fits', async () => {
  const tab = await signedIn('owner@design.test', '/overview', { width: 390 });
  const { page } = tab;
  await h1(page, 'Overview');
  const nav = page.getByRole('navigation', { name: 'Main' });
  const menu = page.getByRole('button', { name: 'Menu', exact: true });
  assert.is(await nav.isVisible(), false, 'the navigation is folded away');
  assert.is(await menu.getAttribute('aria-expanded'), 'false');
  for (const control of [menu, page.getByRole('button', { name: 'Command menu' }), page.getByRole('button', { name: 'Dark theme' }), page.getByRole('button', { name: 'Sign out' }), page.getByRole('link', { name: 'owner@design.test' })]) {
    const box = await control.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `${await control.getAttribute('aria-label')} is inside the screen: ${JSON.stringify(box)}`);
  }
  await menu.click();
  assert.is(await menu.getAttribute('aria-expanded'), 'true');
  await nav.getByRole('link', { name: 'Contacts' }).click();
  await h1(page, 'Contacts');
  await nav.waitFor({ state: 'hidden' });
  assert.is(await menu.getAttribute('aria-expanded'), 'false');
  // Escape folds it too
  await menu.click();
  await nav.waitFor();
  await page.keyboard.press('Escape');
  await nav.waitFor({ state: 'hidden' });
  noProblems(tab);
});

test('no page is wider than the screen, at 390 and at 1280 px', async () => {
  const pages: [string, string | RegExp][] = [
    ['/overview', 'Overview'],
    ['/contacts/all', 'Contacts'],
    [`/contacts/${ids.contact}`, 'zelda.quist@readers.test'],
    ['/contacts/import', 'Import contacts'],
    ['/contacts/suppressions', 'Suppressions'],
    ['/messages', 'Messages'],
    [`/messages/${ids.email}`, 'Email to ann@readers.test'],
    ['/templates', 'Templates'],
    ['/campaigns', 'Campaigns'],
    ['/segments', 'Segments'],
    [`/segments/${ids.segment}`, /^Segment: Pro readers/],
    ['/workflows', 'Workflows'],
    ['/domains', 'Domains'],
    ['/settings/keys', 'API keys'],
    ['/settings/members', 'Members'],
    ['/account', 'Your account'],
  ];
  for (const width of [390, 1280]) {
    const tab = await signedIn('owner@design.test', '/overview', { width });
    const { page } = tab;
    await h1(page, 'Overview');
    const wide: string[] = [];
    for (const [path, heading] of pages) {
      await page.goto(`${env.daemon.url}/app${path}`);
      await h1(page, heading);
      await loaded(page);
      const over = await page.evaluate(() => {
        const { document, window } = globalThis as any;
        const by = document.documentElement.scrollWidth - window.innerWidth;
        // what sticks out, to say where to look
        const out = [...document.querySelectorAll('main *')].filter((e: any) => e.getBoundingClientRect().right > window.innerWidth + 1);
        return by > 0 ? `by ${by} px (${out.slice(0, 3).map((e: any) => `${e.tagName.toLowerCase()} “${(e.textContent ?? '').slice(0, 40)}”`).join(', ')})` : null;
      });
      if (over) wide.push(`${path} ${over}`);
    }
    assert.equal(wide, [], `pages wider than ${width} px`);
    noProblems(tab);
  }
});

test('a project without a sender domain: the Overview says so; its only owner cannot remove themself; an invitation link has a copy button', async () => {
  const tab = await signedIn('solo@design.test', '/overview');
  const { page } = tab;
  await h1(page, 'Overview');
  const alerts = page.getByRole('region', { name: 'Needs your attention' });
  await alerts.getByText('This project has no sender domain yet').waitFor();
  assert.is(await alerts.getByText(/domains? verified/).count(), 0, 'no claim that domains are verified');
  await alerts.getByRole('link', { name: 'add one under Domains' }).click();
  await h1(page, 'Domains');

  await page.goto(`${env.daemon.url}/app/settings/members`);
  await h1(page, 'Members');
  const remove = page.getByRole('button', { name: 'Remove solo@design.test' });
  await remove.waitFor();
  assert.ok(await remove.isDisabled(), 'the only owner’s Remove is off');
  assert.ok(await page.getByRole('combobox', { name: 'Role of solo@design.test' }).isDisabled(), 'and so is their role');
  assert.match((await remove.getAttribute('aria-describedby')) ?? '', /only-owner/);

  await page.getByRole('textbox', { name: 'Email' }).fill('helper@design.test');
  await page.getByRole('button', { name: 'Invite' }).click();
  const link = page.getByRole('textbox', { name: 'Invitation link' });
  await link.waitFor();
  await page.getByRole('button', { name: 'Copy invitation link' }).waitFor();
  const box = await link.boundingBox();
  assert.ok(box && box.x + box.width <= 1280, 'the link stays inside its field');
  // a role changed is said at the corner
  await page.getByRole('combobox', { name: 'Role of helper@design.test' }).selectOption('ADMIN');
  await page.getByRole('list', { name: 'Notifications' }).getByText('helper@design.test is now ADMIN').waitFor();
  noProblems(tab);
});

test.run();
