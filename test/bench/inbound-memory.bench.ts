// Issue 32 item 5: the daemon's memory while many clients send large messages at once. Each round
// starts a daemon, opens SESSIONS inbound sessions and has each send a message of MESSAGE_MB inside
// DATA, all at once; once the daemon has read every byte (its read count, /proc/<pid>/io), the
// final dots go out and the replies are counted. The figures are the daemon's peak RSS (the
// kernel's high-water mark) above its RSS before, against the configured smtp.dataBudget: while
// every session is inside DATA, and until the last reply (the messages joined and stored; the
// processing of the first ones has begun by then). A second round with a budget that holds every
// message shows what the same load costs without the bound.
//   INBOUND_MEMORY_SESSIONS (10), INBOUND_MEMORY_MESSAGE_MB (39), INBOUND_MEMORY_BUDGET_MB (the default, 256)
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../../src/config.js';
import { eventually, startMailEnv } from '../helpers/mail-env.js';
import { openEhloSession, type SmtpSession } from '../helpers/smtp-session.js';
import type { BenchResult } from './load.js';

const MB = 1024 * 1024;
const SESSIONS = Number(process.env.INBOUND_MEMORY_SESSIONS ?? 10);
const MESSAGE = Number(process.env.INBOUND_MEMORY_MESSAGE_MB ?? 39) * MB;
const MAX_SIZE = MESSAGE + MB;

const BUDGET = process.env.INBOUND_MEMORY_BUDGET_MB ? Number(process.env.INBOUND_MEMORY_BUDGET_MB) * MB : loadConfig(null, {}).smtp.dataBudget;

const procField = (pid: number, file: string, field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/${file}`, 'utf8'))![1]);
const rssMb = (pid: number) => Math.round(procField(pid, 'status', 'VmRSS') / 1024);
const peakMb = (pid: number) => Math.round(procField(pid, 'status', 'VmHWM') / 1024);
/** Bytes the process has read through read(2) and its kin, sockets included. */
const bytesRead = (pid: number) => procField(pid, 'io', 'rchar');

/** Writes about `bytes` of a message (headers, then 1000-byte lines), made as it goes: the bench holds none of it. */
async function writeMessage(session: SmtpSession, subject: string, bytes: number): Promise<void> {
  await session.write(`From: sender@client.test\r\nTo: support@inbox.test\r\nSubject: ${subject}\r\n\r\n`);
  const batch = Buffer.from(('x'.repeat(998) + '\r\n').repeat(64));
  for (let sent = 0; sent < bytes; sent += batch.length) await session.write(batch);
}

async function openData(port: number): Promise<SmtpSession> {
  const session = await openEhloSession(port, { timeoutMs: 600_000 });
  for (const [line, code] of [['MAIL FROM:<sender@client.test>', 250], ['RCPT TO:<support@inbox.test>', 250], ['DATA', 354]] as const) {
    const reply = await session.command(line);
    if (reply.code !== code) throw new Error(`${line}: ${reply.text}`);
  }
  return session;
}

interface Round {
  replies: number[];
  beforeMb: number;
  /** The peak RSS while every session is inside DATA, and until the last reply. */
  inDataMb: number;
  peakMb: number;
  seconds: number;
}

async function round(budget: number): Promise<Round> {
  const env = await startMailEnv({ config: { log: { level: 'error' }, smtp: { maxSize: MAX_SIZE, dataBudget: budget, maxPerClient: SESSIONS } } });
  try {
    await env.verifySender('inbox.test');
    const pid = env.daemon.pid();
    const sessions = await Promise.all(Array.from({ length: SESSIONS }, () => openData(env.daemon.smtpPort)));
    // 5: resets the peak RSS (VmHWM) to the RSS now (proc(5), clear_refs)
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    const beforeMb = rssMb(pid);
    const readBefore = bytesRead(pid);
    const started = performance.now();
    await Promise.all(sessions.map((s, i) => writeMessage(s, `large ${i}`, MESSAGE)));
    // every byte read by the daemon (kept, or dropped past the budget) before a session ends its message
    await eventually(() => bytesRead(pid) - readBefore >= SESSIONS * MESSAGE, 600_000, 'the daemon reading every message', 100);
    const inDataMb = peakMb(pid);
    const replies = await Promise.all(
      sessions.map(async (s) => {
        await s.write('.\r\n');
        const reply = await s.reply();
        s.close();
        return reply.code;
      }),
    );
    return { replies, beforeMb, inDataMb, peakMb: peakMb(pid), seconds: (performance.now() - started) / 1000 };
  } finally {
    await env.close();
  }
}

const count = (replies: number[], code: number) => replies.filter((c) => c === code).length;

export async function run(): Promise<BenchResult> {
  const figures: Record<string, string | number> = {
    sessions: SESSIONS,
    'message MB': MESSAGE / MB,
    'offered at once MB': (SESSIONS * MESSAGE) / MB,
  };
  const rounds: [string, number][] = [
    [`smtp.dataBudget ${BUDGET / MB} MB`, BUDGET],
    ['a budget that holds every message', SESSIONS * MAX_SIZE],
  ];
  for (const [name, budget] of rounds) {
    const r = await round(budget);
    const ofBudget = (mb: number) => `${mb - r.beforeMb} MB (${((mb - r.beforeMb) / (budget / MB)).toFixed(2)} of the budget, ${budget / MB} MB)`;
    figures[`${name}: 250 / 452`] = `${count(r.replies, 250)} / ${count(r.replies, 452)}`;
    figures[`${name}: daemon RSS before MB`] = r.beforeMb;
    figures[`${name}: peak above before, every session inside DATA`] = ofBudget(r.inDataMb);
    figures[`${name}: peak above before, until the last reply`] = ofBudget(r.peakMb);
    figures[`${name}: sent and answered in s`] = Math.round(r.seconds);
  }
  return { name: 'inbound-memory', figures };
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
