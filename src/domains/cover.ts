import type { Db } from '../store/db.js';
import { coveringNames } from '../addresses/domain-name.js';
import { findRegisteredAmong, type Domain } from './store.js';

export interface Cover {
  /** The most specific verified registration among the domain and its parents. */
  verified: Domain | null;
  /** The most specific registration whatever its status, to explain a refusal. */
  closest: Domain | null;
}

/** A registered domain covers itself and its subdomains: `news.example.com` sends under `example.com`. */
export function coverOf(db: Db, projectId: string, domain: string): Cover {
  const registered = findRegisteredAmong(db, projectId, coveringNames(domain));
  return { verified: registered.find((d) => d.status === 'verified') ?? null, closest: registered[0] ?? null };
}
