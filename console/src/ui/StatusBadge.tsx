// A status as a pill whose colour says how it went (delivered green, bounced red, waiting amber);
// its words are the status itself, so the colour is never the only sign.
const TONES: Record<string, 'success' | 'warning' | 'danger' | 'neutral' | 'accent'> = {
  delivered: 'success',
  sent: 'success',
  SENT: 'success',
  queued: 'neutral',
  sending: 'accent',
  SENDING: 'accent',
  deferred: 'warning',
  SCHEDULED: 'warning',
  DRAFT: 'neutral',
  CANCELLED: 'neutral',
  bounced: 'danger',
  failed: 'danger',
  suppressed: 'danger',
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <span className="badge" data-tone={TONES[status] ?? 'neutral'}>
      {status}
    </span>
  );
}
