import { Packet, createTCPServer, createUDPServer, type DnsHandler, type TCPServer, type UDPServer } from 'dns2';

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
}

export type DnsRecordType = keyof DnsRecords;

export interface TestDnsServer {
  /** `127.0.0.1:PORT`, a value for `dns.servers`. */
  address: string;
  port: number;
  /** Replaces the records of one type; an empty list makes the name exist without that type. */
  set<T extends DnsRecordType>(name: string, type: T, records: DnsRecords[T]): void;
  /** Forgets one name, or every name. */
  clear(name?: string): void;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
const TTL = 60;
/** RFC 1035 3.3: a character-string is at most 255 bytes. */
const MAX_CHARACTER_STRING = 255;
const MAX_CNAME_HOPS = 8;
/** Attempts at finding a port free for both UDP and TCP. */
const BIND_ATTEMPTS = 10;

const TYPE_NAMES = new Map<number, DnsRecordType>(
  (['A', 'AAAA', 'MX', 'TXT', 'NS', 'CNAME'] as const).map((type) => [Packet.TYPE[type], type]),
);

type Zone = Map<string, Partial<DnsRecords>>;

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

function rdata<T extends DnsRecordType>(type: T, record: DnsRecords[T][number]): Partial<Packet.Resource> {
  switch (type) {
    case 'MX':
      return record as DnsRecords['MX'][number];
    case 'TXT':
      return { data: characterStrings(record as string) };
    case 'NS':
      return { ns: record as string };
    case 'CNAME':
      return { domain: record as string };
    default:
      return { address: record as string };
  }
}

function resources<T extends DnsRecordType>(name: string, type: T, records: DnsRecords[T]): Packet.Resource[] {
  return records.map(
    (record) => new Packet.Resource({ name, type: Packet.TYPE[type], class: Packet.CLASS.IN, ttl: TTL, ...rdata(type, record) }),
  );
}

/** Answers one question from the zone, following CNAMEs inside it. */
function answer(zone: Zone, question: Packet.Question, response: Packet): void {
  const type = TYPE_NAMES.get(question.type);
  let name = question.name;
  for (let hop = 0; hop < MAX_CNAME_HOPS; hop++) {
    const entry = zone.get(normalize(name));
    if (!entry) {
      // A CNAME to a name outside the zone is still a good answer.
      if (hop === 0) response.header.rcode = Packet.RCODE.NXDOMAIN;
      return;
    }
    const records = type && entry[type];
    if (type && records && records.length > 0) {
      response.answers.push(...resources(name, type, records));
      return;
    }
    const target = entry.CNAME?.[0];
    if (!target) return;
    response.answers.push(...resources(name, 'CNAME', [target]));
    name = target;
  }
}

function handler(zone: Zone): DnsHandler {
  return (request, send) => {
    const response = Packet.createResponseFromRequest(request);
    response.header.aa = 1;
    for (const question of request.questions) answer(zone, question, response);
    void send(response);
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

function closeTcp(server: TCPServer): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * A DNS server on loopback for tests, over UDP and TCP on the same port (a client retries
 * over TCP when a UDP answer, such as a 2048-bit DKIM key, is truncated). Unknown names
 * answer NXDOMAIN; a known name without the asked type answers NOERROR with no records.
 */
export async function startDnsServer(): Promise<TestDnsServer> {
  const zone: Zone = new Map();
  const handle = handler(zone);
  for (let attempt = 0; attempt < BIND_ATTEMPTS; attempt++) {
    const udp = createUDPServer(handle);
    const tcp = createTCPServer(handle);
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
        zone.set(key, { ...zone.get(key), [type]: records });
      },
      clear(name) {
        if (name === undefined) zone.clear();
        else zone.delete(normalize(name));
      },
      async close() {
        await Promise.all([closeUdp(udp), closeTcp(tcp)]);
      },
    };
  }
  throw new Error(`no port free for both UDP and TCP after ${BIND_ATTEMPTS} attempts`);
}
