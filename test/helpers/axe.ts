// axe-core in the browser tests: its rules run on the page as it stands, and a test is told the
// serious and critical violations (the ones that keep someone from using the page: a missing
// name, text too faint to read, a role without what it requires).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(join(dirname(createRequire(import.meta.url).resolve('axe-core')), 'axe.min.js'), 'utf8');

export interface AxeViolation {
  /** The rule, e.g. `color-contrast`. */
  id: string;
  impact: 'serious' | 'critical';
  help: string;
  /** Each element that fails: its CSS path and axe's account of why. */
  nodes: { target: string; summary: string }[];
}

/**
 * The page's serious and critical axe violations. The source is evaluated through the DevTools
 * protocol rather than added as a <script>: the console's CSP refuses inline scripts, and the
 * refusal would be reported as a problem of the page. Frames are not entered: the console's only
 * frames are email previews, sandboxed without scripts (axe cannot run there) and holding the
 * user's email, not the console; each frame element itself is still checked (its title).
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate('typeof globalThis.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const { axe, document } = globalThis as any;
    const results = await axe.run(document, { resultTypes: ['violations'], iframes: false });
    return (results.violations as any[])
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id as string,
        impact: v.impact as 'serious' | 'critical',
        help: v.help as string,
        nodes: (v.nodes as any[]).map((n) => ({ target: (n.target as unknown[]).join(' > '), summary: n.failureSummary as string })),
      }));
  });
}

/** Violations as lines a failing test can print: rule, impact, help, then each element and why. */
export const describeViolations = (violations: AxeViolation[]): string =>
  violations
    .map((v) => [`${v.id} (${v.impact}): ${v.help}`, ...v.nodes.map((n) => `    ${n.target}: ${n.summary.replace(/\s+/g, ' ')}`)].join('\n'))
    .join('\n');
