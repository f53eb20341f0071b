// Who a campaign goes to: its audience as one SQL condition over the project's contacts, counted
// and walked in keyset batches by (createdAt, id).
import { CONTACT_COLUMNS, toContact, type Contact, type ContactRow } from '../contacts/store.js';
import type { Ctx } from '../context.js';
import { sql } from '../store/db.js';
import type { Campaign, WalkPosition } from './store.js';

interface Condition {
  where: string;
  params: unknown[];
}

/** The audience of the campaign; only subscribed contacts unless the content is TRANSACTIONAL. */
function audienceCondition(_ctx: Ctx, campaign: Campaign): Condition {
  const parts: Condition[] = [{ where: 'project_id = ?', params: [campaign.projectId] }];
  if (campaign.type !== 'TRANSACTIONAL') parts.push({ where: 'subscribed = 1', params: [] });
  return { where: parts.map((p) => `(${p.where})`).join(' AND '), params: parts.flatMap((p) => p.params) };
}

export function countAudience(ctx: Ctx, campaign: Campaign): number {
  const { where, params } = audienceCondition(ctx, campaign);
  return (sql(ctx.db, `SELECT COUNT(*) AS n FROM contacts WHERE ${where}`).get(...params) as { n: number }).n;
}

/** The next audience members after `after`, in walk order. */
export function audienceBatch(ctx: Ctx, campaign: Campaign, after: WalkPosition | null, limit: number): Contact[] {
  const { where, params } = audienceCondition(ctx, campaign);
  const from = after ?? { createdAt: -Infinity, id: '' };
  const rows = sql(ctx.db, `SELECT ${CONTACT_COLUMNS} FROM contacts WHERE ${where} AND (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?`).all(
    ...params,
    from.createdAt,
    from.id,
    limit,
  ) as ContactRow[];
  return rows.map(toContact);
}
