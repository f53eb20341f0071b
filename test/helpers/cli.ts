import { spawn } from 'node:child_process';
import { MAIN } from './daemon.js';

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI asynchronously (a loopback server of the test process may have to answer it
 * meanwhile); bounded, so a command that spins is killed and fails its test, naming what it printed.
 * Generous: a node process starting on a loaded machine takes seconds.
 */
export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('exit', (status) => {
      clearTimeout(timer);
      if (killed) reject(new Error(`waited ${timeoutMs} ms for \`postmill ${args.join(' ')}\` to exit; it printed ${JSON.stringify(stdout)} and on stderr ${JSON.stringify(stderr)}`));
      else resolve({ status, stdout, stderr });
    });
  });
}
