import type { Socket } from 'node:net';
import { Packet, createTCPServer, createUDPServer, type DnsHandler, type Question, type Resource, type TCPServer, type UDPServer } from 'dns2';

/** Record data per type, as tests write them. */
export interface DnsRecords {
  A: string[];
  AAAA: string[];
  MX: { exchange: string; priority: number }[];
  /** Each value is one TXT record; values over 255 bytes go out as several character-strings. */
  TXT: string[];
  NS: string[];
  /** One target name; other types asked of this name follow it within the zone. */
  CNAME: string[];
  /** Reverse DNS: the names of an address, under its in-addr.arpa / ip6.arpa name. */
  PTR: string[];
  /** DANE (RFC 6698): certificate usage, selector, matching type and data. */
  TLSA: { usage: number; selector: number; matchingType: number; data: Buffer }[];
}

export type DnsRecordType = keyof DnsRecords;

export type Misbehaviour = 'silent' | 'servfail';

export interface TestDnsServer {
  /** `127.0.0.1:PORT`, a value for `dns.servers`. */
  address: string;
  port: number;
  /** Replaces the records of one type; an empty list makes the name exist without that type. */
  set<T extends DnsRecordType>(name: string, type: T, records: DnsRecords[T]): void;
  /**
   * Makes questions about `name` go unanswered (`silent`: the resolver times out) or answered
   * SERVFAIL; `clear(name)` ends it.
   */
  misbehave(name: string, how: Misbehaviour): void;
  /**
   * Answers about `name` carry the AD bit (a validating resolver vouching for them, as DANE wants), or
   * stop carrying it with `false`.
   */
  secure(name: string, on?: boolean): void;
  /** How many questions about `name` arrived (every type, every transport). */
  asked(name: string): number;
  /** Forgets one name, or every name. */
  clear(name?: string): void;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
const TTL = 60;
/** RFC 1035 3.3: a character-string is at most 255 bytes. */
const MAX_CHARACTER_STRING = 255;
const MAX_CNAME_HOPS = 8;
/** RFC 1035 4.1.1 (dns2's typings leave out `Packet.RCODE`). */
const NXDOMAIN = 3;
const SERVFAIL = 2;
/** Attempts at finding a port free for both UDP and TCP. */
const BIND_ATTEMPTS = 10;

/** dns2 knows no TLSA: its rdata goes out as raw bytes. */
const TLSA_TYPE = 52;
const typeNumber = (type: DnsRecordType): number => (type === 'TLSA' ? TLSA_TYPE : Packet.TYPE[type]);

const TYPE_NAMES = new Map<number, DnsRecordType>(
  (['A', 'AAAA', 'MX', 'TXT', 'NS', 'CNAME', 'PTR', 'TLSA'] as const).map((type) => [typeNumber(type), type]),
);

/** Record data ready for dns2's encoders, per name and type. */
type Zone = Map<string, Map<DnsRecordType, Partial<Resource>[]>>;

function normalize(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

/** Splits at code point boundaries so that each piece stays valid UTF-8. */
function characterStrings(value: string): string[] {
  const pieces: string[] = [];
  let current = '';
  let size = 0;
  for (const char of value) {
    const charSize = Buffer.byteLength(char);
    if (size + charSize > MAX_CHARACTER_STRING) {
      pieces.push(current);
      current = '';
      size = 0;
    }
    current += char;
    size += charSize;
  }
  pieces.push(current);
  return pieces;
}

const RDATA: { [T in DnsRecordType]: (record: DnsRecords[T][number]) => Partial<Resource> } = {
  A: (address) => ({ address }),
  AAAA: (address) => ({ address }),
  MX: ({ exchange, priority }) => ({ exchange, priority }),
  TXT: (value) => ({ data: characterStrings(value) }),
  NS: (ns) => ({ ns }),
  CNAME: (domain) => ({ domain }),
  PTR: (domain) => ({ domain }),
  TLSA: ({ usage, selector, matchingType, data }) => ({ data: Buffer.concat([Buffer.of(usage, selector, matchingType), data]) as unknown as string }),
};

function resources(name: string, type: DnsRecordType, records: Partial<Resource>[]): Resource[] {
  return records.map((record) => new Packet.Resource({ ...record, name, type: typeNumber(type), class: Packet.CLASS.IN, ttl: TTL }));
}

/** Answers one question from the zone, following CNAMEs inside it. */
function answer(zone: Zone, question: Question, response: Packet): void {
  const type = TYPE_NAMES.get(question.type);
  let name = question.name;
  for (let hop = 0; hop < MAX_CNAME_HOPS; hop++) {
    const entry = zone.get(normalize(name));
    if (!entry) {
      // A CNAME to a name outside the zone is still a good answer.
      if (hop === 0) response.header.rcode = NXDOMAIN;
      return;
    }
    const records = type && entry.get(type);
    if (type && records && records.length > 0) {
      response.answers.push(...resources(name, type, records));
      return;
    }
    const cname = entry.get('CNAME')?.[0];
    if (!cname?.domain) return;
    response.answers.push(...resources(name, 'CNAME', [cname]));
    name = cname.domain;
  }
}

/** What the server does besides answering from the zone: names that misbehave, and the questions counted. */
interface Behaviour {
  misbehaving: Map<string, Misbehaviour>;
  secure: Set<string>;
  asked: Map<string, number>;
}

function handler(zone: Zone, behaviour: Behaviour): DnsHandler {
  return (request, send) => {
    const response = Packet.createResponseFromRequest(request);
    response.header.aa = 1;
    for (const question of request.questions) {
      const name = normalize(question.name);
      behaviour.asked.set(name, (behaviour.asked.get(name) ?? 0) + 1);
      // dns2 writes the AD bit its typings leave out
      if (behaviour.secure.has(name)) Object.assign(response.header, { ad: 1 });
      const misbehaviour = behaviour.misbehaving.get(name);
      if (misbehaviour === 'silent') return;
      if (misbehaviour === 'servfail') response.header.rcode = SERVFAIL;
      else answer(zone, question, response);
    }
    // A client that went away before its answer is no failure of the test.
    Promise.resolve(send(response)).catch(() => undefined);
  };
}

async function listenUdp(server: UDPServer, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.bind(port, HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server.address().port;
}

async function listenTcp(server: TCPServer, port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const onError = () => resolve(false);
    server.once('error', onError);
    server.listen(port, HOST, () => {
      server.off('error', onError);
      resolve(true);
    });
  });
}

function closeUdp(server: UDPServer): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Destroys open client connections too: a resolver may keep one open for reuse. */
function closeTcp(server: TCPServer, sockets: Set<Socket>): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  for (const socket of sockets) socket.destroy();
  return closed;
}

/**
 * A DNS server on loopback for tests, over UDP and TCP on the same port (a client retries
 * over TCP when a UDP answer, such as a 2048-bit DKIM key, is truncated). Unknown names
 * answer NXDOMAIN; a known name without the asked type answers NOERROR with no records.
 */
export async function startDnsServer(): Promise<TestDnsServer> {
  const zone: Zone = new Map();
  const behaviour: Behaviour = { misbehaving: new Map(), secure: new Set(), asked: new Map() };
  const handle = handler(zone, behaviour);
  for (let attempt = 0; attempt < BIND_ATTEMPTS; attempt++) {
    const udp = createUDPServer(handle);
    const tcp = createTCPServer(handle);
    const sockets = new Set<Socket>();
    tcp.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    const port = await listenUdp(udp, 0);
    if (!(await listenTcp(tcp, port))) {
      await closeUdp(udp);
      continue;
    }
    return {
      address: `${HOST}:${port}`,
      port,
      set(name, type, records) {
        const key = normalize(name);
        const entry = zone.get(key) ?? new Map();
        entry.set(type, records.map((record) => RDATA[type](record)));
        zone.set(key, entry);
      },
      misbehave(name, how) {
        behaviour.misbehaving.set(normalize(name), how);
      },
      secure(name, on = true) {
        if (on) behaviour.secure.add(normalize(name));
        else behaviour.secure.delete(normalize(name));
      },
      asked: (name) => behaviour.asked.get(normalize(name)) ?? 0,
      clear(name) {
        if (name === undefined) {
          zone.clear();
          behaviour.misbehaving.clear();
        } else {
          zone.delete(normalize(name));
          behaviour.misbehaving.delete(normalize(name));
        }
      },
      async close() {
        await Promise.all([closeUdp(udp), closeTcp(tcp, sockets)]);
      },
    };
  }
  throw new Error(`no port free for both UDP and TCP after ${BIND_ATTEMPTS} attempts`);
}
