/** A field error of a validation failure, as the spec's envelope lists them. */
export interface FieldError {
  field: string;
  message: string;
  code: string;
  received?: unknown;
}

/** An error with a place in the API: services throw these, the error middleware writes the envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: { details?: Record<string, unknown>; suggestion?: string; errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }
}

/** The spec's flat `{ error }` body for missing required fields on a few create routes. */
export class FlatError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, suggestion?: string) =>
  new ApiError(400, 'BAD_REQUEST', message, suggestion ? { suggestion } : {});
export const notFound = (what: string) => new ApiError(404, 'NOT_FOUND', `${what} not found`);
/** The row a lookup found, or the 404 of `what`. */
export function foundOr404<T>(row: T | null | undefined, what: string): T {
  if (row === null || row === undefined) throw notFound(what);
  return row;
}
export const conflict = (message: string, details?: Record<string, unknown>) =>
  new ApiError(409, 'CONFLICT', message, details ? { details } : {});
/** Path segments as a field error names them (`data.address.0.city`); long segments are cut, so a hostile key cannot bloat the answer. */
export const fieldPath = (segments: string[]): string =>
  segments.map((s) => (s.length > 100 ? s.slice(0, 100) + '…' : s)).join('.');

/** A read stopped at its time budget (`reads.requestBudgetMs`, `reads.jobBudgetMs`): the same read on the same data would be stopped again. */
export const queryTimeout = (budgetMs: number) =>
  new ApiError(422, 'QUERY_TIMEOUT', `The query was stopped after ${budgetMs} ms, the longest a read may run: it reads too much of this project's data at once`, {
    details: { budgetMs },
    suggestion: 'Narrow the condition (fewer ORed text matches; a cheap filter such as subscribed or a date ANDed with the rest), or ask for an earlier page',
  });

export const isQueryTimeout = (err: unknown): err is ApiError => err instanceof ApiError && err.code === 'QUERY_TIMEOUT';

/** Field errors named in a 422's default message: clients that show only the message (SDKs) still say what to fix. */
const NAMED_FIELD_ERRORS = 3;

function invalidBodyMessage(errors: FieldError[]): string {
  const named = errors.slice(0, NAMED_FIELD_ERRORS).map((e) => (e.field ? `${e.field}: ${e.message}` : e.message));
  const more = errors.length > NAMED_FIELD_ERRORS ? ` (and ${errors.length - NAMED_FIELD_ERRORS} more in error.errors)` : '';
  return `The request body is not valid: ${named.join('; ')}${more}`;
}

export const validationFailed = (errors: FieldError[], message = invalidBodyMessage(errors)) =>
  new ApiError(422, 'VALIDATION_ERROR', message, { errors });
