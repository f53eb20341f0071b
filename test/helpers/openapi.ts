import { Ajv } from 'ajv';
import formats from 'ajv-formats';

// ajv-formats is CommonJS: under NodeNext its default import is the plugin function itself.
const addFormats = formats as unknown as (ajv: Ajv) => Ajv;

type Json = Record<string, any>;

/** Judges one answer of the daemon against the OpenAPI document; answers what is wrong, or null. */
export type ResponseCheck = (method: string, path: string, status: number, contentType: string, body: unknown) => string | null;

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  params: number;
  responses: Json;
}

/** The schemas of the document live under one id, so a `#/components/...` pointer is a reference into it. */
const intoDocument = (schema: unknown) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/'));

/**
 * A checker of live answers against `doc`: the documented status (or `default` for errors), its
 * media type, and the response schema where the route names one.
 */
export function responseChecker(doc: Json): ResponseCheck {
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ $id: 'openapi', components: doc.components });
  const operations: Operation[] = Object.entries(doc.paths as Json)
    .flatMap(([template, methods]) =>
      Object.entries(methods as Json).map(([method, op]) => ({
        method: method.toUpperCase(),
        template,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
        params: (template.match(/\{/g) ?? []).length,
        responses: (op as Json).responses,
      })),
    )
    // A literal segment wins over a parameter: /contacts/fields before /contacts/{id}.
    .sort((a, b) => a.params - b.params);
  const compiled = new Map<unknown, ReturnType<Ajv['compile']>>();
  const validatorOf = (schema: unknown) => {
    let fn = compiled.get(schema);
    if (!fn) compiled.set(schema, (fn = ajv.compile(intoDocument(schema))));
    return fn;
  };

  return (method, path, status, contentType, body) => {
    const pathname = path.split('?')[0]!;
    const op = operations.find((o) => o.method === method && o.pattern.test(pathname));
    const where = `${method} ${path} -> ${status}`;
    if (!op) return null; // not a route (the 404 of an unknown path)
    const key = [String(status), `${String(status)[0]}XX`].find((k) => k in op.responses) ?? 'default';
    if (key === 'default' && status < 400) return `${where}: the status is not documented for ${op.method} ${op.template}`;
    const content = op.responses[key].content as Json | undefined;
    if (!content) return body === '' || body === undefined ? null : `${where}: documented without a body, answered one`;
    const media = contentType.split(';')[0]!.trim();
    const entry = content[media] as Json | undefined;
    if (!entry) return `${where}: ${media || 'no content type'} is not among the documented ${Object.keys(content).join(', ')}`;
    if (!entry.schema) return null;
    const validate = validatorOf(entry.schema);
    if (validate(body)) return null;
    return `${where}: the body does not match the documented schema: ${ajv.errorsText(validate.errors)}`;
  };
}
