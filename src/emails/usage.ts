import { templateUsages } from '../templates/usage.js';
import { countEmailsOfTemplate } from './store.js';

// Imported for this effect once per process: template usage counts the emails sent from a template.
templateUsages.register((ctx, projectId, templateId) => ({ emailsSent: countEmailsOfTemplate(ctx.db, projectId, templateId) }));
