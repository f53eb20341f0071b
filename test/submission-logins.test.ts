// Password guessing at submission AUTH: bounded per client address and daemon-wide, so rotating
// addresses buys a bounded number of guesses, while a stranger's failures never lock out a client
// that logs in with the right key from its own address.
import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { openEhloSession, type SmtpReply } from './helpers/smtp-session.js';

/** The daemon's budgets (src/submission/failed-logins.ts). */
const CLIENT_FAILURES = 5;
const DAEMON_FAILURES = 100;
const WINDOW_MS = 15 * 60_000;

let env: MailEnv;

test.before(async () => {
  env = await startMailEnv({ config: { submission: { host: '127.0.0.1', port: 0 } } });
});
test.after(async () => env.close());

const guess = () => 'sk_' + randomBytes(32).toString('hex');

/** AUTH PLAIN from `address` with each password in turn, in one session; answers the replies. */
async function logins(address: string, passwords: string[]): Promise<SmtpReply[]> {
  const session = await openEhloSession(env.daemon.submissionPort!, { localAddress: address, tls: true });
  try {
    const replies: SmtpReply[] = [];
    for (const pass of passwords) replies.push(await session.auth(pass));
    return replies;
  } finally {
    session.close();
  }
}

const codes = (replies: SmtpReply[]) => replies.map((r) => r.code);
const rightKey = () => env.daemon.project.secretKey;
/** A new window: every earlier failure has left it. */
const nextWindow = () => env.advance(WINDOW_MS + 1000);

test("five failures from one address close it (454, even for the right key) until the window passes; the right key from another address still logs in", async () => {
  await nextWindow();
  const stranger = await logins('127.0.0.2', Array.from({ length: CLIENT_FAILURES }, guess));
  assert.equal(codes(stranger), Array<number>(CLIENT_FAILURES).fill(535));
  const [closed] = await logins('127.0.0.2', [rightKey()]);
  assert.is(closed!.code, 454);
  assert.match(closed!.text, 'from your address');
  assert.equal(codes(await logins('127.0.0.3', [rightKey()])), [235], 'another address is not held by the stranger');
  await nextWindow();
  assert.equal(codes(await logins('127.0.0.2', [rightKey()])), [235]);
});

test(`rotating addresses buys ${DAEMON_FAILURES} guesses per window, not more; a client that logged in before keeps logging in meanwhile`, async () => {
  await nextWindow();
  const application = '127.0.0.4';
  assert.equal(codes(await logins(application, [rightKey()])), [235], 'the application logged in before the campaign');
  const answered: number[] = [];
  // 30 addresses, each staying within its own budget: 150 guesses
  for (let i = 10; i < 40; i++) answered.push(...codes(await logins(`127.0.0.${i}`, Array.from({ length: CLIENT_FAILURES }, guess))));
  assert.is(answered.filter((c) => c === 535).length, DAEMON_FAILURES, 'guesses looked at');
  assert.is(answered.filter((c) => c === 454).length, 150 - DAEMON_FAILURES, 'guesses refused unseen');

  assert.equal(codes(await logins(application, [rightKey()])), [235], 'the application is not held by the campaign');
  const [fresh] = await logins('127.0.0.60', [rightKey()]);
  assert.is(fresh!.code, 454, 'a client never seen before waits while the campaign lasts: any key it sends would be a guess looked at');
  assert.match(fresh!.text, 'at this server');
  const [wrong] = await logins(application, [guess()]);
  assert.is(wrong!.code, 535, "a trusted client's wrong key is looked at, and counts against its own budget");

  await nextWindow();
  assert.equal(codes(await logins('127.0.0.60', [rightKey()])), [235], 'once the window passes, new clients log in again');
});

test.run();
