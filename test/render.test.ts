import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { escapeHtml, renderHtml, renderPlain, renderSubject, templateVariables } from '../src/render/render.js';
import { cpuMs } from './helpers/cpu-time.js';

const contact = {
  id: 'c1',
  email: 'ann@example.com',
  firstName: 'Ann',
  data: { firstName: 'Ann', address: { city: 'Lyon', zip: 69001 } },
};

test('plain placeholders, tolerated whitespace and dotted paths', () => {
  assert.is(renderHtml('Hi {{firstName}}!', contact), 'Hi Ann!');
  assert.is(renderHtml('Hi {{  firstName\t}}!', contact), 'Hi Ann!');
  assert.is(renderHtml('{{data.firstName}} in {{ data.address.city }}', contact), 'Ann in Lyon');
  assert.is(renderHtml('{{a.b.c.d.e.f}}', { a: { b: { c: { d: { e: { f: 'deep' } } } } } }), 'deep');
  assert.is(renderHtml('{{first-name}} {{prénom}}', { 'first-name': 'A', prénom: 'B' }), 'A B');
});

test('unknown and missing paths render empty', () => {
  assert.is(renderHtml('[{{nope}}]', contact), '[]');
  assert.is(renderHtml('[{{data.nope.deeper}}]', contact), '[]');
  assert.is(renderHtml('[{{firstName.length}}]', contact), '[]');
  assert.is(renderHtml('[{{email.x}}]', contact), '[]');
});

test('values: numbers, booleans, null, arrays and objects', () => {
  const scope = { n: 42, zero: 0, t: true, f: false, nul: null, list: [1, 'a'], obj: { k: 'v' }, big: 10n };
  assert.is(renderPlain('{{n}} {{zero}} {{t}} {{f}} [{{nul}}] {{big}}', scope), '42 0 true false [] 10');
  assert.is(renderPlain('{{list}} {{obj}}', scope), '[1,"a"] {"k":"v"}');
  assert.is(renderHtml('{{obj}}', scope), '{&quot;k&quot;:&quot;v&quot;}');
  assert.is(renderPlain('{{list.1}}', scope), 'a');
});

test('values that cannot be serialised render empty instead of throwing', () => {
  const circular: Record<string, unknown> = {};
  circular.self = circular;
  const hostile = { toJSON: () => { throw new Error('boom'); } };
  assert.is(renderPlain('[{{circular}}][{{hostile}}][{{fn}}]', { circular, hostile, fn: () => 1 }), '[][][]');
});

test('defaults apply to missing, null and empty values only', () => {
  assert.is(renderHtml('Hi {{name ?? there}}', {}), 'Hi there');
  assert.is(renderHtml('Hi {{name ?? "dear friend"}}', { name: null }), 'Hi dear friend');
  assert.is(renderHtml("Hi {{name ?? 'you'}}", { name: '' }), 'Hi you');
  assert.is(renderHtml('Hi {{ name??there }}', { name: 'Bob' }), 'Hi Bob');
  assert.is(renderHtml('{{count ?? none}}', { count: 0 }), '0');
  assert.is(renderHtml('{{flag ?? none}}', { flag: false }), 'false');
  assert.is(renderHtml('[{{name ?? ""}}]', {}), '[]');
  assert.is(renderHtml('{{name ?? "it\'s"}}', {}), 'it&#39;s');
  assert.is(renderHtml('{{name ?? "unbalanced}}', {}), '&quot;unbalanced');
  assert.is(renderHtml('{{{name ?? <b>raw</b>}}}', {}), '<b>raw</b>');
});

test('HTML values are escaped, triple braces insert raw', () => {
  const scope = { evil: '<script>alert("x")</script> & \'y\'', html: '<b>bold</b>' };
  assert.is(
    renderHtml('<p>{{evil}}</p>', scope),
    '<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;</p>',
  );
  assert.is(renderHtml('<a title="{{evil}}">', scope).includes('"x"'), false);
  assert.is(renderHtml('{{{html}}} {{{ html }}}', scope), '<b>bold</b> <b>bold</b>');
  assert.is(renderHtml('{{{evil}}}', scope), scope.evil);
  assert.is(escapeHtml('plain text'), 'plain text');
});

test('values are never rendered a second time', () => {
  const scope = { a: '{{b}}', b: 'SECRET', c: '{{{b}}}' };
  assert.is(renderHtml('{{a}} {{{c}}}', scope), '{{b}} {{{b}}}');
  assert.is(renderSubject('{{a}}', scope), '{{b}}');
  assert.is(renderPlain('{{a}}', scope), '{{b}}');
});

test('subjects are plain, unescaped and single-line', () => {
  assert.is(renderSubject('Tom & {{name}} <3', { name: '"Jerry"' }), 'Tom & "Jerry" <3');
  assert.is(renderSubject('Hi {{name}}', { name: 'Ann\r\nBcc: x@example.com' }), 'Hi Ann Bcc: x@example.com');
  assert.is(renderSubject('Line one\r\nLine two\nthree\rfour', {}), 'Line one Line two three four');
  assert.is(renderSubject('a{{v}}b', { v: '\0\x07\x1b\x7f\tc' }), 'a\x7f\tcb');
  assert.is(renderSubject('{{v ?? "x\ny"}}', {}), 'x y');
  assert.is(renderSubject('a\r\0\nb\x0b\x0c\x1fc', {}), 'a bc');
  assert.not.match(renderSubject('{{list}}', { list: ['a\nb'] }), /[\r\n]/);
});

test('renderPlain keeps newlines and does not escape', () => {
  assert.is(renderPlain('https://h/{{id}}?q={{q}}\n', { id: 'c1', q: 'a&b<' }), 'https://h/c1?q=a&b<\n');
});

test('prototype paths never resolve', () => {
  const scope = JSON.parse('{"__proto__": {"x": "polluted"}, "data": {}}') as Record<string, unknown>;
  for (const path of ['__proto__', '__proto__.x', 'constructor', 'constructor.name', 'data.constructor',
    'toString', 'data.hasOwnProperty', 'prototype', 'data.__proto__.toString']) {
    assert.is(renderPlain(`[{{${path}}}]`, scope), '[]', path);
  }
  assert.is(renderPlain('{{constructor ?? safe}}', {}), 'safe');
  const inherited = Object.create({ secret: 'inherited' }) as Record<string, unknown>;
  assert.is(renderPlain('[{{secret}}]', inherited), '[]');
});

test('malformed placeholders render literally', () => {
  const scope = { a: 'A' };
  assert.is(renderHtml('{{', scope), '{{');
  assert.is(renderHtml('{{}}', scope), '{{}}');
  assert.is(renderHtml('{{ }}', scope), '{{ }}');
  assert.is(renderHtml('{{a', scope), '{{a');
  assert.is(renderHtml('{{a} }}', scope), '{{a} }}');
  assert.is(renderHtml('{{a b}}', scope), '{{a b}}');
  assert.is(renderHtml('{{.a}} {{a.}} {{a..b}}', scope), '{{.a}} {{a.}} {{a..b}}');
  assert.is(renderHtml('{{{a}}', scope), '{A');
  assert.is(renderHtml('{{a}}}', scope), 'A}');
  assert.is(renderHtml('}}{{a}}{{', scope), '}}A{{');
  assert.is(renderHtml('', scope), '');
});

test('templateVariables lists distinct names in order of first use', () => {
  assert.equal(
    templateVariables('{{b}} {{{ a.x }}} {{b ?? y}} {{c ?? "z"}} {{}} {{__proto__}} {{constructor.x}}'),
    ['b', 'a.x', 'c'],
  );
  assert.equal(templateVariables('no placeholders'), []);
});

test('the same source renders consistently with different scopes', () => {
  const source = '<p>{{name}}</p>';
  assert.is(renderHtml(source, { name: 'x' }), '<p>x</p>');
  assert.is(renderHtml(source, { name: 'y' }), '<p>y</p>');
  assert.is(renderPlain(source, { name: '<z>' }), '<p><z></p>');
});

test('many distinct sources beyond the cache size still render', () => {
  for (let i = 0; i < 600; i++) {
    assert.is(renderPlain(`${i}:{{v}}`, { v: i }), `${i}:${i}`);
  }
});

test('huge and hostile inputs render in bounded time', async () => {
  // CPU time: a loaded machine stretches only the clock
  const ms = await cpuMs(() => {
    const huge = '<p>{{name}}</p>'.repeat(50_000);
    assert.is(renderHtml(huge, { name: 'a' }).length, '<p>a</p>'.length * 50_000);
    assert.is(renderPlain('{{'.repeat(100_000), {}).length, 200_000);
    const spaces = ' '.repeat(100_000);
    for (const unterminated of [`{{a${spaces}`, `{{a ??${spaces}x}`, `{{${'a.'.repeat(50_000)}`, `{{{a${spaces}}`]) {
      // assert.ok: a failing assert.is would print a 100 KB diff.
      assert.ok(renderPlain(unterminated, {}) === unterminated, unterminated.slice(0, 8));
    }
    assert.is(renderPlain(`{{{a${spaces}}}}`, { a: 'A' }), 'A');
  });
  assert.ok(ms < 2000, `${ms.toFixed(0)} ms of CPU`);
});

test.run();
