import { spawn } from 'node:child_process';
import { MAIN } from './daemon.js';

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI asynchronously (a loopback server of the test process may have to answer it
 * meanwhile); bounded, so a command that spins is killed and fails its test.
 */
export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 15_000): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
