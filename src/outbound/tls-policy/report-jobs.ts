// TLS-RPT sending (RFC 8460 5): once a day, each policy domain with sessions counted on an earlier day
// gets one report made, of the latest such day (kept in the store, its counts dropped), and a durable
// job that delivers it to the first two rua of the domain's `_smtp._tls` record (tlsrpt-record.ts):
// mailto: through our own outbound delivery, https: by POST through the webhooks' guarded client. Mailed reports are DKIM-signed with the daemon's own key
// for d=<hostname> (report-key.ts). Each rua that took the report is written down at once,
// so a retry (or a restart after kill -9) never sends it there again.
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Core } from '../../core.js';
import type { Dns } from '../../dns/resolver.js';
import { recurring, scheduleRecurring } from '../../jobs/recurring.js';
import type { JobRunner } from '../../jobs/runner.js';
import { sendWebhook } from '../../webhooks/request.js';
import { signParts } from '../dkim/sign.js';
import type { Delivery } from '../engine/deliver.js';
import { buildReport, reportFileName } from './report.js';
import { reportKey, reportSigning } from './report-key.js';
import { reportMessage } from './report-mail.js';
import { trustedCas } from './setup.js';
import { countsOf, domainsToReport, forgetReportsBefore, markDelivered, readReport, reportDay, saveReport } from './store.js';
import { reportUris } from './tlsrpt-record.js';

export const TLS_REPORTS_JOB = 'tls-rpt.daily';
export const TLS_REPORT_SEND_JOB = 'tls-rpt.send';
const DAY_MS = 24 * 3600_000;
/** Reports are made a little after midnight UTC, when the day they cover is over. */
const AFTER_MIDNIGHT_MS = 15 * 60_000;
/** Counts and reports older than this are forgotten, sent or not. */
const KEEP_DAYS = 14;
const SEND_ATTEMPTS = 12;
const POST_TIMEOUT_MS = 30_000;

interface SendPayload {
  day: string;
  policyDomain: string;
}

export function tlsReportJobs(runner: JobRunner, core: Core, tools: { dns: Dns; delivery: Delivery }): void {
  const { db, clock, config, jobs, log } = core;
  const submitter = config.hostname;
  const ca = trustedCas(config.delivery.tls.caFile);

  /** Makes the reports of finished days, each with its send job, in one transaction per report. */
  function makeReports(): void {
    const now = clock.now();
    forgetReportsBefore(db, reportDay(now - KEEP_DAYS * DAY_MS));
    if (!config.delivery.tls.reports) return;
    for (const { day, policyDomain } of domainsToReport(db, reportDay(now))) {
      const reportId = `${randomUUID()}@${submitter}`;
      const report = buildReport({ organization: submitter, contact: `postmaster@${submitter}`, reportId, day, policyDomain, rows: countsOf(db, day, policyDomain) });
      db.transaction(() => {
        saveReport(db, day, policyDomain, reportId, gzipSync(JSON.stringify(report)), now);
        jobs.enqueue(TLS_REPORT_SEND_JOB, { day, policyDomain } satisfies SendPayload, { uniqueKey: `tls-rpt:${day}:${policyDomain}`, maxAttempts: SEND_ATTEMPTS });
      })();
    }
  }

  async function sendTo(uri: string, payload: SendPayload, report: { reportId: string; gzipped: Buffer }): Promise<void> {
    const fileName = reportFileName(submitter, payload.day, payload.policyDomain, report.reportId.split('@')[0]!.slice(0, 8));
    const url = new URL(uri);
    if (url.protocol === 'https:') {
      const response = await sendWebhook(
        { url: uri, method: 'POST', headers: { 'content-type': 'application/tlsrpt+gzip' }, originHeaders: {}, body: report.gzipped },
        { dns: tools.dns, allowPrivate: config.webhooks.allowPrivate, timeoutMs: POST_TIMEOUT_MS, maxRedirects: 0, ...(ca ? { ca } : {}) },
      );
      if (response.status < 200 || response.status > 299) throw new Error(`${uri} answered HTTP ${response.status}`);
      return;
    }
    if (config.delivery.mode === 'capture') throw new Error('reports are not mailed in capture mode');
    const to = decodeURIComponent(url.pathname);
    const from = `tls-reports@${submitter}`;
    const now = clock.now();
    const raw = reportMessage({ from, to, submitter, policyDomain: payload.policyDomain, reportId: report.reportId, fileName, gzipped: report.gzipped, date: new Date(now) });
    // RFC 8460 3: an unsigned report MUST be ignored; once a day, signed here rather than on a mail thread
    const signed = signParts(raw, reportSigning(await reportKey(db, now), submitter), now);
    // RFC 8460 5.3: delivered despite TLS failures, which the next report would otherwise never tell
    const result = await tools.delivery.deliver({ emailId: report.reportId, from, to, head: signed.header, raw: signed.message, tlsPolicy: false });
    if (result.status === 'bounced') {
      // a permanent refusal: asking again would be refused again
      log.warn('TLS-RPT report refused', { to, policyDomain: payload.policyDomain, response: result.response });
      return;
    }
    if (result.status !== 'delivered') throw new Error(`${to}: ${'response' in result ? result.response : result.status}`);
  }

  runner.register(TLS_REPORTS_JOB, recurring(clock, DAY_MS, makeReports));
  runner.register<SendPayload>(TLS_REPORT_SEND_JOB, {
    concurrency: 2,
    async run(job) {
      const report = readReport(db, job.payload.day, job.payload.policyDomain);
      if (!report) return;
      const uris = reportUris(await tools.dns.txt(`_smtp._tls.${job.payload.policyDomain}`));
      const delivered = [...report.delivered];
      const failures: string[] = [];
      for (const uri of uris.filter((u) => !delivered.includes(u))) {
        try {
          await sendTo(uri, job.payload, report);
          delivered.push(uri);
          markDelivered(db, job.payload.day, job.payload.policyDomain, delivered);
        } catch (err) {
          failures.push(`${uri}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      if (failures.length > 0) throw new Error(`TLS-RPT report not delivered to ${failures.join('; ')}`);
    },
  });
  const nextDay = Math.floor(clock.now() / DAY_MS + 1) * DAY_MS;
  scheduleRecurring(jobs, TLS_REPORTS_JOB, nextDay + AFTER_MIDNIGHT_MS);
}
