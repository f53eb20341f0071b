import type { Core } from '../../core.js';
import { deleteContact, getContact, setSubscribed } from '../service.js';
import { yieldToEventLoop } from '../../store/batches.js';
import { contactJobHandler, createContactJob, itemFailure, MAX_REPORTED_ERRORS, type ContactJobRun } from '../jobs/service.js';
import type { ContactJob, ContactJobType } from '../jobs/store.js';

export const BULK_JOB = 'contacts.bulk';
const BATCH_IDS = 100;

export type BulkOperation = 'subscribe' | 'unsubscribe' | 'delete';

export const BULK_JOB_TYPES: Record<BulkOperation, ContactJobType> = {
  subscribe: 'bulk-subscribe',
  unsubscribe: 'bulk-unsubscribe',
  delete: 'bulk-delete',
};

export interface BulkInput {
  operation: BulkOperation;
  contactIds: string[];
}

export interface BulkResult {
  operation: BulkOperation;
  requested: number;
  changed: number;
  unchanged: number;
  failed: number;
  errors: { contactId: string; message: string }[];
}

/** Queues the operation over the distinct ids as a durable job. */
export function startBulk(core: Core, projectId: string, operation: BulkOperation, contactIds: string[]): ContactJob<BulkInput, BulkResult> {
  const ids = [...new Set(contactIds.map((id) => id.toLowerCase()))];
  const result: BulkResult = { operation, requested: ids.length, changed: 0, unchanged: 0, failed: 0, errors: [] };
  return createContactJob(core, projectId, BULK_JOB_TYPES[operation], BULK_JOB, { operation, contactIds: ids }, result);
}

/** Applies the operation to one contact through the contact rules; answers whether anything changed. */
function applyTo(core: Core, projectId: string, operation: BulkOperation, id: string): boolean {
  if (operation === 'delete') {
    deleteContact(core, projectId, id);
    return true;
  }
  return setSubscribed(core, getContact(core, projectId, id), operation === 'subscribe').changed;
}

/** Batches of ids, each in one transaction with the job's position; unknown ids (and other projects') are failures. */
async function runBulk(core: Core, run: ContactJobRun<BulkInput, BulkResult>): Promise<void> {
  const { projectId, input } = run.job;
  while (run.position < input.contactIds.length) {
    const end = Math.min(run.position + BATCH_IDS, input.contactIds.length);
    const ids = input.contactIds.slice(run.position, end);
    run.commit(end, Math.floor((end / input.contactIds.length) * 100), (result) => {
      for (const id of ids) {
        try {
          // each id in its own savepoint: a failure leaves the others of the batch alone
          if (core.bus.tx(() => applyTo(core, projectId, input.operation, id))) result.changed++;
          else result.unchanged++;
        } catch (err) {
          result.failed++;
          if (result.errors.length < MAX_REPORTED_ERRORS) result.errors.push({ contactId: id, message: itemFailure(err) });
        }
      }
    });
    await yieldToEventLoop();
  }
}

export const bulkJob = (core: Core) => contactJobHandler<BulkInput, BulkResult>(core, (run) => runBulk(core, run));
