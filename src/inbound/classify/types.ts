export type BounceType = 'Permanent' | 'Transient';

/** What one inbound message is, as far as outbound mail is concerned. */
export type Classification =
  | {
      kind: 'bounce';
      bounceType: BounceType;
      /** The enhanced status code (5.1.1), or the SMTP reply code (550) when no enhanced code is given. */
      status: string | null;
      diagnostic: string | null;
      recipient: string | null;
      emailId: string | null;
      originalMessageId: string | null;
    }
  | {
      kind: 'complaint';
      feedbackType: string;
      recipient: string | null;
      emailId: string | null;
      originalMessageId: string | null;
    }
  | { kind: 'auto-reply'; from: string | null; subject: string | null }
  | { kind: 'received' };

/** The part of a bounce that the report itself states, before it is linked to an email. */
export type BounceDetails = Pick<
  Extract<Classification, { kind: 'bounce' }>,
  'bounceType' | 'status' | 'diagnostic' | 'recipient'
>;
