import type { Readable } from 'node:stream';
import type { DataBudget, DataClient } from './data-budget.js';
import { SmtpReply } from './smtp-reply.js';

/** What bounds the message of one DATA: its own size, and the room left in the daemon's budget. */
export interface DataLimits {
  maxBytes: number;
  budget: DataBudget;
  client: DataClient;
}


/**
 * Runs `use` on the whole message of an smtp-server DATA stream and answers what it answers. Bytes
 * are counted as they arrive and held in the budget until `use` settles, or the stream fails (a
 * client gone mid-DATA): the budget bounds every session's message together. Past `maxBytes`
 * (552) or past the budget (452: temporary, the sender retries) nothing more is kept and what was
 * held is given back at once; the rest is read and dropped up to the final dot, so the client gets
 * its refusal at the end of DATA. A session holds at most maxBytes, twice that while the pieces are
 * joined.
 */
export async function withMessage<T>(stream: Readable, limits: DataLimits, use: (raw: Buffer) => T | Promise<T>): Promise<T> {
  const { maxBytes, budget, client } = limits;
  let chunks: Buffer[] = [];
  let size = 0;
  let held = 0;
  let noRoom = false;
  const giveBack = () => {
    budget.give(held);
    held = 0;
    chunks = [];
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (noRoom || size > maxBytes) {
        giveBack();
        continue;
      }
      if (!budget.take(chunk.length, client)) {
        noRoom = true;
        giveBack();
        continue;
      }
      held += chunk.length;
      chunks.push(chunk);
    }
    if (size > maxBytes) throw new SmtpReply(552, `5.3.4 Message exceeds the size limit of ${maxBytes} bytes`);
    if (noRoom) throw new SmtpReply(452, '4.3.1 Insufficient system storage for messages being received now, try again later');
    const raw = Buffer.concat(chunks, size);
    chunks = [];
    return await use(raw);
  } finally {
    giveBack();
  }
}
