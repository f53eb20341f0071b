import { iso } from '../clock.js';
import type { EventRecord } from './store.js';

/** The Event resource as the API answers it. */
export const presentEvent = (e: EventRecord) => ({
  id: e.id,
  name: e.name,
  contactId: e.contactId,
  emailId: e.emailId,
  data: e.data,
  createdAt: iso(e.createdAt),
});
