#!/usr/bin/env node
// Runs the compiled test files side by side: each file is `uvu .build-test/test <file>` in a child
// process of its own (a file already starts its own daemon, store and ports), a few at a time. Most
// of a file's time is spent waiting on its daemon, so files overlap well on a few cores.
//
//   node scripts/test-files.mjs [FILTER...]    files whose name matches any FILTER (a regex), else all
//
// POSTMILL_TEST_JOBS: files at a time (default: the CPUs, at least 2, at most 4).
// POSTMILL_TEST_FILE_TIMEOUT_S: a file still running after this is stopped and failed (default 600).
// A file's output is printed whole when it ends, so its lines stay together; the last line is
// "N passed, N failed" over all tests, after the names of the files that failed.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { durationsFile, longestFirst, readDurations, writeDurations } from './test-files/durations.mjs';
import { uvuCounts } from './test-files/uvu-report.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TEST_DIR = join('.build-test', 'test');
const UVU = join(root, 'node_modules', 'uvu', 'bin.js');
/** A stopped file's group is killed outright if it has not ended this long after SIGTERM. */
const KILL_AFTER_MS = 10_000;

function positiveInteger(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`${name} must be a whole number of at least 1, not "${raw}"`);
    process.exit(2);
  }
  return value;
}

const jobs = positiveInteger('POSTMILL_TEST_JOBS', Math.min(Math.max(availableParallelism(), 2), 4));
const timeoutMs = positiveInteger('POSTMILL_TEST_FILE_TIMEOUT_S', 600) * 1000;
const filters = process.argv.slice(2).map((f) => new RegExp(f));

const plural = (n, noun) => `${n} ${noun}${n === 1 ? '' : 's'}`;
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The compiled test files, as paths relative to the test folder (what uvu's pattern is matched against). */
const allFiles = () =>
  readdirSync(join(root, TEST_DIR), { recursive: true })
    .map(String)
    .filter((f) => /\.test\.js$/.test(f));

const running = new Set();

/** Runs one file; answers what it printed (stdout and stderr as they came), its counts and how it ended. */
function runFile(file) {
  const started = performance.now();
  const args = [UVU, TEST_DIR, `^${escape(file)}$`];
  if (!process.stdout.isTTY) args.push('--no-color');
  // a process group of its own: stopping the file stops the daemons and servers it started too
  const child = spawn(process.execPath, args, { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const chunks = [];
  child.stdout.on('data', (c) => chunks.push(c));
  child.stderr.on('data', (c) => chunks.push(c));
  let stopped = null;
  const stop = () => {
    stopped = `stopped after ${timeoutMs / 1000} s`;
    killGroup(child, 'SIGTERM');
    setTimeout(() => killGroup(child, 'SIGKILL'), KILL_AFTER_MS).unref();
  };
  const timer = setTimeout(stop, timeoutMs);
  let leftBehind = false;
  child.once('exit', () => {
    // what the file started and did not stop would hold the pipes open and keep using the machine
    leftBehind = killGroup(child, 'SIGKILL');
  });
  return new Promise((resolveRun) => {
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      const output = Buffer.concat(chunks).toString('utf8');
      const counts = uvuCounts(output);
      const seconds = (performance.now() - started) / 1000;
      const problem = stopped ?? (counts === null ? `ended (${signal ?? `exit code ${code}`}) without uvu's summary` : code !== 0 && counts.failed === 0 ? `exit code ${code}` : null);
      resolveRun({ file, output, counts, seconds, problem, leftBehind, ok: problem === null && counts.failed === 0 });
    });
  });
}

/** Sends `signal` to a child's process group; answers whether anything of it was still there. */
function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
    return true;
  } catch {
    return false;
  }
}

function report(result) {
  const { file, output, counts, seconds, problem, leftBehind } = result;
  const tally = counts ? `${counts.passed} passed, ${counts.failed} failed` : 'no tests counted';
  const notes = [tally, `${seconds.toFixed(1)} s`, ...(problem ? [problem] : []), ...(leftBehind ? ['left processes running (killed)'] : [])];
  process.stdout.write(`\n━━ ${result.ok ? 'ok' : 'FAILED'} ${file}: ${notes.join(', ')}\n${output.trimEnd()}\n`);
}

async function main() {
  const all = allFiles();
  const files = filters.length === 0 ? all : all.filter((f) => filters.some((filter) => filter.test(f)));
  if (files.length === 0) {
    console.error(`no test file in ${TEST_DIR} matches ${filters.join(' or ')}`);
    return 1;
  }
  const cache = durationsFile(root);
  // files since removed are forgotten
  const previous = Object.fromEntries(Object.entries(readDurations(cache)).filter(([f]) => all.includes(f)));
  const queue = longestFirst(files, previous);
  const width = Math.min(jobs, queue.length);
  console.log(`${plural(files.length, 'test file')}, ${width} at a time`);
  const started = performance.now();
  const results = [];
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const result = await runFile(file);
      report(result);
      results.push(result);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  writeDurations(cache, previous, Object.fromEntries(results.map((r) => [r.file, Math.round(r.seconds)])));

  const passed = results.reduce((n, r) => n + (r.counts?.passed ?? 0), 0);
  // a file without a summary failed as a whole: at least one test of it
  const failed = results.reduce((n, r) => n + (r.counts ? r.counts.failed : 1), 0);
  const failedFiles = results.filter((r) => !r.ok).sort((a, b) => a.file.localeCompare(b.file));
  const seconds = Math.round((performance.now() - started) / 1000);
  console.log('');
  if (failedFiles.length > 0) console.log(`failed files: ${failedFiles.map((r) => (r.problem ? `${r.file} (${r.problem})` : r.file)).join(', ')}`);
  console.log(`${passed} passed, ${failed} failed (${plural(results.length, 'file')} in ${seconds} s, ${width} at a time)`);
  return failedFiles.length > 0 ? 1 : 0;
}

// Interrupted: the files' daemons are in process groups of their own, which the terminal's signal does not reach.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    for (const child of running) killGroup(child, 'SIGKILL');
    process.exit(130);
  });
}

process.exitCode = await main();
