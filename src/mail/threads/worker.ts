// A mail thread: DKIM-signs messages for delivery.
import { signMessage } from '../../delivery/sign.js';
import type { DkimSigning } from '../../domains/signing.js';
import { asBuffer, ownBuffer, serveOps } from '../../threads/serve.js';

export type SignOps = {
  sign: { input: { raw: Uint8Array; key: DkimSigning }; output: ArrayBuffer };
};

serveOps<SignOps>({
  sign: async ({ raw, key }) => {
    const signed = ownBuffer(await signMessage(asBuffer(raw), key));
    return { output: signed, transfer: [signed] };
  },
});
