// The README's quickstart as data: its fenced code blocks, so a test runs the very commands a
// newcomer copies (and the README cannot drift from what works).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..', '..', '..');

export interface CodeBlock {
  /** The info string after the opening fence (`sh`), empty for none. */
  lang: string;
  /** The block's lines, indentation of a list item removed. */
  lines: string[];
}

/** The text of the README section whose heading starts with `heading`, up to the next `## `. */
export function readmeSection(heading: string): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(`\n## ${heading}`);
  if (start < 0) throw new Error(`README.md has no section "## ${heading}"`);
  const next = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, next < 0 ? undefined : next);
}

/** The fenced code blocks of the README section whose heading starts with `heading`. */
export function readmeBlocks(heading: string): CodeBlock[] {
  return [...readmeSection(heading).matchAll(/^( *)```(\w*)\n([\s\S]*?)^\1```$/gm)].map((m) => ({
    lang: m[2]!,
    lines: m[3]!
      .split('\n')
      .slice(0, -1)
      .map((line) => line.slice(m[1]!.length)),
  }));
}

/** A shell command without its trailing comment (`npm start    # ...` -> `npm start`). */
export const withoutComment = (line: string): string => line.replace(/\s+#.*$/, '').trim();

/** The commands of the shell blocks: continued lines (ending in `\`) joined, comments dropped. */
export function commandsOf(blocks: CodeBlock[]): string[] {
  const text = blocks
    .filter((b) => b.lang === 'sh')
    .map((b) => b.lines.join('\n'))
    .join('\n');
  return text
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map(withoutComment)
    .filter((line) => line !== '');
}

/** A line of sample output as a pattern: `...` stands for anything, the README's default ports for any port. */
export function samplePattern(line: string): RegExp {
  const escaped = line.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\\\.\\\.\\\./g, '.+').replace(/:(3000|2525)\b/g, ':\\d+')}$`);
}
