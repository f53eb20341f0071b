// TLS-RPT through the real daemon: sessions to policy domains counted, then a day later the RFC 8460
// report delivered to each rua of the domain's _smtp._tls record, by mail (through the daemon's own
// outbound delivery, to the sink) and by HTTPS POST (to a loopback server of the test's CA); once.
// Report mails carry a DKIM signature of the reporting domain (RFC 8460 3), verified against the
// record `postmill doctor` tells the operator to publish.
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { simpleParser } from 'mailparser';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli } from './helpers/cli.js';
import { verifyDkim } from './helpers/dkim-verify.js';
import { eventually } from './helpers/mail-env.js';
import { dkimSignatureTags, reportKeyRecordIn } from './helpers/report-key.js';
import { selfSigned } from './helpers/test-ca.js';
import { policyText, startTlsEnv, type TlsEnv } from './helpers/tls-peers.js';

const addFormats = formats as unknown as (ajv: Ajv) => Ajv;
const schema = JSON.parse(readFileSync(new URL('../../test/fixtures/tlsrpt-report.schema.json', import.meta.url), 'utf8'));
const validate = addFormats(new Ajv({ allErrors: true, strict: false })).compile(schema);

const DAY = 24 * 3600_000;
let env: TlsEnv;

test.before(async () => {
  env = await startTlsEnv();
});
test.after(async () => env.close());

async function send(to: string): Promise<void> {
  const r = await env.daemon.request('POST', '/v1/send', { to, from: 'hello@sender.test', subject: 'Over TLS', body: '<p>Hi</p>' });
  assert.is(r.status, 200, JSON.stringify(r.body));
  await eventually(async () => env.sink.messages.some((m) => m.rcptTo.includes(to)), 10_000, `${to} delivered`);
}

const reportMails = () => env.sink.messages.filter((m) => m.rcptTo.includes('tlsrpt@reports.test'));
const posts = (path: string) => env.https.requests.filter((r) => r.method === 'POST' && r.path === path);

/** `postmill doctor`'s check of the report signing key. */
async function signingKeyCheck(): Promise<{ name: string; ok: boolean; fix: string | null }> {
  // the doctor looks names up only through DNS that answers for the root
  env.dns.set('.', 'NS', ['a.root-servers.test']);
  const r = await runCli(['doctor', '--json', '--config', env.daemon.configFile, '--probe-domain', 'reports.test', '--ntp-server', '127.0.0.1:1'], {
    POSTMILL_PUBLIC_URL: env.daemon.url,
  });
  const checks = (JSON.parse(r.stdout) as { checks: { name: string; ok: boolean; fix: string | null }[] }).checks;
  const check = checks.find((c) => c.name === 'tls-rpt signing key');
  assert.ok(check, `the doctor checks the report signing key: ${r.stdout}`);
  return check!;
}

/** The signing key's record as `postmill doctor` gives it to the operator. */
async function recordToPublish(): Promise<{ name: string; value: string }> {
  const check = await signingKeyCheck();
  const record = reportKeyRecordIn(check.fix);
  assert.ok(record, `the doctor names the record to publish: ${JSON.stringify(check)}`);
  return record!;
}

/** RFC 8460 3: signed by the reporting domain, the TLS-Report-* headers covered (5.3), the whole body (no l=). */
async function assertSigned(raw: Buffer): Promise<void> {
  const { pass, results } = await verifyDkim(raw, env.dns.address);
  assert.ok(pass, `the report's DKIM signature verifies: ${JSON.stringify(results)}`);
  const tags = dkimSignatureTags(raw);
  assert.is(tags.get('d'), 'mx.postmill.test');
  assert.is(tags.get('l'), undefined);
  const signed = tags.get('h')!.toLowerCase().split(':');
  for (const header of ['tls-report-domain', 'tls-report-submitter', 'from', 'subject']) assert.ok(signed.includes(header), `${header} is signed: h=${tags.get('h')}`);
}

function checked(json: Buffer): any {
  const report = JSON.parse(gunzipSync(json).toString('utf8'));
  assert.ok(validate(report), `the report follows RFC 8460's schema: ${JSON.stringify(validate.errors)}\n${JSON.stringify(report, null, 2)}`);
  return report;
}

test('a day later each policy domain gets its report: mailed through the daemon, DKIM-signed, and POSTed, valid, with the sessions counted', async () => {
  const record = await recordToPublish();
  assert.match(record.name, /^pm\w+\._domainkey\.mx\.postmill\.test$/);
  env.dns.set(record.name, 'TXT', [record.value]);
  await env.publishPolicy('trial.test', '1', policyText('testing', ['mx.trial.test']));
  await env.routeWithCertificate('trial.test', 'mx.trial.test', await selfSigned(['mx.trial.test']));
  await env.publishPolicy('strict.test', '1', policyText('enforce', ['*.strict.test']));
  await env.routeWithCertificate('strict.test', 'mx.strict.test', await env.ca.issue(['mx.strict.test']));
  // the reports' own domain enforces a policy its MX fails: reports go all the same (RFC 8460 5.3)
  env.routeToSink('reports.test');
  await env.publishPolicy('reports.test', '1', policyText('enforce', ['mx.reports.test']));
  env.dns.set('rua.reports.test', 'A', [env.https.address]);
  env.https.certificate('rua.reports.test', await env.ca.issue(['rua.reports.test']));
  env.https.serve('rua.reports.test', '/v1/tlsrpt', { status: 202, body: '' });
  env.dns.set('_smtp._tls.trial.test', 'TXT', ['v=TLSRPTv1; rua=mailto:tlsrpt@reports.test,https://rua.reports.test/v1/tlsrpt']);
  env.dns.set('_smtp._tls.strict.test', 'TXT', ['v=TLSRPTv1;rua=mailto:tlsrpt@reports.test']);

  await send('ann@trial.test');
  await send('ann@strict.test');
  // an MX host the enforce policy does not name: no session is tried, the attempt counts as one that failed
  await env.publishPolicy('nomx.test', '1', policyText('enforce', ['mx.elsewhere.test']));
  await env.routeWithCertificate('nomx.test', 'mx.nomx.test', await env.ca.issue(['mx.nomx.test']));
  env.dns.set('_smtp._tls.nomx.test', 'TXT', ['v=TLSRPTv1; rua=mailto:nomx-reports@reports.test']);
  const r = await env.daemon.request('POST', '/v1/send', { to: 'ann@nomx.test', from: 'hello@sender.test', subject: 'Refused', body: '<p>Hi</p>' });
  const refusedId = r.body.data.emails[0].email;
  await eventually(async () => (await env.daemon.request('GET', `/emails/${refusedId}`)).body.attempts?.[0], 10_000, 'the refused attempt');
  await env.idle();
  assert.is(reportMails().length, 0, 'nothing is reported before the day is over');

  await env.advance(DAY + 3600_000);
  await env.idle();
  const mails = await eventually(async () => (reportMails().length >= 2 ? reportMails() : null), 10_000, 'two report mails');
  assert.is(mails.length, 2);
  const byDomain = new Map<string, any>();
  for (const mail of mails) {
    await assertSigned(mail.raw);
    const parsed = await simpleParser(mail.raw);
    const domain = String(parsed.headers.get('tls-report-domain'));
    assert.is(parsed.headers.get('tls-report-submitter'), 'mx.postmill.test');
    assert.match(String(parsed.subject), new RegExp(`^Report Domain: ${domain.replace('.', '\\.')} Submitter: mx\\.postmill\\.test Report-ID: <[^>]+>$`));
    const contentType = parsed.headers.get('content-type') as { value: string; params: Record<string, string> };
    assert.is(contentType.value, 'multipart/report');
    assert.is(contentType.params['report-type'], 'tlsrpt');
    const attachment = parsed.attachments.find((a) => a.contentType === 'application/tlsrpt+gzip');
    assert.ok(attachment, 'the gzipped report is attached');
    assert.match(String(attachment!.filename), new RegExp(`^mx\\.postmill\\.test!${domain.replace('.', '\\.')}!\\d+!\\d+!\\w+\\.json\\.gz$`));
    const report = checked(attachment!.content);
    // RFC 8460 5.3: the submitter MUST be the domain of the report's contact-info (and 5.1: the file name's sender)
    assert.is(String(report['contact-info']).split('@')[1], 'mx.postmill.test');
    byDomain.set(domain, report);
  }
  const trial = byDomain.get('trial.test');
  assert.is(trial['organization-name'], 'mx.postmill.test');
  const [policy] = trial.policies;
  assert.equal(policy.policy['policy-type'], 'sts');
  assert.equal(policy.policy['mx-host'], ['mx.trial.test']);
  assert.ok(policy.policy['policy-string'].includes('mode: testing'));
  assert.is(policy.summary['total-successful-session-count'], 0);
  assert.ok(policy.summary['total-failure-session-count'] >= 1);
  assert.is(policy['failure-details'][0]['result-type'], 'certificate-not-trusted');
  assert.is(policy['failure-details'][0]['receiving-mx-hostname'], 'mx.trial.test');
  assert.is(policy['failure-details'][0]['receiving-ip'], '127.0.0.1');
  // RFC 8460 4.4: the TLS error as text goes in failure-reason-code; additional-information is a URI
  assert.is(policy['failure-details'][0]['failure-reason-code'], 'DEPTH_ZERO_SELF_SIGNED_CERT');
  assert.is(policy['failure-details'][0]['additional-information'], undefined);
  const nomx = await eventually(async () => env.sink.messages.find((m) => m.rcptTo.includes('nomx-reports@reports.test')), 10_000, 'the report of nomx.test');
  await assertSigned(nomx.raw);
  const nomxReport = checked((await simpleParser(nomx.raw)).attachments[0]!.content).policies[0];
  assert.ok(nomxReport.summary['total-failure-session-count'] >= 1);
  assert.equal(
    nomxReport['failure-details'].map((d: any) => [d['result-type'], d['receiving-mx-hostname'], d['failure-reason-code'], d['additional-information']]),
    [['validation-failure', 'mx.nomx.test', 'mx.nomx.test is not an mx of the policy', undefined]],
  );
  const strict = byDomain.get('strict.test').policies[0];
  assert.ok(strict.summary['total-successful-session-count'] >= 1);
  assert.is(strict.summary['total-failure-session-count'], 0);
  assert.is(strict['failure-details'], undefined);

  // the same report went to the https rua
  const [post] = posts('/v1/tlsrpt');
  assert.is(post!.headers['content-type'], 'application/tlsrpt+gzip');
  assert.equal(checked(post!.body), trial);
});

test('a report is sent once: not again the next day, nor after a kill -9; a failed rua is retried without resending to the others', async () => {
  const before = reportMails().length;
  await env.publishPolicy('retry.test', '1', policyText('enforce', ['mx.retry.test']));
  await env.routeWithCertificate('retry.test', 'mx.retry.test', await env.ca.issue(['mx.retry.test']));
  env.https.serve('rua.reports.test', '/flaky', { status: 503, body: 'busy' });
  env.dns.set('_smtp._tls.retry.test', 'TXT', ['v=TLSRPTv1; rua=mailto:tlsrpt@reports.test,https://rua.reports.test/flaky']);
  await send('ann@retry.test');
  await env.advance(DAY);
  await env.idle();
  await eventually(async () => posts('/flaky').length >= 1, 10_000, 'the flaky rua asked');
  assert.is(reportMails().length, before + 1, 'mailed once');
  await assertSigned(reportMails().at(-1)!.raw);
  await env.daemon.kill();
  const refused = posts('/flaky').length;
  env.https.serve('rua.reports.test', '/flaky', { status: 200, body: '' });
  await env.daemon.restart();
  await env.advance(3 * 3600_000);
  await env.idle();
  await eventually(async () => posts('/flaky').length > refused, 10_000, 'the flaky rua asked again after the restart');
  const asked = posts('/flaky').length;
  assert.equal(checked(posts('/flaky').at(-1)!.body).policies[0].policy['policy-domain'], 'retry.test');
  await env.advance(2 * DAY);
  await env.idle();
  assert.is(posts('/flaky').length, asked, 'not posted again once taken');
  assert.is(reportMails().length, before + 1, 'not mailed again');
  assert.is(posts('/v1/tlsrpt').length, 1, "the first day's report was posted once");
  // the key was made once and kept: the record published before still holds after the restart
  const check = await signingKeyCheck();
  assert.ok(check.ok, JSON.stringify(check));
});

test.run();
