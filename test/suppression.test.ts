import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ShiftableClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { assemble } from '../src/assembly.js';
import { upsertContact } from '../src/contacts/service.js';
import { DeliverySummary } from '../src/outbound/summary.js';
import { deliveryJob } from '../src/outbound/deliver-job.js';
import { createDns } from '../src/dns/resolver.js';
import { packMessage } from '../src/emails/packing.js';
import { findEmailById, insertEmail, newEmailRecord, type MessageType, type SourceType } from '../src/emails/store.js';
import type { Logger } from '../src/log.js';
import { createDelivery } from '../src/outbound/engine/deliver.js';
import { createProject } from '../src/projects/service.js';
import { openStore } from '../src/store/db.js';
import { suppress } from '../src/suppressions/store.js';

test('suppressed addresses get no campaign, workflow, MARKETING or HEADLESS mail by any route; TRANSACTIONAL content still goes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'postmill-suppression-'));
  const log: Logger = { debug() {}, info() {}, warn() {}, error() {} };
  const clock = new ShiftableClock();
  const db = openStore(dir);
  // Nothing answers on this resolver: a delivery that is attempted ends deferred, one that is not stays suppressed.
  const dns = createDns(['127.0.0.1:1'], 300);
  const parts = assemble({ db, clock, config: loadConfig(null, {}), log, dns });
  const ctx = parts.core;
  const delivery = createDelivery({ dns, hostname: 'mx.postmill.test', port: 1, mode: 'mx' });
  try {
    const project = createProject(db, clock, 'p');
    const { contact } = upsertContact(ctx, project.id, { email: 'gone@rcpt.test' }, true);
    suppress(db, project.id, 'GONE@rcpt.test', 'bounce', null, clock.now());
    const job = deliveryJob(ctx, { signer: parts.signer, fanouts: parts.fanouts, metrics: parts.metrics, summary: new DeliverySummary(log), delivery, throttle: null, concurrency: 1, maxAgeMs: 3_600_000 });
    const run = async (sourceType: SourceType, messageType: MessageType) => {
      const email = newEmailRecord(
        {
          id: randomUUID(),
          projectId: project.id,
          contactId: contact.id,
          templateId: null,
          campaignId: null,
          sourceType,
          messageType,
          to: contact.email,
          from: 'news@sender.test',
          fromName: null,
          replyTo: null,
          subject: 's',
          senderDomain: 'sender.test',
          messageId: '<m@x>',
          status: 'queued',
        },
        clock.now(),
      );
      insertEmail(db, email, packMessage(Buffer.from('Subject: s\r\n\r\nhello\r\n')));
      await job.run({ id: 1, kind: 'email.deliver', projectId: project.id, payload: { emailId: email.id }, attempts: 1, maxAttempts: 5, runAt: 0, createdAt: 0 });
      return findEmailById(db, project.id, email.id)!.status;
    };
    assert.is(await run('CAMPAIGN', 'MARKETING'), 'suppressed');
    assert.is(await run('WORKFLOW', 'MARKETING'), 'suppressed');
    assert.is(await run('TRANSACTIONAL', 'MARKETING'), 'suppressed', 'MARKETING content through /v1/send');
    assert.is(await run('TRANSACTIONAL', 'HEADLESS'), 'suppressed', 'HEADLESS content through /v1/send');
    assert.is(await run('TRANSACTIONAL', 'TRANSACTIONAL'), 'deferred', 'transactional content is attempted');
  } finally {
    await delivery.close();
    await parts.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
