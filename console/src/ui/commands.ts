// What the command menu offers for a query: the pages the user's role opens and the actions, matched
// by words; contacts and emails found through the API (the same searches as their pages).
import { api } from '../api';
import type { Contact, ContactPage } from '../pages/ContactsTypes';
import type { Email, EmailPage } from '../pages/Emails';
import type { PageRoute } from '../pages';
import type { IconName } from './icons';

export interface Command {
  id: string;
  label: string;
  /** Where choosing it goes, under /app/. */
  to: string;
  icon: IconName;
}

export interface CommandGroup {
  name: string;
  commands: Command[];
}

const SECTION_ICONS: Record<PageRoute['section'], IconName> = {
  Overview: 'overview',
  Contacts: 'contacts',
  Messages: 'messages',
  Templates: 'templates',
  Campaigns: 'campaigns',
  Segments: 'segments',
  Workflows: 'workflows',
  Domains: 'domains',
  Settings: 'settings',
  Outbox: 'outbox',
};
export const sectionIcon = (section: PageRoute['section']): IconName => SECTION_ICONS[section];

/** A page's name in the menu: its label, after its section's where the two differ ("Settings: API keys"). */
const pageLabel = (p: PageRoute) => (p.label === p.section ? p.label : `${p.section}: ${p.label}`);

export function pageCommands(pages: PageRoute[]): Command[] {
  return [
    ...pages.filter((p) => !p.detail && !p.path.includes(':')).map((p) => ({ id: `page:${p.path}`, label: pageLabel(p), to: `/${p.path}`, icon: sectionIcon(p.section) })),
    { id: 'page:account', label: 'Account', to: '/account', icon: 'user' },
  ];
}

/** Actions that make something: each opens the page that makes it. */
export function actionCommands(pages: PageRoute[]): Command[] {
  const opens = (path: string) => pages.some((p) => p.path === path);
  const actions: [string, Command][] = [
    ['campaigns/:id', { id: 'new:campaign', label: 'Create a campaign', to: '/campaigns/new', icon: 'plus' }],
    ['segments/:id', { id: 'new:segment', label: 'Create a segment', to: '/segments/new', icon: 'plus' }],
    ['contacts/import', { id: 'new:import', label: 'Import contacts', to: '/contacts/import', icon: 'plus' }],
  ];
  return actions.filter(([page]) => opens(page)).map(([, command]) => command);
}

/** Every word of the query appears in the label (any case, any order). */
export function matches(label: string, query: string): boolean {
  const text = label.toLowerCase();
  return query.toLowerCase().split(/\s+/).every((word) => text.includes(word));
}

const FOUND = 5;

export async function findContacts(query: string): Promise<Command[]> {
  const page = await api<ContactPage>('GET', `/contacts?${new URLSearchParams({ search: query, limit: String(FOUND) })}`);
  return page.data.map((c: Contact) => ({ id: `contact:${c.id}`, label: c.email, to: `/contacts/${c.id}`, icon: 'user' }));
}

export async function findEmails(query: string): Promise<Command[]> {
  const page = await api<EmailPage>('GET', `/emails?${new URLSearchParams({ search: query, limit: String(FOUND) })}`);
  return page.data.map((e: Email) => ({ id: `email:${e.id}`, label: `${e.subject} (to ${e.to})`, to: `/messages/${e.id}`, icon: 'mail' }));
}
