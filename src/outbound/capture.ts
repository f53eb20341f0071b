import type { Core } from '../core.js';
import { insertCapture } from '../emails/log-store.js';
import type { Delivery } from './engine/deliver.js';

/** How an attempt names capture mode's mailbox, and what it "answers". */
export const CAPTURE_HOST = 'capture';
const CAPTURED = '250 2.0.0 Captured: kept in the store, not sent (delivery.mode capture)';

/**
 * `delivery.mode` capture: every message goes into the store's mailbox instead of the network,
 * signed as it would have gone out, and takes the path of a delivered one.
 */
export function captureDelivery(core: Core): Delivery {
  return {
    async deliver(message) {
      if (message.stillWanted?.() === false) return { status: 'withdrawn', host: null };
      insertCapture(core.db, message.emailId, message.head ?? null, core.clock.now());
      return { status: 'delivered', response: CAPTURED, host: CAPTURE_HOST, tls: null };
    },
    async close() {},
  };
}
