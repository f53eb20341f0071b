import { resolve } from 'node:path';
import { backupStore, PREVIOUS_SUFFIX, restoreStore } from '../store/backup.js';
import { print, type Command } from './command.js';

export const BACKUP_COMMANDS: Command[] = [
  {
    words: ['backup'],
    args: ['FILE'],
    summary: 'write an online, consistent copy of the store to FILE',
    details:
      'Safe while the daemon runs: SQLite copies a consistent snapshot and the daemon goes on working. The copy holds DKIM private keys and webhook secrets: it is written readable by its owner only (0600). A FILE that is, by any path or link, one of the live store\'s files is refused.',
    run: async (input) => {
      const file = resolve(input.args[0]!);
      const bytes = await backupStore(input.config.dataDir, file);
      print(input, { file, bytes }, `backup written to ${file} (${bytes} bytes)`);
    },
  },
  {
    words: ['restore'],
    args: ['FILE'],
    summary: 'replace the store with a backup; refused while a daemon holds the store',
    details: `Stop the daemon first. The backup is checked before anything is replaced: an intact store of this or an older version, whose tables, indexes, triggers and views are exactly those this version gives a store of that version; the replaced store is kept as postmill.db${PREVIOUS_SUFFIX}. An older backup is migrated at the next start.`,
    run: async (input) => {
      const file = resolve(input.args[0]!);
      await restoreStore(input.config.dataDir, file);
      print(input, { file, restored: true }, `store restored from ${file}; start the daemon`);
    },
  },
];
