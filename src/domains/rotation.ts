// New DKIM keys for domains that already have one: a rotation (by request or on schedule), and the
// Ed25519 keys a project gets when it turns Ed25519 signing on. A new key waits (pending) until the
// domain check sees its record in DNS; only then does it sign (src/domains/service.ts, checkDomain).
import type { Core } from '../core.js';
import { ApiError, notFound } from '../errors.js';
import { setDkimEd25519 } from '../projects/store.js';
import { domainsDueRotation, insertKey, listDomainKeys, retireProjectKeys } from './key-store.js';
import { generateEd25519Key, generateRsaKey } from './keys.js';
import { dkimName } from './records.js';
import { findDomainById, listProjectDomains, type Domain } from './store.js';

const DAY_MS = 24 * 3600_000;

function assertNothingPending(core: Core, d: Domain): void {
  const pending = listDomainKeys(core.db, d.projectId, d.id).find((k) => k.state === 'pending');
  if (!pending) return;
  throw new ApiError(409, 'CONFLICT', `A new DKIM key of ${d.domain} is waiting for its record at ${dkimName(pending.selector, d.domain)} to be published`, {
    suggestion: 'Publish the record shown with the domain (state "pending"); it signs from the next check that finds it, and another rotation can start then',
    details: { selector: pending.selector },
  });
}

const hasActiveEd25519 = (core: Core, d: Domain) => listDomainKeys(core.db, d.projectId, d.id).some((k) => k.algorithm === 'ed25519' && k.state === 'active');

/**
 * Starts a rotation: a new key and selector, pending, for each algorithm the domain signs with.
 * 409 while a key of the domain is still pending.
 */
export async function rotateDomainKey(core: Core, projectId: string, id: string): Promise<Domain> {
  const found = findDomainById(core.db, projectId, id);
  if (!found) throw notFound('Domain');
  assertNothingPending(core, found);
  const rsa = await generateRsaKey(core.clock.now());
  return core.bus.tx(() => {
    // checked again: another rotation may have started, or the domain gone, while the key was made
    const d = findDomainById(core.db, projectId, id);
    if (!d) throw notFound('Domain');
    assertNothingPending(core, d);
    const now = core.clock.now();
    const made = hasActiveEd25519(core, d) ? [rsa, generateEd25519Key(now)] : [rsa];
    for (const key of made) insertKey(core.db, id, key, 'pending', now);
    core.log.info('DKIM key rotation started; waiting for the new record in DNS', { projectId, domain: d.domain, selectors: made.map((k) => k.selector) });
    return d;
  });
}

/** The scheduled rotation (`dkim.rotateEveryDays`): every verified domain whose RSA key has signed that long. */
export async function rotateDueKeys(core: Core): Promise<void> {
  const every = core.config.dkim.rotateEveryDays;
  if (every === null) return;
  for (const due of domainsDueRotation(core.db, core.clock.now() - every * DAY_MS)) {
    try {
      await rotateDomainKey(core, due.projectId, due.id);
    } catch (err) {
      // deleted, or rotated by hand, since the list was read: nothing is due any more
      if (!(err instanceof ApiError)) throw err;
    }
  }
}

/**
 * Turns Ed25519 signing of a project on or off; false when there is no such project. On: each
 * domain without an Ed25519 key gets one, pending until its record is seen. Off: its Ed25519 keys
 * stop signing and stay published for the overlap.
 */
export function setEd25519Signing(core: Core, projectId: string, on: boolean): boolean {
  return core.bus.tx(() => {
    const now = core.clock.now();
    if (!setDkimEd25519(core.db, projectId, on, now)) return false;
    if (!on) {
      retireProjectKeys(core.db, projectId, 'ed25519', now);
      return true;
    }
    for (const d of listProjectDomains(core.db, projectId)) {
      const lacking = !listDomainKeys(core.db, projectId, d.id).some((k) => k.algorithm === 'ed25519' && k.state !== 'retiring');
      if (lacking) insertKey(core.db, d.id, generateEd25519Key(now), 'pending', now);
    }
    return true;
  });
}
