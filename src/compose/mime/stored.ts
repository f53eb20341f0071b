import { packMessage, type PackedMessage } from '../../emails/packing.js';
import type { ComposedMessage } from '../mime.js';

/** A composed message as the store keeps it, with what the send checks and records. */
export interface StoredComposition {
  message: PackedMessage;
  /** Bytes of the message before packing: the spec's size limit applies to these. */
  size: number;
  messageId: string;
}

export const forStore = (composed: ComposedMessage): StoredComposition => ({
  message: packMessage(composed.raw),
  size: composed.raw.length,
  messageId: composed.messageId,
});
