import { createSocket } from 'node:dgram';

export interface TestNtpServer {
  /** `127.0.0.1:PORT`, for `postmill doctor --ntp-server`. */
  address: string;
  /** How far this server's clock runs ahead of the machine's (negative: behind). */
  skewMs: number;
  close(): Promise<void>;
}

const NTP_TO_UNIX_S = 2_208_988_800;

function writeTimestamp(packet: Buffer, offset: number, ms: number): void {
  const seconds = Math.floor(ms / 1000);
  packet.writeUInt32BE(seconds + NTP_TO_UNIX_S, offset);
  packet.writeUInt32BE(Math.floor(((ms % 1000) / 1000) * 2 ** 32), offset + 4);
}

/** An SNTP server on loopback that answers with the machine's time plus `skewMs`. */
export async function startNtpServer(skewMs = 0): Promise<TestNtpServer> {
  const socket = createSocket('udp4');
  const server: TestNtpServer = {
    address: '',
    skewMs,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
  socket.on('message', (request, peer) => {
    const reply = Buffer.alloc(48);
    reply[0] = 0x24; // version 4, mode 4 (server)
    reply[1] = 1; // stratum 1
    request.copy(reply, 24, 40, 48); // originate = the client's transmit time
    const now = Date.now() + server.skewMs;
    writeTimestamp(reply, 32, now);
    writeTimestamp(reply, 40, now);
    socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  server.address = `127.0.0.1:${socket.address().port}`;
  return server;
}
