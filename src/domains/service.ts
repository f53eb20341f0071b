import { randomUUID } from 'node:crypto';
import type { Core } from '../core.js';
import { ApiError, conflict, notFound, validationFailed } from '../errors.js';
import { checkRecords, type CheckResult, type DomainCheck, type RecordCheck } from './check.js';
import { keyState } from './key-states.js';
import { activateKey, deleteKey, insertKey, listDomainKeys, savePublished, type DomainKey } from './key-store.js';
import { generateEd25519Key, generateRsaKey } from './keys.js';
import { getProject } from '../projects/store.js';
import { coveringNames, normalizeDomain } from '../addresses/domain-name.js';
import {
  deleteDomainRow,
  deleteStaleClaims,
  findDomainById,
  findProjectDomainNamed,
  findVerifiedNamed,
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
 * Why the name belongs to another project, or null: it, or a name it lies under, is verified there.
 * A verified domain covers the names under it, so no other project proves (or marks) one of them
 * and receives its mail.
 */
function takenBy(core: Core, projectId: string, domain: string): string | null {
  const other = findVerifiedNamed(core.db, coveringNames(domain)).find((o) => o.projectId !== projectId);
  if (!other) return null;
  const rule = 'a domain and the names under it belong to the first project that proves it in DNS';
  return other.domain === domain
    ? `${domain} is verified by another project: ${rule}`
    : `${domain} lies under ${other.domain}, which is verified by another project: ${rule}`;
}

/**
 * A name may be claimed by many projects at once: only the project's own registration, or another
 * project's verified one (of the name or a name it lies under), refuses it. Pending claims of
 * others never block anyone.
 */
function assertClaimable(core: Core, projectId: string, domain: string): void {
  const own = findProjectDomainNamed(core.db, projectId, domain);
  if (own) throw conflict(`${domain} is already registered to this project`, { id: own.id });
  const taken = takenBy(core, projectId, domain);
  if (taken) throw conflict(taken);
}

/**
 * Registers the domain with a fresh RSA key, which signs once the domain is verified, and an Ed25519
 * key waiting to be seen in DNS where the project signs with Ed25519. The domain stays pending until
 * its RSA key's record is found and expires unproved after CLAIM_TTL_MS.
 */
export async function registerDomain(core: Core, projectId: string, input: string): Promise<Domain> {
  const domain = normalizeDomain(input);
  if (!domain) {
    throw validationFailed([{ field: 'domain', message: 'Expected a domain name such as example.com', code: 'invalid_string', received: input }]);
  }
  assertClaimable(core, projectId, domain);
  const rsa = await generateRsaKey(core.clock.now());
  return core.bus.tx(() => {
    assertClaimable(core, projectId, domain); // another request may have taken it while the key was generated
    const now = core.clock.now();
    const created: Domain = {
      id: randomUUID(),
      projectId,
      domain,
      status: 'pending',
      verifiedWithoutDns: false,
      checks: {},
      failureReason: null,
      lastCheckedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    insertDomain(core.db, created);
    insertKey(core.db, created.id, rsa, 'active', now);
    if (getProject(core.db, projectId)?.dkimEd25519) insertKey(core.db, created.id, generateEd25519Key(now), 'pending', now);
    return created;
  });
}

export function getDomain(core: Core, projectId: string, id: string): Domain {
  const domain = findDomainById(core.db, projectId, id);
  if (!domain) throw notFound('Domain');
  return domain;
}

/**
 * The state after a check: verified exactly when the record of the RSA key it signs with matches
 * and no other project owns the name or a name above it (`taken`: why). A record whose lookup failed
 * keeps its previous flag, so a DNS outage does not stop sending.
 */
function stateAfter(d: Domain, records: CheckResult, taken: string | null, now: number): CheckState {
  const checks: RecordChecks = {};
  for (const purpose of RECORD_PURPOSES) checks[purpose] = records[purpose].verified ?? d.checks[purpose] ?? false;
  if (checks.dkim && taken) return { status: 'pending', checks, failureReason: taken, lastCheckedAt: now };
  return { status: checks.dkim ? 'verified' : 'pending', checks, failureReason: records.dkim.reason, lastCheckedAt: now };
}

/** Pending keys whose record is seen: they start signing now. */
const seenPending = (keys: DomainKey[], found: DomainCheck) => keys.filter((k) => k.state === 'pending' && found.keys.get(k.selector)?.verified === true);

/** The record of the RSA key that signs after this check: a newly published one, else the active one. */
function signingRecord(keys: DomainKey[], found: DomainCheck, activated: DomainKey[]): RecordCheck {
  const signing = activated.find((k) => k.algorithm === 'rsa') ?? keys.find((k) => k.algorithm === 'rsa' && k.state === 'active');
  return (signing && found.keys.get(signing.selector)) ?? { verified: false, reason: 'The domain has no RSA key to sign with; rotate its key' };
}

/**
 * Stores what the check found of each key: a pending key seen in DNS starts signing (the key it
 * replaces retires, kept published for the overlap), and a retired key whose overlap has passed is
 * forgotten once its record is gone.
 */
function saveKeys(core: Core, d: Domain, keys: DomainKey[], found: DomainCheck, activated: DomainKey[]): void {
  const now = core.clock.now();
  for (const key of keys) {
    const published = found.keys.get(key.selector)?.verified;
    if (published === null || published === undefined) continue;
    if (!published && keyState(key, core.config.dkim.rotationOverlapDays, now) === 'safe_to_remove') deleteKey(core.db, d.id, key.selector);
    else savePublished(core.db, d.id, key.selector, published);
  }
  for (const key of activated) {
    activateKey(core.db, d.id, key.selector, now);
    core.log.info('DKIM key seen in DNS; signing switches to it', { projectId: d.projectId, domain: d.domain, selector: key.selector, algorithm: key.algorithm });
  }
}

/**
 * Checks the DNS now and stores the outcome; null when the domain was deleted meanwhile. In capture
 * mode a domain marked verified without DNS keeps its mark (outside it, or once another project has
 * verified a name above it, the check decides), and a new key of it signs from this check on:
 * nothing it signs leaves the machine, so no receiver looks for the record.
 */
export async function checkDomain(core: Core, dns: Dns, d: Domain): Promise<Domain | null> {
  const keys = listDomainKeys(core.db, d.projectId, d.id);
  // A mark under another project's verified name is not kept: the DNS check below refuses it.
  if (d.verifiedWithoutDns && core.config.delivery.mode === 'capture' && !takenBy(core, d.projectId, d.domain)) {
    const activated = keys.filter((k) => k.state === 'pending');
    core.bus.tx(() => activated.forEach((key) => activateKey(core.db, d.id, key.selector, core.clock.now())));
    return d;
  }
  const found = await checkRecords(dns, d, keys, core.config.hostname);
  // From here to the save nothing awaits: no other check can take the name in between.
  const activated = seenPending(keys, found);
  const records = { ...found.records, dkim: signingRecord(keys, found, activated) };
  const state = stateAfter(d, records, takenBy(core, d.projectId, d.domain), core.clock.now());
  const saved = core.bus.tx(() => {
    if (!saveCheck(core.db, d.id, state)) return false;
    saveKeys(core, d, keys, found, activated);
    return true;
  });
  if (!saved) return null;
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
 * another project has verified, or one under it.
 */
export function markVerifiedWithoutDns(core: Core, projectId: string, id: string): Domain {
  if (core.config.delivery.mode !== 'capture') {
    throw new ApiError(409, 'CONFLICT', 'A domain can be marked verified without DNS only in capture mode (delivery.mode "capture"), where nothing is sent', {
      suggestion: 'Publish the records of the domain, then check them with GET /domains/{id}/verify',
    });
  }
  const d = getDomain(core, projectId, id);
  const taken = takenBy(core, projectId, d.domain);
  if (taken) throw conflict(taken);
  if (!markVerified(core.db, projectId, id, core.clock.now())) throw notFound('Domain');
  return getDomain(core, projectId, id);
}

export function deleteDomain(core: Core, projectId: string, id: string): void {
  if (!deleteDomainRow(core.db, projectId, id)) throw notFound('Domain');
}
