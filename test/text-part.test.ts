import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { htmlToText } from '../src/compose/text/html-to-text.js';
import { textTemplateOf } from '../src/compose/text/text-part.js';
import { renderHtml, renderPlain } from '../src/render/render.js';

const scope = { name: 'Ann <b>&', data: { city: 'Paris' }, unsubscribeUrl: 'https://p.test/u/T' };

test('the text template keeps placeholders through conversion and renders like converting each page', () => {
  const html =
    '<html><body><h1>Hello {{name}}</h1><p>Weather in {{ data.city }} is {{weather ?? "fine"}}, really fine, today and tomorrow and the day after.</p>' +
    '<a href="{{unsubscribeUrl}}">Unsubscribe</a></body></html>';
  const template = textTemplateOf(html)!;
  assert.ok(template.includes('{{name}}') && template.includes('{{weather ?? "fine"}}'), template);
  const once = renderPlain(template, scope);
  assert.match(once, /hello Ann <b>&/i, 'values are inserted as given (the heading itself is upper-cased)');
  assert.match(once, 'Weather in Paris is fine');
  assert.match(once, 'Unsubscribe [https://p.test/u/T]');
  // Per-page conversion says the same, but upper-cases heading values too; the text template leaves values as given.
  assert.match(htmlToText(renderHtml(html, scope)), 'Weather in Paris is fine');
});

test('raw HTML placeholders fall back to per-recipient conversion', () => {
  assert.is(textTemplateOf('<p>{{{banner}}}</p>'), null);
});

test('the same source is converted once', () => {
  const html = '<p>Hi {{name}}</p>';
  assert.is(textTemplateOf(html), textTemplateOf(html));
});

test.run();
