// A composing thread: MIME building (and deflating for the store) is the costliest pure step of accepting a send.
import { parentPort } from 'node:worker_threads';
import { composeMessage, type ComposeInput } from '../compose.js';
import { forStore } from './stored.js';

interface Request {
  id: number;
  input: ComposeInput;
}

parentPort?.on('message', ({ id, input }: Request) => {
  try {
    // Buffers arrive as plain Uint8Arrays after the structured clone.
    const attachments = input.attachments.map((a) => ({ ...a, content: Buffer.from(a.content.buffer, a.content.byteOffset, a.content.byteLength) }));
    const { message, size, messageId } = forStore(composeMessage({ ...input, attachments }));
    const bytes = new Uint8Array(message.bytes.byteLength);
    bytes.set(message.bytes);
    parentPort?.postMessage({ id, bytes: bytes.buffer, deflated: message.deflated, size, messageId }, [bytes.buffer]);
  } catch (err) {
    parentPort?.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
