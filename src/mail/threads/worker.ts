// A mail thread: composes messages for the store and DKIM-signs them for delivery.
import { parentPort } from 'node:worker_threads';
import { signMessage } from '../../delivery/sign.js';
import type { DkimSigning } from '../../domains/signing.js';
import { composeMessage, type ComposeInput } from '../compose.js';
import { forStore } from '../compose/stored.js';

export type Request = { id: number } & ({ op: 'compose'; input: ComposeInput } | { op: 'sign'; raw: Uint8Array; key: DkimSigning });

export type Reply =
  | ({ id: number; ok: true } & ({ op: 'compose'; bytes: ArrayBuffer; deflated: boolean; size: number; messageId: string } | { op: 'sign'; signed: ArrayBuffer }))
  | { id: number; ok: false; error: string };

// Buffers arrive as plain Uint8Arrays after the structured clone.
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** A copy in an ArrayBuffer of its own, to be transferred rather than cloned. */
function own(bytes: Buffer): ArrayBuffer {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy.buffer;
}

async function answer(request: Request): Promise<Reply> {
  if (request.op === 'sign') {
    const signed = own(await signMessage(asBuffer(request.raw), request.key));
    return { id: request.id, ok: true, op: 'sign', signed };
  }
  const attachments = request.input.attachments.map((a) => ({ ...a, content: asBuffer(a.content) }));
  const { message, size, messageId } = forStore(composeMessage({ ...request.input, attachments }));
  return { id: request.id, ok: true, op: 'compose', bytes: own(message.bytes), deflated: message.deflated, size, messageId };
}

const transferOf = (reply: Reply): ArrayBuffer[] => (!reply.ok ? [] : reply.op === 'sign' ? [reply.signed] : [reply.bytes]);

parentPort?.on('message', (request: Request) => {
  answer(request).then(
    (reply) => parentPort?.postMessage(reply, transferOf(reply)),
    (err: unknown) => parentPort?.postMessage({ id: request.id, ok: false, error: err instanceof Error ? err.message : String(err) } satisfies Reply),
  );
});
