// A step's config is checked when it is saved: the schema of its type, then what a schema cannot
// see (the template exists, the filter is one the engine accepts, the delay fits a year, a webhook's
// placeholders stand where their values are encoded and its headers can be sent, an update keeps
// to the contact data limits).
import { assertDataInput, type ContactData } from '../contacts/data.js';
import type { Core } from '../core.js';
import { validationFailed, type FieldError } from '../errors.js';
import { singleFilter } from '../segments/filters.js';
import { schemaErrors } from '../http/validate.js';
import { findTemplateById } from '../templates/store.js';
import { webhookConfigErrors } from '../webhooks/fill.js';
import { DELAY_UNITS, MAX_DELAY_MS, type AddableStepType } from './step-types.js';

const under = (errors: FieldError[]) => errors.map((e) => ({ ...e, field: e.field ? `config.${e.field}` : 'config' }));

/** Throws 422 with `config.*` field errors unless the config suits a step of `type`. */
export function checkStepConfig(core: Core, projectId: string, type: AddableStepType, config: Record<string, unknown>): void {
  const errors = under(schemaErrors(`workflow-step-config#/$defs/${type}`, config));
  if (errors.length > 0) throw validationFailed(errors);
  if (type === 'SEND_EMAIL' && !findTemplateById(core.db, projectId, String(config.templateId))) {
    throw validationFailed([{ field: 'config.templateId', message: 'No template with this id in the project', code: 'invalid_string', received: config.templateId }]);
  }
  if (type === 'DELAY' && Number(config.amount) * DELAY_UNITS[config.unit as keyof typeof DELAY_UNITS] > MAX_DELAY_MS) {
    throw validationFailed([{ field: 'config.amount', message: 'A delay is at most 365 days', code: 'too_big', received: config.amount }]);
  }
  if (type === 'CONDITION') singleFilter(core, projectId, config, 'config');
  if (type === 'WEBHOOK') {
    const webhook = webhookConfigErrors(config as { url: string; headers?: Record<string, string> });
    if (webhook.length > 0) throw validationFailed(webhook);
  }
  if (type === 'UPDATE_CONTACT' && config.updates) assertDataInput(config.updates as ContactData, 'config.updates');
}
