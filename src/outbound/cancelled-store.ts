import { sql, type Db } from '../store/db.js';

/**
 * Whether the campaign of a bulk email was cancelled: its unsent emails end failed in a job a batch
 * at a time (src/campaigns/cancel-job.ts), and one the job has not reached yet must not go meanwhile.
 */
export function campaignCancelled(db: Db, campaignId: string): boolean {
  return sql(db, "SELECT 1 FROM campaigns WHERE id = ? AND status = 'CANCELLED'").pluck().get(campaignId) !== undefined;
}
