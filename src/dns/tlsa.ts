// TLSA lookups (RFC 6698) with the resolver's AD bit, which node:dns neither asks nor shows: one
// query over UDP (TCP when the answer is truncated) to the first configured server. Used only for
// DANE, and only when that server is a local validating resolver (src/outbound/tls-policy/dane.ts).
import { createSocket } from 'node:dgram';
import { randomInt } from 'node:crypto';
import { connect } from 'node:net';

export interface TlsaRecord {
  usage: number;
  selector: number;
  matchingType: number;
  data: Buffer;
}

/** An answer: `secure` when the resolver validated it (AD); `records` empty for NXDOMAIN or no TLSA. */
export interface TlsaAnswer {
  secure: boolean;
  records: TlsaRecord[];
}

const TLSA = 52;
const IN = 1;
const NXDOMAIN = 3;
const TIMEOUT_MS = 5000;

/** `ip`, `ip:port`, `[v6]:port` or a bare IPv6 address, as dns.servers takes them. */
export function serverAddress(server: string): { host: string; port: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(server);
  if (bracketed) return { host: bracketed[1]!, port: Number(bracketed[2] ?? 53) };
  const v4 = /^([\d.]+)(?::(\d+))?$/.exec(server);
  if (v4) return { host: v4[1]!, port: Number(v4[2] ?? 53) };
  return { host: server, port: 53 };
}

function encodeName(name: string): Buffer {
  const labels = name.replace(/\.$/, '').split('.');
  return Buffer.concat([...labels.map((label) => Buffer.concat([Buffer.of(Buffer.byteLength(label)), Buffer.from(label, 'ascii')])), Buffer.of(0)]);
}

function query(id: number, name: string): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  // RD, and AD: asks the resolver to say whether it validated the answer (RFC 6840 5.7)
  header.writeUInt16BE(0x0100 | 0x0020, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(1, 10);
  const question = Buffer.alloc(4);
  question.writeUInt16BE(TLSA, 0);
  question.writeUInt16BE(IN, 2);
  // EDNS0 OPT: room for a larger answer over UDP
  const opt = Buffer.from([0, 0, 41, 0x04, 0xd0, 0, 0, 0, 0, 0, 0]);
  return Buffer.concat([header, encodeName(name), question, opt]);
}

/** Skips a (possibly compressed) name; answers the offset after it. */
function skipName(message: Buffer, offset: number): number {
  for (;;) {
    const length = message[offset];
    if (length === undefined) throw new Error('truncated DNS answer');
    if ((length & 0xc0) === 0xc0) return offset + 2;
    if (length === 0) return offset + 1;
    offset += length + 1;
  }
}

/** Reads a DNS answer; throws on SERVFAIL and other failures (a bogus answer from a validating resolver). */
export function parseTlsaAnswer(message: Buffer, id: number): TlsaAnswer & { truncated: boolean } {
  if (message.length < 12 || message.readUInt16BE(0) !== id) throw new Error('DNS answer does not match the query');
  const flags = message.readUInt16BE(2);
  const truncated = (flags & 0x0200) !== 0;
  const secure = (flags & 0x0020) !== 0;
  const rcode = flags & 0x000f;
  if (rcode === NXDOMAIN) return { secure, records: [], truncated };
  if (rcode !== 0) throw new Error(`DNS answered rcode ${rcode}`);
  const questions = message.readUInt16BE(4);
  const answers = message.readUInt16BE(6);
  let offset = 12;
  for (let i = 0; i < questions; i++) offset = skipName(message, offset) + 4;
  const records: TlsaRecord[] = [];
  for (let i = 0; i < answers; i++) {
    offset = skipName(message, offset);
    const type = message.readUInt16BE(offset);
    const length = message.readUInt16BE(offset + 8);
    const start = offset + 10;
    offset = start + length;
    if (offset > message.length) throw new Error('truncated DNS answer');
    if (type !== TLSA || length < 3) continue;
    records.push({ usage: message[start]!, selector: message[start + 1]!, matchingType: message[start + 2]!, data: Buffer.from(message.subarray(start + 3, offset)) });
  }
  return { secure, records, truncated };
}

function overUdp(server: { host: string; port: number }, packet: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = createSocket(server.host.includes(':') ? 'udp6' : 'udp4');
    const timer = setTimeout(() => finish(new Error(`no DNS answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
    const finish = (err: Error | null, answer?: Buffer) => {
      clearTimeout(timer);
      socket.close();
      if (err) reject(err);
      else resolve(answer!);
    };
    socket.on('error', (err) => finish(err));
    socket.on('message', (answer) => finish(null, answer));
    socket.send(packet, server.port, server.host);
  });
}

function overTcp(server: { host: string; port: number }, packet: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, server.host);
    const chunks: Buffer[] = [];
    socket.setTimeout(TIMEOUT_MS, () => socket.destroy(new Error(`no DNS answer within ${TIMEOUT_MS} ms`)));
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const all = Buffer.concat(chunks);
      if (all.length >= 2 && all.length >= 2 + all.readUInt16BE(0)) {
        socket.end();
        resolve(all.subarray(2, 2 + all.readUInt16BE(0)));
      }
    });
    const length = Buffer.alloc(2);
    length.writeUInt16BE(packet.length);
    socket.write(Buffer.concat([length, packet]));
  });
}

/** The TLSA records of `name` (e.g. `_25._tcp.mx.example.com`) as the server answers them. */
export async function lookupTlsa(server: string, name: string): Promise<TlsaAnswer> {
  const address = serverAddress(server);
  const id = randomInt(0, 0x10000);
  const packet = query(id, name);
  const first = parseTlsaAnswer(await overUdp(address, packet), id);
  const answer = first.truncated ? parseTlsaAnswer(await overTcp(address, packet), id) : first;
  return { secure: answer.secure, records: answer.records };
}
