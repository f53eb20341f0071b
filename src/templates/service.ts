import { randomUUID } from 'node:crypto';
import type { Core } from '../core.js';
import { assertSender } from '../domains/sender.js';
import { ApiError, foundOr404 } from '../errors.js';
import { deleteTemplateRow, findTemplateById, insertTemplate, updateTemplate, type Template, type TemplateType } from './store.js';
import type { TemplateUsage, Usages } from '../usage/usages.js';
import { countEmailsOfTemplate } from '../emails/store.js';
import { readFor } from '../store/reader.js';

export interface TemplateInput {
  name: string;
  description?: string | null;
  subject: string;
  body: string;
  from: string;
  fromName?: string | null;
  replyTo?: string | null;
  type?: TemplateType;
}

export type TemplatePatch = Partial<TemplateInput>;

export function createTemplate(core: Core, projectId: string, input: TemplateInput): Template {
  assertSender(core, projectId, input.from);
  const now = core.clock.now();
  const template: Template = {
    id: randomUUID(),
    projectId,
    name: input.name,
    description: input.description ?? null,
    subject: input.subject,
    body: input.body,
    from: input.from,
    fromName: input.fromName ?? null,
    replyTo: input.replyTo ?? null,
    type: input.type ?? 'MARKETING',
    createdAt: now,
    updatedAt: now,
  };
  insertTemplate(core.db, template);
  return template;
}

export function getTemplate(core: Core, projectId: string, id: string): Template {
  return foundOr404(findTemplateById(core.db, projectId, id), 'Template');
}

/** Applies the given fields; a sender that changes must pass the domain check again. */
export function patchTemplate(core: Core, projectId: string, id: string, patch: TemplatePatch): Template {
  return core.bus.tx(() => {
    const existing = getTemplate(core, projectId, id);
    if (patch.from !== undefined && patch.from.toLowerCase() !== existing.from.toLowerCase()) assertSender(core, projectId, patch.from);
    const template: Template = {
      ...existing,
      name: patch.name ?? existing.name,
      description: patch.description === undefined ? existing.description : patch.description,
      subject: patch.subject ?? existing.subject,
      body: patch.body ?? existing.body,
      from: patch.from ?? existing.from,
      fromName: patch.fromName === undefined ? existing.fromName : patch.fromName,
      replyTo: patch.replyTo === undefined ? existing.replyTo : patch.replyTo,
      type: patch.type ?? existing.type,
      updatedAt: core.clock.now(),
    };
    updateTemplate(core.db, template);
    return template;
  });
}

export async function usageOfTemplate(core: Core, usage: Usages, projectId: string, id: string): Promise<TemplateUsage> {
  const references = usage.templates.collect(core, projectId, getTemplate(core, projectId, id).id);
  return { ...references, emailsSent: await countEmailsOfTemplate(core.reader, readFor(core.config, projectId, 'request'), id) };
}

/** Refused while a workflow step would still send it. */
export function deleteTemplate(core: Core, usage: Usages, projectId: string, id: string): void {
  core.bus.tx(() => {
    const { workflowSteps } = usage.templates.collect(core, projectId, getTemplate(core, projectId, id).id);
    if (workflowSteps.length > 0) {
      throw new ApiError(409, 'CONFLICT', `The template is used by ${workflowSteps.length} workflow step(s)`, {
        details: { workflowSteps },
        suggestion: 'Point those workflow steps at another template, or delete them, first',
      });
    }
    deleteTemplateRow(core.db, projectId, id);
  });
}

/** The longest name schema/template-fields.json accepts, in code points as ajv counts them. */
const NAME_MAX_LENGTH = 200;
const COPY_SUFFIX = ' (Copy)';

/** `NAME (Copy)`, with NAME shortened when needed so that the copy's name is as valid as one given on create. */
const copyName = (name: string) => [...name].slice(0, NAME_MAX_LENGTH - COPY_SUFFIX.length).join('') + COPY_SUFFIX;

/** A copy named `NAME (Copy)`, with its own id and timestamps. */
export function duplicateTemplate(core: Core, projectId: string, id: string): Template {
  return core.bus.tx(() => {
    const original = getTemplate(core, projectId, id);
    const now = core.clock.now();
    const copy: Template = { ...original, id: randomUUID(), name: copyName(original.name), createdAt: now, updatedAt: now };
    insertTemplate(core.db, copy);
    return copy;
  });
}
