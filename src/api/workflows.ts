import { Router } from '@koa/router';
import { assertDataInput } from '../contacts/data.js';
import { listFields } from '../contacts/fields.js';
import type { Core } from '../core.js';
import type { Dns } from '../dns/resolver.js';
import { badRequest, conflict } from '../errors.js';
import { requireFlat } from '../http/flat-required.js';
import { eventNames } from '../events/store.js';
import type { Guards } from './guards/guards.js';
import { pageParams, pageResult } from '../http/pagination.js';
import { enumQuery } from '../http/params.js';
import { projectOf, type ApiState } from '../http/state.js';
import { describe } from '../http/openapi/describe.js';
import { validate } from '../http/validate.js';
import { findContactByEmail, findContactById } from '../contacts/store.js';
import { cancelAllExecutions, cancelExecution, getExecution, retryExecution, startExecution } from '../workflows/executions.js';
import { EXECUTION_STATUSES, listExecutions, stepCounts, stepRunsOf } from '../workflows/executions-store.js';
import { presentExecution, presentStep, presentTransition, presentWorkflow } from '../workflows/present.js';
import {
  addStep,
  addTransition,
  createWorkflow,
  deleteStep,
  deleteTransition,
  deleteWorkflow,
  getWorkflow,
  patchStep,
  patchWorkflow,
  type StepInput,
  type StepPatch,
  type WorkflowInput,
  type WorkflowPatch,
} from '../workflows/service.js';
import { listWorkflows } from '../workflows/store.js';
import { readFor } from '../store/reader.js';
import type { WebhookConfig } from '../workflows/steps/webhook.js';
import { testWebhook } from '../workflows/webhook-test.js';

export function workflowRoutes(core: Core, dns: Dns, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();
  const secret = guards.key('secret');
  const graph = (ctx: { params: Record<string, string | undefined> } & Parameters<typeof projectOf>[0]) => getWorkflow(core, projectOf(ctx).id, ctx.params.id!);

  router.get('/workflows', describe({ summary: 'List workflows', query: ['page', 'pageSize'], answers: { 200: 'WorkflowPage' } }), secret, (ctx) => {
    const { page, pageSize, offset } = pageParams(ctx.query);
    const found = listWorkflows(core.db, projectOf(ctx).id, { offset, pageSize });
    ctx.body = pageResult(found.data.map((w) => presentWorkflow(getWorkflow(core, w.projectId, w.id))), found.total, page, pageSize);
  });

  router.get('/workflows/fields', describe({ summary: 'Fields and event names CONDITION steps can test', answers: { 200: 'WorkflowFields' } }), secret, async (ctx) => {
    const projectId = projectOf(ctx).id;
    const contact = (await listFields(core, projectId)).fields.map((f) => ({ field: f.field, type: f.type, kind: 'contact' }));
    const events = eventNames(core.db, projectId).map((name) => ({ field: name, type: 'event', kind: 'event' }));
    ctx.body = { fields: [...contact, ...events], count: contact.length + events.length };
  });

  router.post('/workflows', describe({ summary: 'Create a workflow (disabled, with its TRIGGER step)', body: 'workflow-create', answers: { 201: 'Workflow' } }), secret, (ctx) => {
    requireFlat(ctx.state.body, ['name', 'eventName']);
    const input = validate<WorkflowInput>('workflow-create', ctx.state.body);
    ctx.status = 201;
    ctx.body = presentWorkflow(createWorkflow(core, projectOf(ctx).id, input));
  });

  router.get('/workflows/:id', describe({ summary: 'A workflow with its steps and transitions', answers: { 200: 'Workflow' } }), secret, (ctx) => {
    ctx.body = presentWorkflow(graph(ctx));
  });

  router.patch('/workflows/:id', describe({ summary: 'Change metadata, trigger, enabled, allowReentry', body: 'workflow-patch', answers: { 200: 'Workflow' } }), secret, async (ctx) => {
    const patch = validate<WorkflowPatch>('workflow-patch', ctx.state.body ?? {});
    ctx.body = presentWorkflow(await patchWorkflow(core, dns, projectOf(ctx).id, ctx.params.id!, patch));
  });

  router.delete('/workflows/:id', describe({ summary: 'Delete a workflow without active executions', answers: { 204: null } }), secret, (ctx) => {
    deleteWorkflow(core, projectOf(ctx).id, ctx.params.id!);
    ctx.status = 204;
  });

  router.post('/workflows/:id/steps', describe({ summary: 'Add a step', body: 'workflow-step', answers: { 201: 'WorkflowStep' } }), secret, async (ctx) => {
    const input = validate<StepInput>('workflow-step', ctx.state.body);
    const step = await addStep(core, dns, projectOf(ctx).id, ctx.params.id!, input);
    ctx.status = 201;
    ctx.body = presentStep(step);
  });

  router.patch('/workflows/:id/steps/:stepId', describe({ summary: 'Change a step', body: 'workflow-step-patch', answers: { 200: 'WorkflowStep' } }), secret, async (ctx) => {
    const patch = validate<StepPatch>('workflow-step-patch', ctx.state.body ?? {});
    ctx.body = presentStep(await patchStep(core, dns, projectOf(ctx).id, ctx.params.id!, ctx.params.stepId!, patch));
  });

  router.delete('/workflows/:id/steps/:stepId', describe({ summary: 'Delete a step (splice=true reconnects around it)', query: ['splice'], answers: { 204: null } }), secret, (ctx) => {
    deleteStep(core, projectOf(ctx).id, ctx.params.id!, ctx.params.stepId!, ctx.query.splice === 'true');
    ctx.status = 204;
  });

  router.get('/workflows/:id/step-counts', describe({ summary: 'Executions at each step now, and the runs that passed or failed it', answers: { 200: 'WorkflowStepCounts' } }), secret, async (ctx) => {
    const workflow = graph(ctx);
    const counts = await stepCounts(core.db, core.reader, readFor(core.config, workflow.projectId, 'request'), workflow.id);
    ctx.body = { steps: workflow.steps.map((s) => ({ stepId: s.id, ...(counts.get(s.id) ?? { now: 0, passed: 0, failed: 0 }) })) };
  });

  router.post(
    '/workflows/:id/test-webhook',
    describe({
      summary: "Send a WEBHOOK step's config once, as the step would (signed, through the same address checks and bounds); nothing is stored",
      body: 'workflow-webhook-test',
      answers: { 200: 'WebhookTestResult' },
    }),
    secret,
    async (ctx) => {
      const input = validate<{ config: WebhookConfig; contactId?: string }>('workflow-webhook-test', ctx.state.body);
      const workflow = graph(ctx);
      const contact = input.contactId ? findContactById(core.db, workflow.projectId, input.contactId) : null;
      if (input.contactId && !contact) throw badRequest('No such contact in this project', 'Leave contactId out to fill the placeholders for a stand-in with no data');
      ctx.body = await testWebhook(core, dns, workflow, input.config, contact);
    },
  );

  router.post('/workflows/:id/transitions', describe({ summary: 'Connect two steps', body: 'workflow-transition', answers: { 201: 'WorkflowTransition' } }), secret, (ctx) => {
    const input = validate<{ fromStepId: string; toStepId: string; condition?: { branch?: string } | null }>('workflow-transition', ctx.state.body);
    ctx.status = 201;
    ctx.body = presentTransition(addTransition(core, projectOf(ctx).id, ctx.params.id!, input));
  });

  router.delete('/workflows/:id/transitions/:transitionId', describe({ summary: 'Delete a transition', answers: { 204: null } }), secret, (ctx) => {
    deleteTransition(core, projectOf(ctx).id, ctx.params.id!, ctx.params.transitionId!);
    ctx.status = 204;
  });

  router.post('/workflows/:id/executions', describe({ summary: 'Start the workflow for a contact (MANUAL)', body: 'workflow-execution', answers: { 201: 'Execution' } }), secret, (ctx) => {
    const input = validate<{ contactId?: string; email?: string; context?: Record<string, unknown> }>('workflow-execution', ctx.state.body ?? {});
    if (input.context) assertDataInput(input.context, 'context');
    const workflow = graph(ctx);
    if (!input.contactId && !input.email) throw badRequest('contactId or email is required', 'Name the contact the execution is for');
    const contact = input.contactId ? findContactById(core.db, workflow.projectId, input.contactId) : findContactByEmail(core.db, workflow.projectId, input.email!);
    if (!contact) throw badRequest('No such contact in this project', 'Create the contact first');
    const started = startExecution(core, workflow, contact, { trigger: null, context: input.context ?? {} });
    if (typeof started === 'string') {
      throw conflict(started === 'already-active' ? 'The contact is in this workflow already' : 'The contact has been through this workflow (allowReentry is off)', { reason: started });
    }
    ctx.status = 201;
    ctx.body = presentExecution(started);
  });

  router.get('/workflows/:id/executions', describe({ summary: 'List executions', query: ['status', 'page', 'pageSize'], answers: { 200: 'ExecutionPage' } }), secret, async (ctx) => {
    const workflow = graph(ctx);
    const { page, pageSize, offset } = pageParams(ctx.query);
    const found = await listExecutions(core.reader, readFor(core.config, projectOf(ctx).id, 'request'), workflow.id, { status: enumQuery(ctx.query.status, EXECUTION_STATUSES, 'execution status'), offset, pageSize });
    ctx.body = pageResult(found.data.map((e) => presentExecution(e)), found.total, page, pageSize);
  });

  router.post('/workflows/:id/executions/cancel-all', describe({ summary: 'Cancel every active execution', answers: { 200: 'CancelledCount' } }), secret, (ctx) => {
    ctx.body = { cancelled: cancelAllExecutions(core, graph(ctx)) };
  });

  router.get('/workflows/:id/executions/:executionId', describe({ summary: 'An execution with the run of each step', answers: { 200: 'Execution' } }), secret, (ctx) => {
    const execution = getExecution(core, graph(ctx), ctx.params.executionId!);
    ctx.body = presentExecution(execution, stepRunsOf(core.db, execution.id));
  });

  router.post('/workflows/:id/executions/:executionId/retry', describe({ summary: 'Run a failed execution\'s failed step again', answers: { 200: 'Execution' } }), secret, (ctx) => {
    ctx.body = presentExecution(retryExecution(core, graph(ctx), ctx.params.executionId!));
  });

  router.delete('/workflows/:id/executions/:executionId', describe({ summary: 'Cancel a running or waiting execution', answers: { 200: 'Execution' } }), secret, (ctx) => {
    ctx.body = presentExecution(cancelExecution(core, graph(ctx), ctx.params.executionId!));
  });

  return router;
}
