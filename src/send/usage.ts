import type { Usages } from '../usage/usages.js';
import { countEmailsOfTemplate } from '../emails/store.js';

/** Template usage counts the emails sent from a template. */
export function emailUsage(usages: Usages): void {
  usages.templates.register((ctx, projectId, templateId) => ({ emailsSent: countEmailsOfTemplate(ctx.db, projectId, templateId) }));
}
