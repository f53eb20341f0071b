// The route table: every page of the console with the navigation section it belongs to and the
// least role that opens it (the server's rule for the routes the page calls). The navigation lists
// only the sections that have a page the user's role opens; a page's section is one of the main
// navigation's names (`Section`: tests inside and outside the repository find the links by these
// names, so they do not change) and its link appears as its pages land. The Outbox exists only
// while the daemon captures mail (delivery.mode `capture`).
import type { ReactNode } from 'react';
import type { DeliveryMode, Role } from './api';
import { MembersPage } from './pages/Members';
import { allows } from './roles';
import { lazyPage } from './ui/LazyPage';

export type Section = 'Overview' | 'Contacts' | 'Messages' | 'Templates' | 'Campaigns' | 'Segments' | 'Workflows' | 'Domains' | 'Settings' | 'Outbox';

/** The main navigation's order. */
export const SECTIONS: Section[] = ['Overview', 'Contacts', 'Messages', 'Templates', 'Campaigns', 'Segments', 'Workflows', 'Domains', 'Settings', 'Outbox'];

export interface PageRoute {
  /** Under /app/, without a leading slash. */
  path: string;
  section: Section;
  /** Its name in the section's own navigation, where a section has several pages. */
  label: string;
  role: Role;
  element: ReactNode;
  /** Reached from its section's list (one contact's or template's page): no link of its own in any navigation. */
  detail?: boolean;
  /** Only while the daemon runs in capture mode (the Outbox). */
  captureOnly?: boolean;
}

export const PAGES: PageRoute[] = [
  { path: 'overview', section: 'Overview', label: 'Overview', role: 'MEMBER', element: lazyPage(async () => (await import('./pages/Overview')).OverviewPage) },
  { path: 'contacts/all', section: 'Contacts', label: 'All contacts', role: 'MEMBER', element: lazyPage(async () => (await import('./pages/Contacts')).ContactsPage) },
  { path: 'contacts/import', section: 'Contacts', label: 'Import', role: 'MEMBER', element: lazyPage(async () => (await import('./pages/ContactsImport')).ContactsImportPage) },
  { path: 'contacts/suppressions', section: 'Contacts', label: 'Suppressions', role: 'MEMBER', element: lazyPage(async () => (await import('./pages/Suppressions')).SuppressionsPage) },
  { path: 'contacts/:id', section: 'Contacts', label: 'Contact', role: 'MEMBER', detail: true, element: lazyPage(async () => (await import('./pages/Contact')).ContactPage) },
  { path: 'messages', section: 'Messages', label: 'Messages', role: 'MEMBER', element: lazyPage(() => import('./pages/Messages').then((m) => m.MessagesPage)) },
  { path: 'messages/:id', section: 'Messages', label: 'Email', role: 'MEMBER', detail: true, element: lazyPage(() => import('./pages/Email').then((m) => m.EmailPage)) },
  // the message as sent holds every link of the email (an invitation's among them): ADMIN, as on the server
  { path: 'messages/:id/source', section: 'Messages', label: 'Message source', role: 'ADMIN', detail: true, element: lazyPage(() => import('./pages/MessageSource').then((m) => m.MessageSourcePage)) },
  { path: 'templates', section: 'Templates', label: 'Templates', role: 'MEMBER', element: lazyPage(() => import('./pages/TemplatesList').then((m) => m.TemplatesListPage)) },
  { path: 'templates/:id', section: 'Templates', label: 'Template', role: 'MEMBER', detail: true, element: lazyPage(() => import('./pages/TemplatesEditor').then((m) => m.TemplatesEditorPage)) },
  { path: 'campaigns', section: 'Campaigns', label: 'Campaigns', role: 'MEMBER', element: lazyPage(() => import('./pages/CampaignsList').then((m) => m.CampaignsListPage)) },
  { path: 'campaigns/compare', section: 'Campaigns', label: 'Compare', role: 'MEMBER', element: lazyPage(() => import('./pages/CampaignsCompare').then((m) => m.CampaignsComparePage)) },
  { path: 'campaigns/:id/analytics', section: 'Campaigns', label: 'Campaign analytics', role: 'MEMBER', detail: true, element: lazyPage(() => import('./pages/CampaignAnalytics').then((m) => m.CampaignAnalyticsPage)) },
  { path: 'campaigns/:id', section: 'Campaigns', label: 'Campaign', role: 'MEMBER', detail: true, element: lazyPage(() => import('./pages/CampaignsPage').then((m) => m.CampaignsPage)) },
  { path: 'segments', section: 'Segments', label: 'Segments', role: 'MEMBER', element: lazyPage(() => import('./pages/SegmentsList').then((m) => m.SegmentsListPage)) },
  { path: 'segments/:id', section: 'Segments', label: 'Segment', role: 'MEMBER', detail: true, element: lazyPage(() => import('./pages/SegmentEditor').then((m) => m.SegmentEditorPage)) },
  { path: 'workflows', section: 'Workflows', label: 'Workflows', role: 'MEMBER', element: lazyPage(() => import('./pages/WorkflowsList').then((m) => m.WorkflowsListPage)) },
  // the canvas (React Flow) loads with this page only
  { path: 'workflows/:id', section: 'Workflows', label: 'Workflow', role: 'MEMBER', detail: true, element: lazyPage(() => import('./pages/WorkflowEditor').then((m) => m.WorkflowEditorPage)) },
  { path: 'domains', section: 'Domains', label: 'Domains', role: 'ADMIN', element: lazyPage(() => import('./pages/Domains').then((m) => m.DomainsPage)) },
  { path: 'settings/keys', section: 'Settings', label: 'API keys', role: 'ADMIN', element: lazyPage(() => import('./pages/SettingsKeys').then((m) => m.SettingsKeysPage)) },
  { path: 'settings/webhooks', section: 'Settings', label: 'Webhooks', role: 'ADMIN', element: lazyPage(() => import('./pages/SettingsWebhooks').then((m) => m.SettingsWebhooksPage)) },
  { path: 'settings/tracking', section: 'Settings', label: 'Tracking', role: 'ADMIN', element: lazyPage(() => import('./pages/SettingsTracking').then((m) => m.SettingsTrackingPage)) },
  { path: 'settings/dkim', section: 'Settings', label: 'DKIM signing', role: 'ADMIN', element: lazyPage(() => import('./pages/SettingsDkim').then((m) => m.SettingsDkimPage)) },
  { path: 'settings/members', section: 'Settings', label: 'Members', role: 'OWNER', element: <MembersPage /> },
  { path: 'outbox', section: 'Outbox', label: 'Outbox', role: 'ADMIN', captureOnly: true, element: lazyPage(() => import('./pages/Outbox').then((m) => m.OutboxPage)) },
  { path: 'outbox/:id', section: 'Outbox', label: 'Captured message', role: 'ADMIN', captureOnly: true, detail: true, element: lazyPage(() => import('./pages/MessageSource').then((m) => m.OutboxMessagePage)) },
];

/** Whether the page exists on this daemon at all (the Outbox only in capture mode). */
export const pageExists = (page: PageRoute, mode: DeliveryMode): boolean => !page.captureOnly || mode === 'capture';

export const pagesOpenTo = (role: Role | undefined, mode: DeliveryMode): PageRoute[] => PAGES.filter((p) => allows(role, p.role) && pageExists(p, mode));

/** The main navigation for a role: each section with its first page the role opens. */
export function navigationFor(role: Role | undefined, mode: DeliveryMode): { section: Section; path: string }[] {
  const open = pagesOpenTo(role, mode).filter((p) => !p.detail);
  return SECTIONS.flatMap((section) => {
    const first = open.find((p) => p.section === section);
    return first ? [{ section, path: first.path }] : [];
  });
}
