// How long each test file took at its last run, kept between runs so the next one starts the longest
// files first: with a few files at a time, a long file started last would run alone at the end.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function durationsFile(root) {
  return join(root, 'node_modules', '.cache', 'postmill', 'test-durations.json');
}

/** The seconds of each file at its last run ({} when there was none, or the file is unreadable). */
export function readDurations(file) {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8'));
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}

/** Files in the order to start them: those never timed first (their length is unknown), then the longest. */
export function longestFirst(files, durations) {
  const known = (f) => (typeof durations[f] === 'number' ? durations[f] : Number.POSITIVE_INFINITY);
  return [...files].sort((a, b) => known(b) - known(a) || a.localeCompare(b));
}

/** Adds this run's seconds to what was kept (files not run this time keep theirs). */
export function writeDurations(file, previous, measured) {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ ...previous, ...measured }, null, 1));
  } catch {
    // only an ordering hint: a read-only checkout runs the files in name order
  }
}
