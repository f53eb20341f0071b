import type { SecureContext, TLSSocket } from 'node:tls';
import type { RouteHost } from './route.js';

// What the engine asks of an outbound TLS policy (tls-policy/policy.ts implements it): which MX hosts
// of a domain may have its mail, and what each one's session must satisfy before it carries any.

/** What one SMTP session must satisfy. Sessions of different checks are never shared. */
export interface SessionCheck {
  key: string;
  /** Judges the server's certificate by its CA certificates (made once: parsing the roots per session cost milliseconds); null: Node's roots. */
  secureContext: SecureContext | null;
  /** Called once the session is made, `socket` null when it is not over TLS: null lets it carry mail, else why not. */
  check(socket: TLSSocket | null, address: string): string | null;
}

export interface PlannedHost extends RouteHost {
  check: SessionCheck | null;
}

export type TlsPlan = { ok: true; hosts: PlannedHost[] } | { ok: false; reason: string };

export interface TlsPolicies {
  /** The domain's hosts that may have its mail, each with its check; or why none may (the delivery is deferred). */
  plan(domain: string, hosts: RouteHost[], port: number): Promise<TlsPlan>;
}
