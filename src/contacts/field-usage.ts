import type { FieldUsage } from '../usage/usages.js';

export const isFieldUsed = (u: FieldUsage): boolean => u.segments.length + u.campaigns.length + u.workflows.length > 0;
