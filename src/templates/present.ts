import { iso } from '../clock.js';
import type { Template } from './store.js';

/** The Template resource as the API answers it: exactly the spec's fields. */
export const presentTemplate = (t: Template) => ({
  id: t.id,
  name: t.name,
  description: t.description,
  subject: t.subject,
  body: t.body,
  from: t.from,
  fromName: t.fromName,
  replyTo: t.replyTo,
  type: t.type,
  projectId: t.projectId,
  createdAt: iso(t.createdAt),
  updatedAt: iso(t.updatedAt),
});
