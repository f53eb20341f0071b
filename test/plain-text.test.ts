import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { htmlToText } from '../src/compose/text/html-to-text.js';
import { plainTextOf } from '../src/compose/text/plain-text.js';

test('tags dropped, blocks on their own lines, skipped elements left out, entities decoded', () => {
  const html = '<html><head><title>T</title><style>p{color:red}</style></head><body><h1>Hi &amp; welcome</h1><p>One&nbsp;two</p><script>x()</script><div>&#x263A; &#9731; &lt;ok&gt; &bogus; caf&eacute; &euro;5</div></body></html>';
  assert.is(plainTextOf(html), 'Hi & welcome\n\nOne two\n\n☺ ☃ <ok> &bogus; café €5', 'blocks are paragraphs');
});

test('unclosed skipped elements and stray brackets cost linear time', () => {
  const hostile = '<style>'.repeat(200_000) + '<p>' + '<'.repeat(200_000);
  const started = performance.now();
  plainTextOf(hostile);
  plainTextOf('<p>a<b'.repeat(200_000));
  // a quadratic scan of this input takes minutes; linear takes milliseconds
  assert.ok(performance.now() - started < 5_000);
});

test('htmlToText uses the linear conversion only for pages over 256 KB', () => {
  const small = '<table><tr><td>a</td><td>b</td></tr></table>';
  assert.is(htmlToText(small), 'a\nb', 'html-to-text layout rules for ordinary pages');
  const large = `<p>${'word '.repeat(60_000)}</p>`;
  assert.is(htmlToText(large), 'word '.repeat(60_000).trim());
});

test.run();
