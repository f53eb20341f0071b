// Renders a ~50 KB HTML template with 20 variables for ~2 seconds and reports renders per second.
import { pathToFileURL } from 'node:url';
import { renderHtml, type Scope } from '../../src/render/render.js';

export interface BenchResult {
  name: string;
  figures: Record<string, number | string>;
}

const DURATION_MS = 2000;
const VARIABLE_COUNT = 20;
const TARGET_BYTES = 50_000;
const SCOPE_COUNT = 64;

function buildTemplate(): string {
  const paragraph = '<p style="margin:0 0 16px;font-family:Arial,sans-serif;font-size:15px;line-height:22px;color:#333">'
    + 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore '
    + 'et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris.</p>\n';
  const variables = Array.from({ length: VARIABLE_COUNT }, (_, i) =>
    i % 4 === 0 ? `{{data.profile.field${i}}}` : i % 4 === 1 ? `{{ field${i} ?? "friend" }}` : `{{field${i}}}`);
  // Placeholders spread evenly through the document, one after each run of paragraphs.
  const paragraphsPerVariable = Math.ceil(TARGET_BYTES / VARIABLE_COUNT / paragraph.length);
  return variables.map((variable) => `${paragraph.repeat(paragraphsPerVariable)}<p>${variable}</p>\n`).join('');
}

function buildScope(index: number): Scope {
  const scope: Scope = {};
  const profile: Record<string, string> = {};
  for (let i = 0; i < VARIABLE_COUNT; i++) {
    const value = i % 5 === 0 ? `Tom & "Jerry" <${index}>` : `value-${i}-${index}`;
    scope[`field${i}`] = value;
    profile[`field${i}`] = value;
  }
  scope.data = { profile };
  return scope;
}

export async function run(): Promise<BenchResult> {
  const template = buildTemplate();
  const scopes = Array.from({ length: SCOPE_COUNT }, (_, i) => buildScope(i));
  let renders = 0;
  let checksum = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < DURATION_MS) {
    for (let i = 0; i < 1000; i++) {
      const html = renderHtml(template, scopes[renders % SCOPE_COUNT]);
      // Reading a middle character flattens the concatenated string, as any consumer would.
      checksum += html.charCodeAt(html.length >> 1);
      renders++;
    }
    elapsed = performance.now() - started;
  }
  return {
    name: 'template render (HTML)',
    figures: {
      templateBytes: template.length,
      variables: VARIABLE_COUNT,
      renders,
      seconds: Number((elapsed / 1000).toFixed(2)),
      rendersPerSecond: Math.round((renders * 1000) / elapsed),
      microsecondsPerRender: Number(((elapsed * 1000) / renders).toFixed(2)),
      checksum,
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await run(), null, 2));
}
