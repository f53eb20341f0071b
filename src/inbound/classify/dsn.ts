import { addressOfField } from './fields.js';
import type { Fields } from './fields.js';
import { bounceTypeOfStatus, enhancedStatusIn, isMailboxFull } from './smtp-status.js';
import type { BounceDetails, BounceType } from './types.js';

const SUCCESS_ACTIONS = new Set(['delivered', 'relayed', 'expanded']);

/**
 * Reads the per-recipient groups of a message/delivery-status part (RFC 3464): the first
 * permanent failure, else the first delay; 'delivered' when every recipient succeeded; null
 * when no group says anything usable.
 */
export function dsnOutcome(groups: readonly Fields[]): BounceDetails | 'delivered' | null {
  for (const bounceType of ['Permanent', 'Transient'] as const) {
    const fields = groups.find((group) => recipientOutcome(group) === bounceType);
    if (fields) return failure(bounceType, fields);
  }
  return groups.some((group) => recipientOutcome(group) === 'success') ? 'delivered' : null;
}

function recipientOutcome(fields: Fields): BounceType | 'success' | null {
  const action = (fields.get('action') ?? '').trim().split(/[^a-z]/i)[0].toLowerCase();
  if (SUCCESS_ACTIONS.has(action)) return 'success';
  const status = enhancedStatusIn(fields.get('status'));
  const statusType = bounceTypeOfStatus(status);
  if (isMailboxFull(status)) return 'Transient';
  if (action === 'failed' || statusType === 'Permanent') return 'Permanent';
  if (action === 'delayed' || statusType === 'Transient') return 'Transient';
  return status?.[0] === '2' ? 'success' : null;
}

function failure(bounceType: BounceType, fields: Fields): BounceDetails {
  const diagnostic = fields.get('diagnostic-code') || null;
  return {
    bounceType,
    status: enhancedStatusIn(fields.get('status')) ?? enhancedStatusIn(diagnostic),
    diagnostic,
    // Original-Recipient is the address we sent to; Final-Recipient may be where it was forwarded.
    recipient:
      addressOfField(fields.get('original-recipient')) ?? addressOfField(fields.get('final-recipient')),
  };
}
