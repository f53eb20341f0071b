import { Worker } from 'node:worker_threads';
import { decodeHTML } from 'entities';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { htmlToText } from '../src/compose/text/html-to-text.js';
import { plainTextOf } from '../src/compose/text/plain-text.js';
import { cpuMs } from './helpers/cpu-time.js';

test('tags dropped, blocks on their own lines, skipped elements left out, entities decoded', () => {
  const html = '<html><head><title>T</title><style>p{color:red}</style></head><body><h1>Hi &amp; welcome</h1><p>One&nbsp;two</p><script>x()</script><div>&#x263A; &#9731; &lt;ok&gt; &bogus; caf&eacute; &euro;5</div></body></html>';
  assert.is(plainTextOf(html), 'Hi & welcome\n\nOne two\n\n☺ ☃ <ok> &bogus; café €5', 'blocks are paragraphs');
});

test('unclosed skipped elements and stray brackets cost linear time', async () => {
  const hostile = '<style>'.repeat(200_000) + '<p>' + '<'.repeat(200_000);
  const ms = await cpuMs(() => {
    plainTextOf(hostile);
    plainTextOf('<p>a<b'.repeat(200_000));
  });
  // a quadratic scan of this input takes minutes; linear takes milliseconds (of CPU: a loaded machine stretches only the clock)
  assert.ok(ms < 5_000, `${ms.toFixed(0)} ms of CPU`);
});

test('htmlToText uses the linear conversion only for pages over 256 KB', () => {
  const small = '<table><tr><td>a</td><td>b</td></tr></table>';
  assert.is(htmlToText(small), 'a\nb', 'html-to-text layout rules for ordinary pages');
  const large = `<p>${'word '.repeat(60_000)}</p>`;
  assert.is(htmlToText(large), 'word '.repeat(60_000).trim());
});

/** The conversion as it was written first (tags to strings, then global replaces): what plainTextOf must still answer. */
function reference(html: string): string {
  const SKIPPED = new Set(['head', 'style', 'script', 'title']);
  const BLOCKS = new Set(['p', 'div', 'br', 'tr', 'li', 'ul', 'ol', 'table', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'hr', 'section', 'article']);
  const decode = (whole: string) => decodeHTML(whole).replace('\u00a0', ' ');
  const lower = html.toLowerCase();
  const out: string[] = [];
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    if (open === -1) {
      out.push(html.slice(at));
      break;
    }
    out.push(html.slice(at, open));
    const close = html.indexOf('>', open);
    if (close === -1) break;
    const name = /^<\/?([a-z][a-z0-9]*)/i.exec(html.slice(open, Math.min(close + 1, open + 40)))?.[1]?.toLowerCase();
    at = close + 1;
    if (!name) continue;
    if (SKIPPED.has(name) && html[open + 1] !== '/') {
      const end = lower.indexOf(`</${name}`, at);
      at = end === -1 ? html.length : Math.max(lower.indexOf('>', end) + 1, end + 1);
    } else if (BLOCKS.has(name)) out.push('\n');
  }
  return out
    .join('')
    .replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z][a-z0-9]{1,31});/gi, decode)
    .replace(/[ \t\f\v\r]{2,}|[\t\f\v\r]/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

test('the single pass answers what tags, entities and blanks did as strings and global replaces, on random pages', () => {
  const pieces = ['<p>', '</p>', '<br>', '<b>', '</b>', '<style>', '</STYLE>', '<a href="x">', '&amp;', '&', '#', 'x', '4', '1', ';', 'nbsp', '&#x263A;', '&#9731;', '&#0;', '&lt', ' ', '  ', '\t', '\n', '\r\n', '\f', 'a', 'Z', '\u00a0', '中', '<', '>', '&#xD800;', '😀', '&eacute;', '&euro;', '&notin;', '&CounterClockwiseContourIntegral;'];
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let n = 0; n < 3000; n++) {
    const html = Array.from({ length: Math.floor(random() * 40) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
    assert.is(plainTextOf(html), reference(html), JSON.stringify(html));
  }
});

test('a 38 MB page of short lines, tags or entities converts within a 160 MB heap', async () => {
  // in a worker with a bounded heap, as on the heavy thread: the strings and replaces took more than 512 MB
  const source = `
    const { parentPort } = require('node:worker_threads');
    import(${JSON.stringify(new URL('../src/compose/text/plain-text.js', import.meta.url).href)}).then(({ plainTextOf }) => {
      const MB = 1024 * 1024;
      const pages = [() => '<pre>' + ('x'.repeat(71) + '\\n').repeat(38 * MB / 72) + '</pre>', () => 'a\\n'.repeat(19 * MB), () => '<br>'.repeat(9.5 * MB), () => '&amp;'.repeat(7.6 * MB), () => '<div class="a"></div>'.repeat(38 * MB / 21)];
      parentPort.postMessage(pages.map((page) => plainTextOf(page()).length));
    });`;
  const lengths = await new Promise<number[]>((resolve, reject) => {
    const worker = new Worker(source, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 160, maxYoungGenerationSizeMb: 8 } });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  assert.is(lengths.length, 5);
  assert.ok(lengths[0]! > 30 * 1024 * 1024, 'the text of the lines is kept');
});

test.run();
