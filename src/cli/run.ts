import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { postmillVersion } from '../runtime/version.js';
import { assertServedEngine } from '../store/engine/served.js';
import { BACKUP_COMMANDS } from './backup.js';
import { CommandFailed, print, UsageError, type Command, type OptionSpec } from './command.js';
import { DOCTOR } from './doctor.js';
import { commandHelp, COMMON_OPTIONS, overview } from './help.js';
import { PROJECT_COMMANDS } from './project.js';
import { SERVE } from './serve.js';
import { USER_COMMANDS } from './user.js';

export const COMMANDS: Command[] = [SERVE, ...PROJECT_COMMANDS, ...USER_COMMANDS, ...BACKUP_COMMANDS, DOCTOR];

const parseOptions = (specs: Record<string, OptionSpec>) => Object.fromEntries(Object.entries(specs).map(([name, o]) => [name, { type: o.type }]));

/** The command named by the leading positionals (the longest match), with the arguments after its words. */
function findCommand(positionals: string[]): { command: Command; args: string[] } | null {
  const matches = COMMANDS.filter((c) => c.words.every((w, i) => positionals[i] === w));
  const command = matches.sort((a, b) => b.words.length - a.words.length)[0];
  return command ? { command, args: positionals.slice(command.words.length) } : null;
}

/** Commands whose first words are `positionals` (`project` -> every project command); all of them for none. */
const group = (positionals: string[]) => COMMANDS.filter((c) => positionals.every((w, i) => c.words[i] === w));

/** Checks the options and arguments `command` got, then runs it; answers the exit code. */
async function runCommand(command: Command, args: string[], values: Record<string, string | boolean | undefined>): Promise<number> {
  const name = command.words.join(' ');
  const own = { ...command.options, ...COMMON_OPTIONS };
  const foreign = Object.keys(values).find((option) => !(option in own));
  if (foreign) throw new UsageError(`${name} takes no option --${foreign}`);
  if (args.length !== command.args.length) {
    throw new UsageError(command.args.length === 0 ? `${name} takes no arguments` : `${name} needs ${command.args.join(' ')}`);
  }
  const defaults = Object.fromEntries(
    Object.entries(command.options ?? {}).flatMap(([option, spec]) => (spec.default === undefined ? [] : [[option, spec.default]])),
  );
  const config = loadConfig(typeof values.config === 'string' ? values.config : null);
  assertServedEngine(config);
  return (await command.run({ args, options: { ...defaults, ...values }, json: values.json === true, config })) ?? 0;
}

/** Parses one command line (node:util parseArgs) and runs its command; answers the exit code. */
async function dispatch(argv: string[]): Promise<number> {
  // Every command's options are parsed at once; runCommand then refuses those that are not the command's own.
  const all = Object.assign({}, ...COMMANDS.map((c) => parseOptions(c.options ?? {})), parseOptions(COMMON_OPTIONS));
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options: all, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { positionals } = parsed;
  // No option is declared `multiple`, so no value is an array.
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.version) {
    print({ json: values.json === true }, { version: postmillVersion() }, postmillVersion());
    return 0;
  }
  const found = findCommand(positionals);
  if (!found) {
    const partial = group(positionals);
    if (!values.help || partial.length === 0) {
      throw new UsageError(positionals.length === 0 ? 'no command given' : `unknown command ${positionals.join(' ')}`);
    }
    process.stdout.write(overview(partial) + '\n');
    return 0;
  }
  if (values.help) {
    process.stdout.write(commandHelp(found.command) + '\n');
    return 0;
  }
  try {
    return await runCommand(found.command, found.args, values);
  } catch (err) {
    if (err instanceof UsageError) err.command ??= found.command;
    throw err;
  }
}

/** The command line: usage errors exit 2 with the usage, failures exit 1 with one line on stderr. */
export async function runCli(argv: string[]): Promise<void> {
  try {
    process.exitCode = await dispatch(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      const near = group(argv.filter((a) => !a.startsWith('-')).slice(0, 1));
      const usage = err.command ? commandHelp(err.command) : overview(near.length > 0 ? near : COMMANDS);
      process.stderr.write(`postmill: ${err.message}\n\n${usage}\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`postmill: ${failure(err)}\n`);
    process.exitCode = 1;
  }
}

/** One line for the operator; the stack only when asked for (POSTMILL_LOG_LEVEL=debug). */
function failure(err: unknown): string {
  if (err instanceof ConfigError || err instanceof CommandFailed) return err.message;
  if (process.env.POSTMILL_LOG_LEVEL === 'debug' && err instanceof Error) return err.stack ?? err.message;
  const text = err instanceof Error ? err.message : String(err);
  return `${text.split('\n')[0]} (POSTMILL_LOG_LEVEL=debug shows the details)`;
}
