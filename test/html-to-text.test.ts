import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { htmlToText } from '../src/compose/text/html-to-text.js';

test('paragraphs, headings, lists and entities', () => {
  const text = htmlToText('<h1>Welcome</h1><p>Tom &amp; Jerry</p><ul><li>one</li><li>two</li></ul>');
  assert.is(text, 'WELCOME\n\nTom & Jerry\n\n * one\n * two');
});

test('links show their URL once', () => {
  assert.is(htmlToText('<p>See <a href="https://example.com/a">our site</a>.</p>'), 'See our site [https://example.com/a].');
  assert.is(htmlToText('<a href="https://example.com">https://example.com</a>'), 'https://example.com');
  assert.is(htmlToText('<a href="mailto:ann@example.com">ann@example.com</a>'), 'ann@example.com');
  assert.is(htmlToText('<a href="#top">top</a>'), 'top');
});

test('images keep only their alt text', () => {
  assert.is(htmlToText('<p>a<img src="https://example.com/t/o/x" width="1" height="1">b</p>'), 'ab');
  assert.is(htmlToText('<p><img src="logo.png" alt="ACME"> news</p>'), 'ACME news');
  assert.is(htmlToText('<a href="https://example.com"><img src="logo.png" alt="Logo"></a>'), 'Logo [https://example.com]');
});

test('head, title, style and script never reach the text', () => {
  const html = '<html><head><title>T</title><style>p{color:red}</style></head>'
    + '<body><script>alert(1)</script><p>Body</p></body></html>';
  assert.is(htmlToText(html), 'Body');
  assert.is(htmlToText('<title>T</title><style>x{}</style><p>Fragment</p>'), 'Fragment');
});

test('layout table cells do not run together', () => {
  assert.is(htmlToText('<table><tr><td>left</td><td>right</td></tr><tr><td>next</td></tr></table>'), 'left\nright\nnext');
});

test('long paragraphs wrap at 78 columns but long URLs stay whole', () => {
  const text = htmlToText(`<p>${'word '.repeat(40)}</p><p>https://example.com/${'x'.repeat(100)}</p>`);
  const lines = text.split('\n');
  assert.ok(lines.filter((line) => line.startsWith('word')).every((line) => line.length <= 78));
  assert.ok(lines.includes(`https://example.com/${'x'.repeat(100)}`));
});

test.run();
