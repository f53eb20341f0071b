// Logs are pino's JSON lines on stderr (stdout belongs to the ready line and --json output), written
// synchronously so the last lines before a crash or a kill reach the journal.
import { pino } from 'pino';
import type { LogLevel } from './config.js';

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** `{"level":"info","time":"<ISO>","msg":...,...fields}` per line, from `level` up. */
export function createLogger(level: LogLevel, destination: pino.DestinationStream = pino.destination({ fd: 2, sync: true })): Logger {
  const logger = pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  const write = (lvl: LogLevel) => (msg: string, fields?: Record<string, unknown>) => logger[lvl](fields ?? {}, msg);
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
