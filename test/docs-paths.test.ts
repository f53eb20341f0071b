// The docs name only what exists: every repository path in backticks (`src/...`, `test/...`,
// `console/...`, `schema/...`, `docs/...`, `config/...`, `scripts/...`, `systemd/...`) and every
// relative Markdown link of README.md and docs/ (its #heading too) must be found in the checkout.
// A `*` or a `<placeholder>` in a path stands for any name and must match at least one. A source
// file named without its folder (`pacer.ts`, `dkim/sign.ts`) must be the end of some file's path.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from './helpers/readme.js';

const CHECKED = /^(src|test|console|schema|docs|config|scripts|systemd)\//;
/** A file named by its name (and maybe a folder or two) alone. */
const BARE = /^[\w-][\w./-]*\.(ts|tsx|mjs|sql)$/;
const NOT_SOURCE = new Set(['node_modules', 'dist', '.build-test', '.git', 'data']);

function repositoryFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (NOT_SOURCE.has(name)) return [];
    return statSync(path).isDirectory() ? repositoryFiles(path) : [relative(ROOT, path)];
  });
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? markdownFiles(path) : path.endsWith('.md') ? [path] : [];
  });
}

const DOCS = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];

/** The prose of a Markdown file: fenced blocks hold commands and samples, not references. */
const proseOf = (file: string) => readFileSync(file, 'utf8').replace(/^( *)```[\s\S]*?^\1```$/gm, '');

/** Whether `path` (from the checkout's root) names something, each `*` or `<...>` standing for any name. */
function exists(path: string): boolean {
  let found = [ROOT];
  for (const part of path.split('/').filter(Boolean)) {
    if (!/[*<]/.test(part)) {
      found = found.map((dir) => join(dir, part)).filter((p) => existsSync(p));
      continue;
    }
    const name = new RegExp(`^${part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*|<[^>]*>/g, '.+')}$`);
    found = found.flatMap((dir) => (statSync(dir).isDirectory() ? readdirSync(dir).filter((n) => name.test(n)).map((n) => join(dir, n)) : []));
  }
  return found.length > 0;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
const slugOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const anchorsOf = (file: string) => new Set([...readFileSync(file, 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((m) => slugOf(m[1]!)));

test('the docs cover README.md and docs/ (the decision records included)', () => {
  const names = DOCS.map((f) => relative(ROOT, f));
  for (const doc of ['README.md', 'docs/architecture.md', 'docs/api.md', 'docs/operations.md']) assert.ok(names.includes(doc), doc);
  assert.ok(names.some((n) => n.startsWith('docs/decisions/')), 'docs/decisions/ holds the decision records');
});

test('every repository path in backticks exists', () => {
  const missing: string[] = [];
  const files = repositoryFiles(ROOT);
  let checked = 0;
  for (const file of DOCS) {
    for (const [, span] of proseOf(file).matchAll(/`([^`\n]+)`/g)) {
      const path = span!.trim();
      if (/\s/.test(path)) continue;
      if (CHECKED.test(path)) {
        checked++;
        if (!exists(path)) missing.push(`${relative(ROOT, file)}: \`${path}\``);
      } else if (BARE.test(path)) {
        checked++;
        if (!files.some((f) => f === path || f.endsWith(`/${path}`))) missing.push(`${relative(ROOT, file)}: \`${path}\` (no file of that name)`);
      }
    }
  }
  assert.ok(checked > 50, `the docs name paths (${checked} found): the pattern still reads them`);
  assert.equal(missing, [], `named in the docs but not in the checkout:\n${missing.join('\n')}`);
});

test('every relative Markdown link exists, and so does its heading', () => {
  const broken: string[] = [];
  let checked = 0;
  for (const file of DOCS) {
    for (const [, target] of proseOf(file).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue;
      checked++;
      const [path, anchor] = target!.split('#') as [string, string | undefined];
      const resolved = path === '' ? file : join(dirname(file), decodeURIComponent(path));
      if (!existsSync(resolved)) broken.push(`${relative(ROOT, file)}: (${target}) has no file`);
      else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) broken.push(`${relative(ROOT, file)}: (${target}) has no such heading`);
    }
  }
  assert.ok(checked > 10, `the docs link to one another (${checked} links found)`);
  assert.equal(broken, [], `broken links:\n${broken.join('\n')}`);
});

test.run();
