import { lockDataDir } from '../store/lock.js';
import { print, type Command } from './command.js';
import { postmillVersion } from '../runtime/version.js';

export const SERVE: Command = {
  words: ['serve'],
  args: [],
  summary: 'run the daemon until SIGTERM or SIGINT',
  details:
    'Prints the ready line once the listeners are bound. Holds an exclusive lock on the data directory: a second serve on it exits with a message, while the project, backup and doctor commands keep working beside it.',
  run: async (input) => {
    const { config } = input;
    const lock = lockDataDir(config.dataDir, 'stop that daemon first, or give this one another dataDir');
    // Imported here so the other commands stay quick to start.
    const { startDaemon } = await import('../daemon.js');
    const daemon = await startDaemon(config).catch((err: unknown) => {
      lock.release();
      throw err;
    });
    let stopping = false;
    const shutdown = (signal: string) => {
      if (stopping) return;
      stopping = true;
      daemon.parts.core.log.info('shutting down', { signal });
      setTimeout(() => {
        daemon.parts.core.log.error('shutdown took too long, exiting');
        process.exit(1);
      }, 9_500).unref();
      daemon.stop().then(
        () => {
          lock.release();
          process.exit(0);
        },
        (err: unknown) => {
          daemon.parts.core.log.error('shutdown failed', { error: String(err) });
          process.exit(1);
        },
      );
    };
    // Before the ready line: whoever reads it may signal at once.
    process.on('SIGTERM', () => shutdown('SIGTERM'));
    process.on('SIGINT', () => shutdown('SIGINT'));
    const created = daemon.createdProject;
    if (created) {
      print(
        input,
        { project: created, setupUrl: daemon.ownerSetupUrl },
        `Created project "${created.name}" (${created.id}). Its keys are shown only this once:\n  public key: ${created.publicKey}\n  secret key: ${created.secretKey}\n` +
          `Open this link within 24 hours to become its owner in the console (it works once):\n  ${daemon.ownerSetupUrl}`,
      );
    }
    const submission = daemon.submission ? { submission: daemon.submission } : {};
    daemon.parts.core.log.info('postmill started', {
      version: postmillVersion(),
      http: daemon.http,
      smtp: daemon.smtp,
      ...submission,
      publicUrl: config.publicUrl,
      delivery: config.delivery.mode,
      dataDir: config.dataDir,
    });
    if (config.delivery.mode === 'capture') {
      const outbox = `${(config.publicUrl ?? daemon.http).replace(/\/+$/, '')}/app/outbox`;
      print(
        input,
        { deliveryMode: 'capture', outbox },
        `Capture mode: nothing leaves this machine. Every message is kept, signed, in the store: see them at ${outbox}\n` +
          `Try outcomes with delivered@, bounce@, complaint@ or delay@simulator.postmill.invalid (delivery.mode "mx" sends for real)`,
      );
    }
    print(
      input,
      { ready: true, http: daemon.http, smtp: daemon.smtp, ...submission },
      `postmill ready http=${daemon.http} smtp=${daemon.smtp}${daemon.submission ? ` submission=${daemon.submission}` : ''}`,
    );
  },
};
