import { Router } from '@koa/router';
import type { Core } from '../core.js';
import { requireFlat } from '../http/flat-required.js';
import type { Guards } from './guards/guards.js';
import { cursorLimit, decodeCursor, sortParams } from '../http/pagination.js';
import { projectOf, type ApiState } from '../http/state.js';
import { validate } from '../http/validate.js';
import { describe } from '../http/openapi/describe.js';
import { badRequest } from '../errors.js';
import { filterWhere, type ContactFilter } from '../filters/engine.js';
import type { ContactTest } from '../contacts/store.js';
import { contactFilter } from '../segments/filters.js';
import type { ContactData } from '../contacts/data.js';
import { deleteField, fieldValues, listFields, usageOfField } from '../contacts/fields.js';
import { listContacts } from '../contacts/list.js';
import { presentContact } from '../contacts/present.js';
import { deleteContact, getContact, patchContact, upsertContact, type ContactPatch } from '../contacts/service.js';
import { findContactsByEmails } from '../contacts/store.js';
import type { Usages } from '../usage/usages.js';

interface CreateBody {
  email: string;
  subscribed?: boolean;
  data?: ContactData;
}

/** `?where=<FilterCondition JSON>`: 400 unless JSON, 422 (fields under `where`) unless a valid condition. */
function whereParam(core: Core, projectId: string, raw: unknown): ContactFilter | null {
  if (raw === undefined || raw === '') return null;
  if (typeof raw !== 'string') throw badRequest('"where" appears more than once', 'Pass one FilterCondition as JSON');
  let condition: unknown;
  try {
    condition = JSON.parse(raw);
  } catch {
    // the client's syntax error, answered 400 as such
    throw badRequest('"where" is not JSON', 'Pass a FilterCondition as JSON, such as {"logic":"AND","groups":[{"filters":[{"field":"data.plan","operator":"equals","value":"pro"}]}]}');
  }
  return contactFilter(core, projectId, condition, 'where');
}

const booleanQuery = (raw: unknown): boolean | null => (raw === 'true' ? true : raw === 'false' ? false : null);

/** The condition as the SQL test the listing adds to its own (the engine's two shapes: a page seeks, a count scans). */
const whereTest = (filter: ContactFilter | null, now: number): ContactTest | null => (filter ? (shape) => filterWhere(filter, now, shape) : null);

export function contactRoutes(core: Core, usage: Usages, guards: Guards): Router<ApiState> {
  const router = new Router<ApiState>();
  const fieldUsageOf = (projectId: string, key: string) => usage.fields.collect(core, projectId, key);
  const secret = guards.key('secret');
  // A lookup sends its list in a body, but only reads: a disabled project may still run it.
  const secretRead = guards.key('secret', { access: 'read' });

  router.get(
    '/contacts',
    describe({ summary: 'List contacts', query: ['limit', 'cursor', 'search', 'subscribed', 'where', 'sort', 'dir'], answers: { 200: 'ContactPage' } }),
    secret,
    async (ctx) => {
      const { sort, dir } = sortParams(ctx.query, ['email', 'createdAt'] as const, 'createdAt');
      const search = typeof ctx.query.search === 'string' && ctx.query.search !== '' ? ctx.query.search : null;
      const projectId = projectOf(ctx).id;
      const page = await listContacts(core, projectId, {
        limit: cursorLimit(ctx.query.limit),
        cursor: decodeCursor(ctx.query.cursor),
        search,
        subscribed: booleanQuery(ctx.query.subscribed),
        where: whereTest(whereParam(core, projectId, ctx.query.where), core.clock.now()),
        sort,
        dir,
      });
      ctx.body = { ...page, data: page.data.map(presentContact) };
    },
  );

  router.post(
    '/contacts',
    describe({ summary: 'Create or update a contact', body: 'contact-create', answers: { 200: 'ContactUpserted', 201: 'ContactUpserted' } }),
    secret,
    (ctx) => {
      const raw = ctx.state.body;
      requireFlat(raw, ['email']);
      const body = validate<CreateBody>('contact-create', raw);
      const result = upsertContact(core, projectOf(ctx).id, body, true);
      ctx.status = result.isNew ? 201 : 200;
      ctx.body = { ...presentContact(result.contact), _meta: { isNew: result.isNew, isUpdate: !result.isNew } };
    },
  );

  router.post(
    '/contacts/lookup',
    describe({ summary: 'Find contacts by email', body: 'contacts-lookup', answers: { 200: 'ContactLookup' } }),
    secretRead,
    (ctx) => {
      const { emails } = validate<{ emails: string[] }>('contacts-lookup', ctx.state.body);
      const found = findContactsByEmails(core.db, projectOf(ctx).id, emails);
      const known = new Set(found.map((c) => c.email.toLowerCase()));
      ctx.body = {
        found: found.map((c) => ({ id: c.id, email: c.email, subscribed: c.subscribed })),
        notFound: [...new Set(emails.filter((e) => !known.has(e.toLowerCase())))],
      };
    },
  );

  router.get('/contacts/fields', describe({ summary: 'Fields of the contacts', answers: { 200: 'ContactFields' } }), secret, async (ctx) => {
    ctx.body = await listFields(core, projectOf(ctx).id);
  });

  router.get('/contacts/fields/:field/values', describe({ summary: 'Common values', query: ['limit'], answers: { 200: 'FieldValues' } }), secret, async (ctx) => {
    const limit = Math.min(Math.max(Number.parseInt(String(ctx.query.limit ?? '100'), 10) || 100, 1), 1000);
    ctx.body = await fieldValues(core, projectOf(ctx).id, ctx.params.field!, limit);
  });

  router.get('/contacts/fields/:field/usage', describe({ summary: 'Where a field is used', answers: { 200: 'FieldUsage' } }), secret, (ctx) => {
    ctx.body = usageOfField(fieldUsageOf, projectOf(ctx).id, ctx.params.field!);
  });

  router.delete('/contacts/fields/:field', describe({ summary: 'Remove a field from every contact', answers: { 200: 'FieldDeleted' } }), secret, async (ctx) => {
    ctx.body = await deleteField(core, fieldUsageOf, projectOf(ctx).id, ctx.params.field!);
  });

  router.get('/contacts/:id', describe({ summary: 'One contact', answers: { 200: 'Contact' } }), secret, (ctx) => {
    ctx.body = presentContact(getContact(core, projectOf(ctx).id, ctx.params.id!));
  });

  router.patch('/contacts/:id', describe({ summary: 'Change a contact', body: 'contact-patch', answers: { 200: 'Contact' } }), secret, (ctx) => {
    const patch = validate<ContactPatch>('contact-patch', ctx.state.body ?? {});
    ctx.body = presentContact(patchContact(core, projectOf(ctx).id, ctx.params.id!, patch));
  });

  router.delete('/contacts/:id', describe({ summary: 'Delete a contact', answers: { 204: null } }), secret, (ctx) => {
    deleteContact(core, projectOf(ctx).id, ctx.params.id!);
    ctx.status = 204;
  });

  return router;
}
