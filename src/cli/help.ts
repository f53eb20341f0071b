import type { Command, OptionSpec } from './command.js';

/** Options every command takes. */
export const COMMON_OPTIONS: Record<string, OptionSpec> = {
  config: { type: 'string', value: 'FILE', help: 'the JSON configuration file (environment variables win over it)' },
  json: { type: 'boolean', help: 'machine-readable output on stdout, nothing else on stdout' },
  help: { type: 'boolean', help: 'show this help' },
  version: { type: 'boolean', help: 'print the version and exit (with --json: {"version"})' },
};

const usageLine = (c: Command) =>
  [
    'postmill',
    ...c.words,
    ...c.args,
    ...Object.entries(c.options ?? {}).map(([name, o]) =>
      o.value && o.default === undefined ? `--${name} ${o.value}` : `[--${name}${o.value ? ` ${o.value}` : ''}]`,
    ),
  ].join(' ');

const optionLines = (options: Record<string, OptionSpec>) =>
  Object.entries(options).map(
    ([name, o]) => `  --${`${name}${o.value ? ` ${o.value}` : ''}`.padEnd(24)} ${o.help}${o.default ? ` (default ${o.default})` : ''}`,
  );

/** `postmill --help`, or the commands of a group (`postmill project --help`). */
export function overview(commands: Command[]): string {
  const width = Math.max(...commands.map((c) => [...c.words, ...c.args].join(' ').length));
  return [
    'usage: postmill <command> [--config FILE] [--json] [--help]',
    '       postmill --version [--json]',
    '',
    ...commands.map((c) => `  ${[...c.words, ...c.args].join(' ').padEnd(width)}   ${c.summary}`),
    '',
    'Run `postmill <command> --help` for the options of one command.',
  ].join('\n');
}

/** `postmill <command> --help`. */
export function commandHelp(c: Command): string {
  return [
    `usage: ${usageLine(c)} [--config FILE] [--json]`,
    '',
    c.summary,
    ...(c.details ? ['', c.details] : []),
    '',
    'options:',
    ...optionLines({ ...c.options, ...COMMON_OPTIONS }),
  ].join('\n');
}
