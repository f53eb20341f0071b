import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { Config } from '../config.js';
import type { Dns } from '../dns/resolver.js';
import { failed, passed, reasonOf, type Check } from './check.js';

/** The check's name, also the key of its kept result (doctor_results). */
export const OUTBOUND_CHECK = 'outbound-smtp';
const TIMEOUT_MS = 8000;

/** Connects and reads the server's greeting line (then says QUIT): proof that the port is open end to end. */
function greeting(host: string, port: number, implicitTls: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket: Socket = implicitTls ? tlsConnect({ host, port, servername: host }) : tcpConnect({ host, port });
    socket.setTimeout(TIMEOUT_MS, () => socket.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const line = text.split('\r\n')[0]!;
      if (text.includes('\r\n')) {
        socket.end('QUIT\r\n');
        resolve(line);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error('closed before a greeting')));
  });
}

async function viaRelay(relay: string): Promise<Check> {
  const url = new URL(relay);
  const secure = url.protocol === 'smtps:';
  const port = Number(url.port || (secure ? 465 : 587));
  try {
    const line = await greeting(url.hostname, port, secure);
    if (!line.startsWith('220'))
      return failed(OUTBOUND_CHECK, `the relay ${url.hostname}:${port} greets with "${line}"`, 'Check delivery.relay with your relay provider');
    return passed(OUTBOUND_CHECK, `relay mode: the relay ${url.hostname}:${port} answers "${line}"`);
  } catch (err) {
    return failed(
      OUTBOUND_CHECK,
      `relay mode: cannot reach ${url.hostname}:${port} (${reasonOf(err)})`,
      'Check the host and port of delivery.relay, and that the firewall lets this machine reach them',
    );
  }
}

/** Resolves the probe domain's first MX (or its address) and reads its greeting on delivery.port. */
async function viaMx(dns: Dns, probeDomain: string, port: number): Promise<Check> {
  let host: string;
  let address: string | undefined;
  try {
    const mx = (await dns.mx(probeDomain)).sort((a, b) => a.priority - b.priority);
    host = mx[0]?.exchange ?? probeDomain;
    address = (await dns.a(host))[0] ?? (await dns.aaaa(host))[0];
  } catch (err) {
    return failed(
      OUTBOUND_CHECK,
      `cannot resolve the mail servers of ${probeDomain} (${reasonOf(err)})`,
      'Check dns.servers (or /etc/resolv.conf): delivery needs working DNS',
    );
  }
  if (!address)
    return failed(OUTBOUND_CHECK, `${probeDomain} has no mail server address to try`, 'Run the doctor with --probe-domain naming a domain that receives mail');
  try {
    const line = await greeting(address, port, false);
    return passed(OUTBOUND_CHECK, `${host} (${address}) port ${port} answers "${line}"`);
  } catch (err) {
    return failed(
      OUTBOUND_CHECK,
      `cannot reach ${host} (${address}) on port ${port} (${reasonOf(err)}): outbound port ${port} looks blocked`,
      'Many providers block outbound port 25: ask yours to open it, or deliver through a relay (delivery.mode "relay", delivery.relay "smtps://user:pass@host:465")',
    );
  }
}

const relayOf = (config: Config) => (config.delivery.mode === 'relay' ? config.delivery.relay : null);

/** Whether the check looks up MX hosts through dns.servers (the relay is reached by the system's resolver). */
export const outboundNeedsDns = (config: Config) => config.delivery.mode === 'mx';

/** Outbound SMTP: port 25 to a real MX (mx mode), or the relay (relay mode); capture mode sends nothing. */
export async function checkOutbound(config: Config, dns: Dns, probeDomain: string): Promise<Check> {
  if (config.delivery.mode === 'capture') return passed(OUTBOUND_CHECK, 'delivery.mode is "capture": nothing leaves the machine, port 25 is not needed until you go live');
  const relay = relayOf(config);
  return relay ? viaRelay(relay) : viaMx(dns, probeDomain, config.delivery.port);
}
