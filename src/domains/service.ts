import { randomUUID } from 'node:crypto';
import type { Core } from '../core.js';
import { ApiError, conflict, notFound, validationFailed } from '../errors.js';
import { checkRecords, type CheckResult } from './check.js';
import { generateDkimKey } from './keys.js';
import { normalizeDomain } from '../addresses/domain-name.js';
import {
  deleteDomainRow,
  deleteStaleClaims,
  findDomainById,
  findProjectDomainNamed,
  findVerifiedOwner,
  insertDomain,
  listAllDomains,
  markVerifiedWithoutDns as markVerified,
  RECORD_PURPOSES,
  saveCheck,
  type CheckState,
  type Domain,
  type RecordChecks,
} from './store.js';
import type { Dns } from '../dns/resolver.js';

/** A claim never proved in DNS is dropped after this long, with its key. */
export const CLAIM_TTL_MS = 7 * 24 * 3600_000;

/**
 * A name may be claimed by many projects at once: only the project's own registration, or another
 * project's verified one, refuses it. Pending claims of others never block anyone.
 */
function assertClaimable(core: Core, projectId: string, domain: string): void {
  const own = findProjectDomainNamed(core.db, projectId, domain);
  if (own) throw conflict(`${domain} is already registered to this project`, { id: own.id });
  if (findVerifiedOwner(core.db, domain)) throw conflict(`${domain} is verified by another project`);
}

/**
 * Registers the domain with a fresh DKIM key; it stays pending until its DKIM record is found and
 * expires unproved after CLAIM_TTL_MS.
 */
export async function registerDomain(core: Core, projectId: string, input: string): Promise<Domain> {
  const domain = normalizeDomain(input);
  if (!domain) {
    throw validationFailed([{ field: 'domain', message: 'Expected a domain name such as example.com', code: 'invalid_string', received: input }]);
  }
  assertClaimable(core, projectId, domain);
  const key = await generateDkimKey(core.clock.now());
  return core.bus.tx(() => {
    assertClaimable(core, projectId, domain); // another request may have taken it while the key was generated
    const now = core.clock.now();
    const created: Domain = {
      id: randomUUID(),
      projectId,
      domain,
      ...key,
      status: 'pending',
      verifiedWithoutDns: false,
      checks: {},
      failureReason: null,
      lastCheckedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    insertDomain(core.db, created);
    return created;
  });
}

export function getDomain(core: Core, projectId: string, id: string): Domain {
  const domain = findDomainById(core.db, projectId, id);
  if (!domain) throw notFound('Domain');
  return domain;
}

/**
 * The state after a check: verified exactly when the DKIM record matches our key and no other
 * project owns the name (the first to prove it keeps it). A record whose lookup failed keeps its
 * previous flag, so a DNS outage does not stop sending.
 */
function stateAfter(d: Domain, result: CheckResult, otherOwner: boolean, now: number): CheckState {
  const checks: RecordChecks = {};
  for (const purpose of RECORD_PURPOSES) checks[purpose] = result[purpose].verified ?? d.checks[purpose] ?? false;
  if (checks.dkim && otherOwner) {
    const reason = `${d.domain} is verified by another project: a domain belongs to the first project that proves it in DNS`;
    return { status: 'pending', checks, failureReason: reason, lastCheckedAt: now };
  }
  return { status: checks.dkim ? 'verified' : 'pending', checks, failureReason: result.dkim.reason, lastCheckedAt: now };
}

/**
 * Checks the DNS now and stores the outcome; null when the domain was deleted meanwhile. In capture
 * mode a domain marked verified without DNS keeps its mark (outside it, the check decides).
 */
export async function checkDomain(core: Core, dns: Dns, d: Domain): Promise<Domain | null> {
  if (d.verifiedWithoutDns && core.config.delivery.mode === 'capture') return d;
  const result = await checkRecords(dns, d, core.config.hostname);
  // From here to the save nothing awaits: no other check can take the name in between.
  const owner = findVerifiedOwner(core.db, d.domain);
  const state = stateAfter(d, result, owner !== null && owner.id !== d.id, core.clock.now());
  if (!saveCheck(core.db, d.id, state)) return null;
  if (d.status === 'verified' && state.status === 'pending') {
    core.log.warn('domain lost its verification; sending from it stops', { projectId: d.projectId, domain: d.domain, reason: state.failureReason });
  }
  return { ...d, ...state, verifiedWithoutDns: false, updatedAt: state.lastCheckedAt };
}

export async function verifyDomain(core: Core, dns: Dns, projectId: string, id: string): Promise<Domain> {
  const checked = await checkDomain(core, dns, getDomain(core, projectId, id));
  if (!checked) throw notFound('Domain');
  return checked;
}

/** Lookups in flight at once during the periodic re-check. */
const RECHECK_PARALLEL = 8;

/** Drops stale claims, then re-checks every domain of every project, pending and verified (the 5-minute job). */
export async function recheckDomains(core: Core, dns: Dns): Promise<void> {
  const expired = deleteStaleClaims(core.db, core.clock.now() - CLAIM_TTL_MS);
  if (expired > 0) core.log.info('unproved domain claims expired', { count: expired });
  const domains = listAllDomains(core.db);
  for (let i = 0; i < domains.length; i += RECHECK_PARALLEL) {
    await Promise.all(domains.slice(i, i + RECHECK_PARALLEL).map((d) => checkDomain(core, dns, d)));
  }
}

/**
 * Capture mode only: the domain counts as verified without its records in DNS, so that a newcomer
 * sends within a minute (nothing leaves the machine). Refused (409) in the other modes, and for a name
 * another project has proved.
 */
export function markVerifiedWithoutDns(core: Core, projectId: string, id: string): Domain {
  if (core.config.delivery.mode !== 'capture') {
    throw new ApiError(409, 'CONFLICT', 'A domain can be marked verified without DNS only in capture mode (delivery.mode "capture"), where nothing is sent', {
      suggestion: 'Publish the records of the domain, then check them with GET /domains/{id}/verify',
    });
  }
  const d = getDomain(core, projectId, id);
  const owner = findVerifiedOwner(core.db, d.domain);
  if (owner && owner.id !== d.id) throw conflict(`${d.domain} is verified by another project: a domain belongs to the first project that proves it in DNS`);
  if (!markVerified(core.db, projectId, id, core.clock.now())) throw notFound('Domain');
  return getDomain(core, projectId, id);
}

export function deleteDomain(core: Core, projectId: string, id: string): void {
  if (!deleteDomainRow(core.db, projectId, id)) throw notFound('Domain');
}
