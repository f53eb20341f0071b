// The OpenAPI 3.1 document of the routes as mounted: each route's description sits beside it
// (describe.ts), request bodies are the very schemas that validate them (schema/), answers the
// response schemas of schema/responses/.
import type { Router } from '@koa/router';
import { STATUS_CODES } from 'node:http';
import { schemasOfRequests } from '../validate.js';
import type { ApiState } from '../state.js';
import { listAssets, readAsset } from '../../runtime/assets.js';
import { postmillVersion } from '../../runtime/version.js';
import { docOf, guardOf, type AnswerDoc, type KeyGuard, type RouteDoc, type UploadDoc } from './describe.js';

type Json = Record<string, unknown>;

/** One route of a router: a method on a path, with what sits beside it. */
export interface MountedRoute {
  method: string;
  /** The router's path (`/contacts/:id`). */
  path: string;
  params: string[];
  doc: RouteDoc | undefined;
  guard: KeyGuard | undefined;
}

/** Every route of the routers (HEAD, which koa-router adds to each GET, left out). */
export function mountedRoutes(routers: Router<ApiState>[]): MountedRoute[] {
  return routers.flatMap((router) =>
    router.stack.flatMap((layer) =>
      layer.methods
        .filter((method) => method !== 'HEAD')
        .map((method) => ({
          method,
          path: String(layer.path),
          params: layer.paramNames.map((p) => String(p.name)),
          doc: layer.stack.map(docOf).find((d) => d !== undefined),
          guard: layer.stack.map(guardOf).find((g) => g !== undefined),
        })),
    ),
  );
}

/** `/contacts/:id` -> `/contacts/{id}`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A schema placed in components: `$id`s dropped, references made pointers into the document. */
function placed(node: unknown, ownId: string): unknown {
  if (Array.isArray(node)) return node.map((n) => placed(n, ownId));
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$id') continue;
    if (key === '$ref' && typeof value === 'string') {
      const [base, fragment = ''] = value.split('#');
      out.$ref = `#/components/schemas/${base || ownId}${fragment}`;
    } else out[key] = placed(value, ownId);
  }
  return out;
}

/** The response schemas of schema/responses/*.json by `$id` (PascalCase, apart from the kebab-case request schemas). */
function responseSchemas(): Map<string, Json> {
  const dir = 'schema/responses';
  const schemas = listAssets(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readAsset(`${dir}/${f}`)) as Json);
  return new Map(schemas.map((s) => [String(s.$id), s]));
}

/**
 * What a route takes. A secret route also takes a console session, whose requirement lists the least
 * role its user needs (OpenAPI 3.1 lets a requirement of any scheme type list role names).
 */
function security(route: MountedRoute): Json[] {
  const guard = route.guard;
  if (!guard) return route.doc?.auth === 'admin' ? [{ adminToken: [] }] : [];
  if (guard.kind === 'public') return [{ publicKey: [] }];
  if (guard.kind === 'session') return [{ session: [] }];
  return [...(guard.adminToken ? [{ adminToken: [] }] : []), { secretKey: [] }, { session: [guard.role] }];
}

const ERROR_ANSWER = {
  description: 'The error envelope; a few create routes answer a missing required field with the flat {error}',
  content: { 'application/json': { schema: { anyOf: [ref('Error'), ref('FlatError')] } } },
};

function answer(status: string, doc: AnswerDoc): Json {
  const description = STATUS_CODES[Number(status)] ?? 'Success';
  if (doc === null) return { description };
  if (typeof doc === 'string') return { description, content: { 'application/json': { schema: ref(doc) } } };
  return { description, content: { [doc.type]: {} } };
}

function requestBody(body: string | UploadDoc): Json {
  if (typeof body === 'string') return { required: true, content: { 'application/json': { schema: ref(body) } } };
  const file = { type: 'string', contentMediaType: body.mediaType, description: body.description };
  return {
    required: true,
    content: { 'multipart/form-data': { schema: { type: 'object', required: [body.field], properties: { [body.field]: file } } } },
  };
}

function operation(route: MountedRoute): Json {
  const doc = route.doc!;
  const tag = route.path.split('/').filter((s) => s && s !== 'v1' && !s.startsWith(':'))[0] ?? 'system';
  const parameters: Json[] = [
    ...route.params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
    ...(doc.query ?? []).map((name) => ({ name, in: 'query', required: false, schema: { type: 'string' } })),
  ];
  if (route.guard?.idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: '1-255 printable ASCII characters; the request runs once per project and key within 24 hours',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  const answers = doc.answers
    ? Object.entries(doc.answers).map(([status, a]) => [status, answer(status, a)])
    : [['2XX', { description: 'Success', content: { 'application/json': {} } }]];
  return {
    operationId: (route.method.toLowerCase() + route.path).replace(/[^a-zA-Z0-9]+(.)?/g, (_, c?: string) => (c ? c.toUpperCase() : '')),
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    tags: [tag],
    security: security(route),
    ...(route.guard?.role ? { 'x-postmill-role': route.guard.role } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(doc.body ? { requestBody: requestBody(doc.body) } : {}),
    responses: { ...Object.fromEntries(answers), default: ERROR_ANSWER },
  };
}

/** The document of every described route; a route without a description is left out (a test fails for it). */
export function openApiDocument(routers: Router<ApiState>[], serverUrl: string | null): Json {
  const schemas: Json = {};
  for (const [id, schema] of [...schemasOfRequests(), ...responseSchemas()]) schemas[id] = placed(schema, id);
  const paths: Record<string, Json> = {};
  for (const route of mountedRoutes(routers)) {
    if (!route.doc) continue;
    (paths[openApiPath(route.path)] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Postmill',
      version: postmillVersion(),
      description: 'A self-hosted email platform: transactional sending, events, contacts, templates, sender domains, tracking.',
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    paths,
    components: {
      schemas,
      securitySchemes: {
        secretKey: { type: 'http', scheme: 'bearer', description: "A project's secret key (sk_...)" },
        publicKey: { type: 'http', scheme: 'bearer', description: "A project's public key (pk_...): only POST /v1/track" },
        adminToken: { type: 'http', scheme: 'bearer', description: 'The adminToken of the configuration' },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'postmill_session',
          description:
            "A console session (POST /auth/login). Project routes name their project in X-Postmill-Project and need the user's role there (the requirement lists the least role: MEMBER < ADMIN < OWNER); a request other than GET or HEAD also needs X-Postmill-CSRF (the session's csrfToken) and an Origin or Referer of this daemon.",
        },
      },
    },
  };
}
