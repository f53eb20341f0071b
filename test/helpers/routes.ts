/**
 * Every key-authenticated route of the API, for the tests that walk them all (garbage bodies,
 * project isolation). `:id` and friends are replaced by the test. A new resource adds its routes here.
 */
export interface RouteSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** The key kind the route takes. */
  key: 'secret' | 'public';
}

export const ROUTES: RouteSpec[] = [
  { method: 'GET', path: '/contacts', key: 'secret' },
  { method: 'POST', path: '/contacts', key: 'secret' },
  { method: 'POST', path: '/contacts/lookup', key: 'secret' },
  { method: 'GET', path: '/contacts/fields', key: 'secret' },
  { method: 'GET', path: '/contacts/fields/:field/values', key: 'secret' },
  { method: 'GET', path: '/contacts/fields/:field/usage', key: 'secret' },
  { method: 'DELETE', path: '/contacts/fields/:field', key: 'secret' },
  { method: 'POST', path: '/contacts/import', key: 'secret' },
  { method: 'GET', path: '/contacts/import/:importJobId', key: 'secret' },
  { method: 'POST', path: '/contacts/bulk-subscribe', key: 'secret' },
  { method: 'POST', path: '/contacts/bulk-unsubscribe', key: 'secret' },
  { method: 'POST', path: '/contacts/bulk-delete', key: 'secret' },
  { method: 'GET', path: '/contacts/bulk/:bulkJobId', key: 'secret' },
  { method: 'GET', path: '/contacts/:contactId', key: 'secret' },
  { method: 'PATCH', path: '/contacts/:contactId', key: 'secret' },
  { method: 'DELETE', path: '/contacts/:contactId', key: 'secret' },
  { method: 'POST', path: '/users/@me/projects/:projectId/regenerate-keys', key: 'secret' },
  { method: 'POST', path: '/v1/send', key: 'secret' },
  { method: 'POST', path: '/v1/track', key: 'public' },
  { method: 'POST', path: '/v1/verify', key: 'secret' },
  { method: 'GET', path: '/activity', key: 'secret' },
  { method: 'GET', path: '/activity/stats', key: 'secret' },
  { method: 'POST', path: '/events/track', key: 'secret' },
  { method: 'GET', path: '/events', key: 'secret' },
  { method: 'GET', path: '/events/stats', key: 'secret' },
  { method: 'GET', path: '/events/names', key: 'secret' },
  { method: 'GET', path: '/events/contact/:contactId', key: 'secret' },
  { method: 'GET', path: '/events/:eventName/usage', key: 'secret' },
  { method: 'DELETE', path: '/events/:eventName', key: 'secret' },
  { method: 'POST', path: '/domains', key: 'secret' },
  { method: 'GET', path: '/domains/project/:projectId', key: 'secret' },
  { method: 'GET', path: '/domains/:domainId/verify', key: 'secret' },
  { method: 'DELETE', path: '/domains/:domainId', key: 'secret' },
  { method: 'GET', path: '/templates', key: 'secret' },
  { method: 'POST', path: '/templates', key: 'secret' },
  { method: 'GET', path: '/templates/:templateId', key: 'secret' },
  { method: 'PATCH', path: '/templates/:templateId', key: 'secret' },
  { method: 'DELETE', path: '/templates/:templateId', key: 'secret' },
  { method: 'POST', path: '/templates/:templateId/duplicate', key: 'secret' },
  { method: 'GET', path: '/templates/:templateId/usage', key: 'secret' },
];

/** Bodies no route should answer with a 500. */
export const GARBAGE_BODIES: (string | Buffer)[] = [
  'null',
  '[]',
  '"a string"',
  '12345',
  'true',
  '{}',
  '{"email": {"$gt": ""}}',
  '{"email": ["a@b.test"], "data": "x", "subscribed": "maybe"}',
  '{"emails": "not-a-list", "name": 5, "subject": [], "body": {}}',
  '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}',
  JSON.stringify({ email: 'a'.repeat(10_000) + '@x.test', data: { k: 'v'.repeat(100_000) } }),
  JSON.stringify({ data: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i])) }),
  JSON.stringify({ nested: JSON.parse('['.repeat(2000) + ']'.repeat(2000)) }),
  '{"email": "x@y.test",}',
  '{"email": "\u0000\u0001\r\n@x.test"}',
  Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
  '',
];
