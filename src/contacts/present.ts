import { iso } from '../clock.js';
import type { Contact } from './store.js';

/** The Contact resource as the API answers it. */
export const presentContact = (c: Contact) => ({
  id: c.id,
  email: c.email,
  subscribed: c.subscribed,
  data: c.data,
  createdAt: iso(c.createdAt),
  updatedAt: iso(c.updatedAt),
});
