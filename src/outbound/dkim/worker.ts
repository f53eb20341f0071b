// A mail thread: unpacks stored messages and DKIM-signs them for delivery.
import type { DkimSigning } from './sign.js';
import { unpackMessage } from '../../emails/packing.js';
import { worthCollecting } from '../../threads/collect.js';
import { asBuffer, ownBuffer, serveOps } from '../../threads/serve.js';
import { signParts } from './sign.js';

export type SignOps = {
  /** `stored` arrives transferred (not copied), as the store keeps it; the signature header and the message go back the same way. */
  sign: { input: { stored: { bytes: Uint8Array; deflated: boolean }; key: DkimSigning; now: number }; output: { header: ArrayBuffer; message: ArrayBuffer } };
};

serveOps<SignOps>({
  sign: ({ stored, key, now }) => {
    const raw = unpackMessage({ bytes: asBuffer(stored.bytes), deflated: stored.deflated });
    const signed = signParts(raw, key, now);
    const [header, message] = [ownBuffer(signed.header), ownBuffer(signed.message)];
    return { output: { header, message }, transfer: [header, message], collect: worthCollecting(message.byteLength) };
  },
});
