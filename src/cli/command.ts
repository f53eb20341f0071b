import type { Config } from '../config.js';

/** An option of one command, as `node:util` parseArgs takes it, with its line of help. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  /** The value's name in help (`NAME`); string options only. */
  value?: string;
  /** What a string option is when not given. */
  default?: string;
  help: string;
}

export interface CommandInput {
  /** The positional arguments after the command's words, one per name in `args`. */
  args: string[];
  options: Record<string, string | boolean | undefined>;
  json: boolean;
  config: Config;
}

/** One command of the command line: `words` name it (`project create`), `run` answers the exit code. */
export interface Command {
  words: string[];
  /** Names of its positional arguments (`ID`, `FILE`). */
  args: string[];
  summary: string;
  /** A paragraph for `--help` beyond the summary. */
  details?: string;
  options?: Record<string, OptionSpec>;
  run(input: CommandInput): Promise<number | void> | number | void;
}

/** Wrong use of the command line: the message and the command's usage are printed, the exit code is 2. */
export class UsageError extends Error {
  /** The command it concerns, when one was named (its usage is shown). */
  command: Command | null = null;
}

/** A command that could not do what was asked (no such project, ...): its message is the whole story. */
export class CommandFailed extends Error {}

/** Prints a result: JSON with --json, otherwise readable lines. */
export function print(input: Pick<CommandInput, 'json'>, value: unknown, human: string): void {
  process.stdout.write((input.json ? JSON.stringify(value) : human) + '\n');
}
