// A template's content rendered for one contact without sending anything: the console's live
// preview. The same rendering as a send (variables, escaping, the text part), on a compose thread.
import { mergeData, type ContactData } from '../contacts/data.js';
import { findContactById, type Contact } from '../contacts/store.js';
import type { Db } from '../store/db.js';
import type { Pools } from '../threads/pool.js';
import { foundOr404 } from '../errors.js';
import type { ComposeOps, RenderedMessage } from '../compose/compose-ops.js';
import type { ContactLinks } from '../compose/links.js';
import { contactScope } from '../compose/scope.js';

export interface PreviewInput {
  subject: string;
  body: string;
  /** The contact whose variables fill the template; without one, a stand-in with no data. */
  contactId?: string;
  /** Values as a send's `data` gives them: over the contact's, never stored. */
  data?: ContactData;
}

/**
 * A preview is no email: its subscription links must not act on the contact, so they are inert
 * addresses under the reserved `.invalid` top-level domain (RFC 2606) that say what they stand for.
 */
export const PREVIEW_LINKS: ContactLinks = {
  unsubscribeUrl: 'https://unsubscribe.preview.invalid/',
  subscribeUrl: 'https://subscribe.preview.invalid/',
  manageUrl: 'https://manage.preview.invalid/',
  unsubscribeMailto: 'unsubscribe@preview.invalid',
};

/** Who the preview is for when no contact is chosen. */
export const PREVIEW_STAND_IN_EMAIL = 'someone@example.com';

/** A contact that is never stored, with no data: whose variables fill a preview or a test made for nobody in particular. */
export const standIn = (projectId: string): Contact => ({
  id: '00000000-0000-4000-8000-000000000000',
  projectId,
  email: PREVIEW_STAND_IN_EMAIL,
  subscribed: true,
  data: {},
  createdAt: 0,
  updatedAt: 0,
});

/** Subject, HTML and text part as a send to that contact would carry them, untracked and with PREVIEW_LINKS. */
export async function previewTemplate(db: Db, threads: Pools<ComposeOps>, projectId: string, input: PreviewInput): Promise<RenderedMessage> {
  const contact = input.contactId ? foundOr404(findContactById(db, projectId, input.contactId), 'Contact') : standIn(projectId);
  // the data rules of a send (reserved keys dropped, null deletes, one-off values), nothing stored
  const { data, oneOff } = mergeData(contact.data, input.data);
  const scope = contactScope({ ...contact, data }, oneOff, PREVIEW_LINKS);
  // a body is at most the request's 1 MB, like a template's: an ordinary compose task
  return threads.compose.run('render', { content: { subject: input.subject, html: input.body }, scope });
}
