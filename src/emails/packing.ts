// Stored messages are deflated: composed MIME (quoted-printable HTML beside its text part) shrinks
// several times over, so a send writes a fraction of the pages to the WAL and the database file.
import { deflateRawSync, inflateRawSync } from 'node:zlib';

export interface PackedMessage {
  bytes: Buffer;
  deflated: boolean;
}

/** Level 3: nearly the size of the default level at two thirds of its cost. */
export const packMessage = (raw: Buffer): PackedMessage => ({ bytes: deflateRawSync(raw, { level: 3 }), deflated: true });

/** As received, for messages whose size alone makes deflating them on the main thread too costly. */
export const unpackedMessage = (raw: Buffer): PackedMessage => ({ bytes: raw, deflated: false });

export const unpackMessage = (m: PackedMessage): Buffer => (m.deflated ? inflateRawSync(m.bytes) : m.bytes);
