// A mail thread: composes messages for the store and DKIM-signs them for delivery.
import { parentPort } from 'node:worker_threads';
import type { DkimSigning } from '../../domains/signing.js';
import { unpackMessage } from '../../emails/packing.js';
import { composeMessage, type ComposeInput } from '../compose.js';
import { forStore } from '../compose/stored.js';
import { signMessage } from '../dkim/sign.js';
import { ownArrayBuffer } from './transfer.js';

export type Request = { id: number } & (
  | { op: 'compose'; input: ComposeInput }
  /** The message as stored (deflated or not); its bytes arrive transferred, not copied. */
  | { op: 'sign'; stored: { bytes: Uint8Array; deflated: boolean }; key: DkimSigning; now: number }
);

export type Reply =
  | ({ id: number; ok: true } & ({ op: 'compose'; bytes: ArrayBuffer; deflated: boolean; size: number; messageId: string } | { op: 'sign'; signed: ArrayBuffer }))
  | { id: number; ok: false; error: string };

// Buffers arrive as plain Uint8Arrays after the structured clone.
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function answer(request: Request): Reply {
  if (request.op === 'sign') {
    const raw = unpackMessage({ bytes: asBuffer(request.stored.bytes), deflated: request.stored.deflated });
    return { id: request.id, ok: true, op: 'sign', signed: ownArrayBuffer(signMessage(raw, request.key, request.now)) };
  }
  const attachments = request.input.attachments.map((a) => ({ ...a, content: asBuffer(a.content) }));
  const { message, size, messageId } = forStore(composeMessage({ ...request.input, attachments }));
  return { id: request.id, ok: true, op: 'compose', bytes: ownArrayBuffer(message.bytes), deflated: message.deflated, size, messageId };
}

const transferOf = (reply: Reply): ArrayBuffer[] => (!reply.ok ? [] : reply.op === 'sign' ? [reply.signed] : [reply.bytes]);

parentPort?.on('message', (request: Request) => {
  let reply: Reply;
  try {
    reply = answer(request);
  } catch (err) {
    reply = { id: request.id, ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort?.postMessage(reply, transferOf(reply));
});
