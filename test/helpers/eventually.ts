import { AsyncLocalStorage } from 'node:async_hooks';
import { inspect } from 'node:util';

/** What a check read last, described only if the wait fails. */
type Seen = () => unknown;

/** The wait a check runs in: what it noted last (a daemon's answer, the sink's messages) and what it told `saw`. */
interface Reading {
  noted: Seen | null;
  told: { value: unknown } | null;
}

const readings = new AsyncLocalStorage<Reading>();

/**
 * Notes what a check inside `eventually` has just read (helpers call it: the daemon's answer to a
 * request, the sink's messages), so that a wait that fails says what it saw. Outside a wait it
 * does nothing; `seen` is only called on failure.
 */
export function noteSeen(seen: Seen): void {
  const reading = readings.getStore();
  if (reading) reading.noted = seen;
}

const MAX_SHOWN = 1200;

/**
 * Every wait's bound is stretched by this factor (POSTMILL_TEST_WAIT_SCALE, default 3): a bound only
 * decides how long a test that will fail takes to say so, and a loaded machine (files side by side,
 * CPU-bound processes beside the suite) makes the daemon's work arrive later, never wrongly.
 */
export const WAIT_SCALE = Math.max(1, Number(process.env.POSTMILL_TEST_WAIT_SCALE) || 3);

/** What a failed wait reports: what the check told `saw`, else what it noted last, else its answer. */
const lastSeen = (reading: Reading, answer: unknown): unknown => (reading.told ? reading.told.value : reading.noted ? reading.noted() : answer);

function describe(value: unknown): string {
  const text = typeof value === 'string' ? value : inspect(value, { depth: 4, breakLength: Infinity, maxArrayLength: 20, maxStringLength: 300 });
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}... (${text.length} characters)` : text;
}

/**
 * Polls `check` until it answers a truthy value, and answers that. Bounded: past `timeoutMs` it
 * fails naming `what` it waited for and what it saw last: what the check handed to `saw`, else
 * what it read last through a helper that notes it (a daemon request, the sink), else its answer.
 */
export async function eventually<T>(
  check: (saw: (value: unknown) => void) => T | null | undefined | false | Promise<T | null | undefined | false>,
  timeoutMs: number,
  what: string,
  everyMs = 40,
): Promise<T> {
  const started = performance.now();
  const reading: Reading = { noted: null, told: null };
  const saw = (value: unknown) => void (reading.told = { value });
  for (let polls = 1; ; polls++) {
    reading.noted = null;
    reading.told = null;
    const answer = await readings.run(reading, () => check(saw));
    if (answer) return answer;
    const waited = performance.now() - started;
    if (waited > timeoutMs * WAIT_SCALE) {
      throw new Error(`waited ${Math.round(waited)} ms (${polls} checks) for ${what}; last saw: ${describe(lastSeen(reading, answer))}`);
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Answers what `promise` answers, or fails past `timeoutMs` naming `what` it waited for: a bound for one long wait. */
export async function within<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`waited ${timeoutMs * WAIT_SCALE} ms for ${what}; it had not come`)), timeoutMs * WAIT_SCALE);
  });
  try {
    return await Promise.race([promise, bound]);
  } finally {
    clearTimeout(timer);
  }
}
