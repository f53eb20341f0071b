import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { renderHtml, type Scope } from '../src/render/render.js';
import { addTracking, type TrackingLinks } from '../src/tracking/rewrite.js';
import { renderTrackedHtml } from '../src/tracking/tracked-html.js';

const OWN = 'https://p.test';

/** Links that number their click URLs in the order they are asked for: both ways must ask alike. */
function numberedLinks(): TrackingLinks {
  let clicks = 0;
  return { ownBase: OWN, openUrl: `${OWN}/t/o/open&x`, clickUrl: (url) => `${OWN}/t/c/${++clicks}?to=${url}` };
}

/** The planned rendering says exactly what rendering the page and then adding tracking says. */
function assertSame(source: string, scope: Scope): void {
  const planned = renderTrackedHtml(source, scope, numberedLinks());
  assert.is(planned, addTracking(renderHtml(source, scope), numberedLinks()), JSON.stringify({ source, scope }));
}

const HOSTILE_VALUES = ['', '<a href="https://raw.test/">raw</a></body>', 'Ann', 'Zoë', ' href="https://evil.test/"', 'a', 'b href=', '  ', '<b>', '"q"', "it's", '&amp;', 'https://v.test/x', 'Привет', '😀', 'x'.repeat(100)];

test('tracking a template once renders what tracking each rendered page does', () => {
  const sources = [
    '<html><body><h1>Hello {{name}}</h1><p><a href="https://news.test/a">story</a> and <a href="https://news.test/a">again</a></p><a href="{{unsubscribeUrl}}">Unsubscribe</a></body></html>',
    '<p><a href="https://shop.test/?u={{id}}&amp;c=1">{{name}}</a> <a href=\'https://bücher.test/straße?ä={{name}}\'>de</a></p>',
    '<A HREF = "HTTPS://X.TEST/{{name}}">up</A><a\nclass="b"\nhref="https://y.test/">nl</a>',
    '<a href="mailto:{{email}}">mail</a><a href="#top">top</a><a href="{{link}}">var</a><a href="  https://t.test/trim  ">t</a>',
    '<a href="&#x68;ttps://ent.test/&amp;x">entities</a><a href="https://exa mple.test/">invalid</a>',
    '<a title="{{name}}" href="https://x.test/">title before href</a>',
    '<a{{name}} href="https://x.test/">glued</a><abbr title="{{name}}">abbr</abbr>',
    '<a data-x={{name}}"https://x.test/">half</a>',
    '<body>no close {{name}}<a href="https://x.test/">x</a>',
    '<body>{{name}}</body >tail</BODY>',
    '<body></body{{name}}>',
    '<a href="https://x.test/</body>">inside</a></body>',
    '<a href="https://x.test/ unterminated {{name}} <a href=\'https://y.test/\'>y</a>',
    '<p>{{{raw}}}</p><a href="https://x.test/">x</a></body>',
    'no links at all, {{name}}',
  ];
  const links = ['https://l.test/1', 'javascript:alert(1)', `${OWN}/u/token`, 'https://l.test/ä ö'];
  for (const source of sources) {
    for (const value of HOSTILE_VALUES) {
      assertSame(source, { name: value, id: 7, email: 'a@b.test', link: links[value.length % links.length], unsubscribeUrl: `${OWN}/u/T`, raw: value });
    }
  }
});

test('tracking a template once renders what tracking each rendered page does, on random templates', () => {
  const pieces = ['<a href="', '<a ', '<A HREF=', "<a\nhref='", 'href=', '{{x}}', '{{{y}}}', '{{y ?? "d"}}', 'https://a.test/p?q=1&amp;r=2', `${OWN}/m/z`, '"', "'", '>', '</a>', '</body>', '</BODY >', '<body>', ' ', 'text', '=', '\n', 'é', '<abbr title="', '<a title="', 'mailto:a@b.test'];
  let seed = 11;
  const next = (n: number) => (seed = (seed * 16807) % 2147483647) % n;
  for (let k = 0; k < 5000; k++) {
    let source = '';
    for (let j = next(30); j > 0; j--) source += pieces[next(pieces.length)];
    assertSame(source, { x: HOSTILE_VALUES[next(HOSTILE_VALUES.length)], y: HOSTILE_VALUES[next(HOSTILE_VALUES.length)] });
  }
});

test.run();
