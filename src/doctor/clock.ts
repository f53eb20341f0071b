import { createSocket } from 'node:dgram';
import { isIP } from 'node:net';
import type { Dns } from '../dns/resolver.js';
import { failed, hostAndPort, passed, reasonOf, type Check } from './check.js';

const NAME = 'clock';
const TIMEOUT_MS = 5000;
/** DKIM signatures, Date headers and link tokens tolerate a little skew; more than this is a broken clock. */
const MAX_SKEW_MS = 5000;
/** Seconds from the NTP epoch (1900) to the Unix epoch (1970). */
const NTP_TO_UNIX_S = 2_208_988_800;

const readTimestamp = (packet: Buffer, offset: number) =>
  (packet.readUInt32BE(offset) - NTP_TO_UNIX_S) * 1000 + (packet.readUInt32BE(offset + 4) / 2 ** 32) * 1000;

/** One SNTP (RFC 4330) exchange: the server's clock minus ours, corrected for the round trip. */
function sntpOffset(address: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = createSocket(isIP(address) === 6 ? 'udp6' : 'udp4');
    const request = Buffer.alloc(48);
    request[0] = 0x23; // version 4, mode 3 (client)
    let sentAt = 0;
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error(`no answer within ${TIMEOUT_MS / 1000} s`));
    }, TIMEOUT_MS);
    socket.once('message', (reply) => {
      const receivedAt = Date.now();
      clearTimeout(timer);
      socket.close();
      if (reply.length < 48) return reject(new Error('short NTP answer'));
      const serverReceived = readTimestamp(reply, 32);
      const serverSent = readTimestamp(reply, 40);
      resolve((serverReceived - sentAt + (serverSent - receivedAt)) / 2);
    });
    socket.once('error', (err) => {
      clearTimeout(timer);
      socket.close();
      reject(err);
    });
    sentAt = Date.now();
    socket.send(request, port, address);
  });
}

/** The local clock against an NTP server (`host` or `host:port`, resolved through dns.servers). */
export async function checkClock(dns: Dns, server: string): Promise<Check> {
  const { host, port } = hostAndPort(server, 123);
  let offset: number;
  try {
    const address = isIP(host) ? host : ((await dns.a(host))[0] ?? (await dns.aaaa(host))[0]);
    if (!address) throw new Error(`${host} has no address`);
    offset = await sntpOffset(address, port);
  } catch (err) {
    return failed(
      NAME,
      `cannot ask ${server} for the time (${reasonOf(err)})`,
      'Allow outbound UDP 123, or run the doctor with --ntp-server naming a reachable NTP server',
    );
  }
  const skew = `${offset > 0 ? 'behind' : 'ahead of'} ${server} by ${(Math.abs(offset) / 1000).toFixed(2)} s`;
  if (Math.abs(offset) > MAX_SKEW_MS) {
    return failed(NAME, `the clock is ${skew}`, 'Turn on time synchronisation: timedatectl set-ntp true (systemd-timesyncd), or install chrony');
  }
  return passed(NAME, `the clock is ${skew}`);
}
