import { randomUUID } from 'node:crypto';
import type { Ctx } from '../context.js';
import { assertSender } from '../domains/sender.js';
import { ApiError, foundOr404 } from '../errors.js';
import { sendTestMessage } from '../compose/test-send.js';
import { resolveContent } from '../send/content.js';
import { deleteTemplateRow, findTemplateById, insertTemplate, updateTemplate, type Template, type TemplateType } from './store.js';
import type { TemplateUsage } from './usage.js';
import { countEmailsOfTemplate } from '../emails/store.js';
import { readerOf, readFor } from '../store/reader.js';

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

export function createTemplate(ctx: Ctx, projectId: string, input: TemplateInput): Template {
  assertSender(ctx, projectId, input.from);
  const now = ctx.clock.now();
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
  insertTemplate(ctx.db, template);
  return template;
}

export function getTemplate(ctx: Ctx, projectId: string, id: string): Template {
  return foundOr404(findTemplateById(ctx.db, projectId, id), 'Template');
}

/** Applies the given fields; a sender that changes must pass the domain check again. */
export function patchTemplate(ctx: Ctx, projectId: string, id: string, patch: TemplatePatch): Template {
  return ctx.bus.tx(() => {
    const existing = getTemplate(ctx, projectId, id);
    if (patch.from !== undefined && patch.from.toLowerCase() !== existing.from.toLowerCase()) assertSender(ctx, projectId, patch.from);
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
      updatedAt: ctx.clock.now(),
    };
    updateTemplate(ctx.db, template);
    return template;
  });
}

export async function usageOfTemplate(ctx: Ctx, projectId: string, id: string): Promise<TemplateUsage> {
  const references = ctx.usage.templates.collect(ctx, projectId, getTemplate(ctx, projectId, id).id);
  return { ...references, emailsSent: await countEmailsOfTemplate(readerOf(ctx), readFor(ctx.config, projectId, 'request'), id) };
}

/** One test message of the saved template to `email` (see sendTestMessage): the content a `/v1/send` of it would have. */
export async function testTemplate(ctx: Ctx, projectId: string, id: string, email: string): Promise<{ emailId: string; to: string }> {
  const template = getTemplate(ctx, projectId, id);
  return sendTestMessage(ctx, resolveContent(ctx, projectId, { to: email, template: template.id }, []), email);
}

/** Refused while a workflow step would still send it. */
export function deleteTemplate(ctx: Ctx, projectId: string, id: string): void {
  ctx.bus.tx(() => {
    const { workflowSteps } = ctx.usage.templates.collect(ctx, projectId, getTemplate(ctx, projectId, id).id);
    if (workflowSteps.length > 0) {
      throw new ApiError(409, 'CONFLICT', `The template is used by ${workflowSteps.length} workflow step(s)`, {
        details: { workflowSteps },
        suggestion: 'Point those workflow steps at another template, or delete them, first',
      });
    }
    deleteTemplateRow(ctx.db, projectId, id);
  });
}

/** The longest name schema/template-fields.json accepts, in code points as ajv counts them. */
const NAME_MAX_LENGTH = 200;
const COPY_SUFFIX = ' (Copy)';

/** `NAME (Copy)`, with NAME shortened when needed so that the copy's name is as valid as one given on create. */
const copyName = (name: string) => [...name].slice(0, NAME_MAX_LENGTH - COPY_SUFFIX.length).join('') + COPY_SUFFIX;

/** A copy named `NAME (Copy)`, with its own id and timestamps. */
export function duplicateTemplate(ctx: Ctx, projectId: string, id: string): Template {
  return ctx.bus.tx(() => {
    const original = getTemplate(ctx, projectId, id);
    const now = ctx.clock.now();
    const copy: Template = { ...original, id: randomUUID(), name: copyName(original.name), createdAt: now, updatedAt: now };
    insertTemplate(ctx.db, copy);
    return copy;
  });
}
