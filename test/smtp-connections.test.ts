// Connections per client address, the same on both SMTP listeners, and the login deadline of
// submission: one address holding idle connections never shuts other clients out.
import nodemailer from 'nodemailer';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js';
import { eventually, startMailEnv, type MailEnv } from './helpers/mail-env.js';
import { openEhloSession, openSession, type SmtpSession } from './helpers/smtp-session.js';

const CAP = 5;
const CROWD = '127.0.0.2';
const OTHER = '127.0.0.3';

let env: MailEnv;

test.before(async () => {
  env = await startMailEnv({ config: { smtp: { host: '127.0.0.1', port: 0, maxPerClient: CAP }, submission: { host: '127.0.0.1', port: 0 } } });
  await env.verifySender('sender.test');
  env.routeToSink('rcpt.test');
});
test.after(async () => env.close());

interface Listener {
  name: string;
  port: () => number;
}
const listeners: Listener[] = [
  { name: 'inbound', port: () => env.daemon.smtpPort },
  { name: 'submission', port: () => env.daemon.submissionPort! },
];

/** `count` connections from `address`, each past its greeting (a 220, or a refusal). */
async function crowd(port: number, address: string, count: number): Promise<SmtpSession[]> {
  return Promise.all(Array.from({ length: count }, () => openSession(port, { localAddress: address })));
}

for (const listener of listeners) {
  test(`${listener.name}: ${CAP} idle connections from one address take its places, not another's; a refused one frees none`, async () => {
    const port = listener.port();
    const idle = await crowd(port, CROWD, CAP);
    assert.equal(
      idle.map((s) => s.greeting.code),
      Array<number>(CAP).fill(220),
    );
    const extra = await openSession(port, { localAddress: CROWD });
    assert.is(extra.greeting.code, 421);
    assert.match(extra.greeting.text, 'Too many connections from your address');
    await extra.closed;
    // refused sessions are closed too: none of them may free the place of an open one
    for (const again of await crowd(port, CROWD, 3)) assert.is(again.greeting.code, 421, 'still full after refusals');

    const other = await openEhloSession(port, { localAddress: OTHER });
    assert.is(other.greeting.code, 220, 'another address is served');
    other.close();

    idle[0]!.close();
    await idle[0]!.closed;
    const freed = await eventually(async (saw) => {
      const s = await openSession(port, { localAddress: CROWD });
      saw({ greeting: s.greeting });
      if (s.greeting.code === 220) return s;
      s.close();
      return null;
    }, 5000, 'the place of a closed connection free again');
    const after = await openSession(port, { localAddress: CROWD });
    assert.is(after.greeting.code, 421, 'exactly the one place was freed');
    for (const s of [...idle, freed, after]) s.close();
  });
}

test(`submission: with ${CAP} idle connections from one address, another address authenticates and submits`, async () => {
  const idle = await crowd(env.daemon.submissionPort!, CROWD, CAP);
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: env.daemon.submissionPort!,
    localAddress: OTHER,
    secure: false,
    requireTLS: true,
    tls: { rejectUnauthorized: false },
    auth: { user: 'postmill', pass: env.daemon.project.secretKey },
  });
  try {
    const info = await transport.sendMail({ from: 'app@sender.test', to: 'reader@rcpt.test', subject: 'from another address', text: 'hello' });
    assert.match(info.response, /^250 .*Queued as/);
  } finally {
    transport.close();
    for (const s of idle) s.close();
  }
  await eventually(async () => env.sink.messages.some((m) => m.raw.includes('Subject: from another address')), 8000, 'the submission delivered');
});

test('submission: a session that does not log in within submission.loginTimeout is closed with 421; one that did stays', async () => {
  const daemon: TestDaemon = await startTestDaemon({ config: { submission: { host: '127.0.0.1', port: 0, loginTimeout: 1 } } });
  try {
    const port = daemon.submissionPort!;
    const [loggedIn, idle, talking] = await Promise.all([
      openEhloSession(port, { tls: true }),
      openSession(port),
      openEhloSession(port, { tls: true }),
    ]);
    assert.is((await loggedIn.auth(daemon.project.secretKey)).code, 235);
    // a client that dribbles a command a byte at a time keeps the idle timeout from firing, not this:
    // a byte per round trip of the logged-in session (paced by the daemon, well under the 16 KB line bound)
    let open = true;
    void talking.closed.then(() => (open = false));
    const dribble = (async () => {
      while (open) {
        await talking.write('N');
        assert.is((await loggedIn.command('NOOP')).code, 250);
      }
    })();
    const [closing, closingTalker] = await Promise.all([idle.reply(10_000), talking.reply(10_000)]);
    assert.is(closing.code, 421);
    assert.match(closing.text, 'No login within 1 seconds');
    assert.is(closingTalker.code, 421, 'the talker is closed by the login deadline too');
    assert.match(closingTalker.text, 'No login within 1 seconds');
    await idle.closed;
    await talking.closed;
    await dribble;
    assert.is((await loggedIn.command('NOOP')).code, 250, 'the authenticated session is still open');
    loggedIn.close();
  } finally {
    await daemon.dispose();
  }
});

test.run();
