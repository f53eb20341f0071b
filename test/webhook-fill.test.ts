// The encoding rules of WEBHOOK placeholders (src/webhooks/fill.ts), table by table; the daemon
// suite (webhook-placeholders.test.ts) sends the same kinds of values through /v1/track.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fillHeaderValue, fillUrl, webhookConfigErrors } from '../src/webhooks/fill.js';
import type { Dns } from '../src/dns/resolver.js';
import { sendWebhook, WebhookError } from '../src/webhooks/request.js';

const failure = (fn: () => unknown): WebhookError => {
  try {
    fn();
  } catch (err) {
    assert.instance(err, WebhookError);
    assert.is((err as WebhookError).retryable, false, 'no retry mends it');
    return err as WebhookError;
  }
  throw new Error('expected a failure');
};

test('URL placeholders are percent-encoded wherever they stand: the host and the path stay as written', () => {
  const cases: [string, string, string][] = [
    // [template, value, href]
    ['https://hooks.test/users/{{v}}', '../admin?x=1#', 'https://hooks.test/users/..%2Fadmin%3Fx%3D1%23'],
    ['https://hooks.test/users/{{v}}', '%2e%2e', 'https://hooks.test/users/%252e%252e'],
    ['https://hooks.test/users/{{v}}', '@evil.test', 'https://hooks.test/users/%40evil.test'],
    ['https://hooks.test/users/{{v}}', '\\..\\admin', 'https://hooks.test/users/%5C..%5Cadmin'],
    ['https://hooks.test/users/{{v}}', '李雷', 'https://hooks.test/users/%E6%9D%8E%E9%9B%B7'],
    ['https://hooks.test/users/{{v}}', 'a b\r\n\u0000', 'https://hooks.test/users/a%20b%0D%0A%00'],
    ['https://hooks.test/users/{{v}}.json', '..', 'https://hooks.test/users/...json'],
    ['https://hooks.test/x?q={{v}}&plan=pro', 'a&plan=free#x', 'https://hooks.test/x?q=a%26plan%3Dfree%23x&plan=pro'],
    ['https://hooks.test/x?q={{v}}', '+ 1', 'https://hooks.test/x?q=%2B%201'],
    ['https://hooks.test/x#{{v}}', '/../y?z', 'https://hooks.test/x#%2F..%2Fy%3Fz'],
    ['https://hooks.test?{{v}}', '..', 'https://hooks.test/?..'],
    ['https://hooks.test/{{v}}', '\ud800', 'https://hooks.test/%EF%BF%BD'],
  ];
  for (const [template, value, href] of cases) {
    const url = fillUrl(template, { v: value });
    assert.is(url.href, href, `${template} with ${JSON.stringify(value)}`);
    assert.is(url.host, 'hooks.test');
  }
});

test('a value that makes a whole path segment "." or ".." fails the step, in every spelling a parser resolves', () => {
  for (const [template, value] of [
    ['https://hooks.test/users/{{v}}/x', '..'],
    ['https://hooks.test/users/{{v}}', '.'],
    ['https://hooks.test/users/%2e{{v}}', '.'],
    ['https://hooks.test/users/{{v}}%2E', '.'],
    ['https://hooks.test/users/.{{v}}?q=1', '.'],
    ['https://hooks.test/users/{{v}}\\x', '..'],
    ['https://hooks.test/users/{{v}}{{w}}', '.'],
    ['https://hooks.test/users/{{v}} ', '..'],
    ['https://hooks.test/users/.\t{{v}}', '.'],
  ] as const) {
    const err = failure(() => fillUrl(template, { v: value, w: '.' }));
    assert.match(err.message, 'path segment', template);
  }
});

test('the authority never holds a placeholder: refused when saved, failed when an older step has one', () => {
  for (const url of [
    'https://{{data.host}}/x',
    'https://{{tenant}}.hooks.test/x',
    'http://hooks.test:{{port}}/x',
    'http://{{user}}@hooks.test/x',
    'http://user:{{pass}}@hooks.test/x',
    'http:///{{host}}/x',
    'http://hooks.test{{suffix}}',
    'https://\\\\{{host}}/x',
  ]) {
    const errors = webhookConfigErrors({ url });
    assert.is(errors.length, 1, url);
    assert.is(errors[0]!.field, 'config.url');
    assert.match(errors[0]!.message, 'host, port and credentials');
    assert.match(failure(() => fillUrl(url, { data: { host: 'hooks.test' }, tenant: 'a', port: '80', user: 'u', pass: 'p', host: 'h', suffix: '.evil.test' })).message, 'host, port and credentials');
  }
  for (const url of ['https://hooks.test/{{id}}', 'https://hooks.test?x={{id}}', 'https://hooks.test#{{id}}', 'https://user:pw@hooks.test:8443/a/{{id}}', 'https://hooks.test/static']) {
    assert.equal(webhookConfigErrors({ url }), [], url);
  }
  assert.match(webhookConfigErrors({ url: 'http://exa mple.test/{{id}}' })[0]!.message, 'not valid');
});

test('header values: written text must be an RFC 9110 field-value of visible ASCII; managed headers are refused', () => {
  const refused: [string, string][] = [
    ['X-Name', '李雷'],
    ['X-Name', 'café'],
    ['X-Name', 'a\u0001b'],
    ['X-Name', 'a\rb'],
    ['X-Name', 'a\nb'],
    ['X-Name', 'a\u0000b'],
    ['X-Name', 'a\u007fb'],
    ['X-Name', ' leading'],
    ['X-Name', 'trailing\t'],
    ['X-Name', '{{name ?? 雷}}'],
    ['Host', 'hooks.test'],
    ['content-length', '5'],
    ['Transfer-Encoding', 'chunked'],
    ['Connection', 'close'],
    ['Expect', '100-continue'],
    ['X-Postmill-Signature', 't=1,v1=00'],
  ];
  for (const [name, value] of refused) {
    const errors = webhookConfigErrors({ url: 'https://hooks.test/', headers: { [name]: value } });
    assert.is(errors.length, 1, `${name}: ${JSON.stringify(value)}`);
    assert.is(errors[0]!.field, `config.headers.${name}`);
  }
  assert.equal(webhookConfigErrors({ url: 'https://hooks.test/', headers: { Authorization: 'Bearer {{data.token}}', 'X-Empty': '', 'X-Tab': 'a\tb', 'X-Name': '{{name ?? there}}' } }), []);
});

test('header placeholders are percent-encoded (UTF-8, all but visible ASCII other than %): decodeURIComponent gives the value back', () => {
  for (const value of ['李雷', 'a\r\nX-Injected: 1', 'nul\u0000byte', 'tab\there', '50% off', 'émile', 'plain-token_1.2~x', '"quoted"; a=b']) {
    const sent = fillHeaderValue('X-Name', 'v={{name}}', { name: value });
    assert.match(sent, /^[\x21-\x7e]*$/, JSON.stringify(value));
    assert.is(decodeURIComponent(sent), `v=${value}`);
  }
  assert.is(fillHeaderValue('Authorization', 'Bearer {{token}}', { token: 'abc.DEF-123_~' }), 'Bearer abc.DEF-123_~');
  assert.is(fillHeaderValue('Authorization', 'Bearer {{token}}', {}), 'Bearer', 'whitespace an empty value leaves at the end is dropped');
  assert.match(failure(() => fillHeaderValue('X-Old', 'saved before the check: 李', {})).message, 'X-Old');
});

test('a request Node refuses to make (a header it cannot write) fails for good at once, and leaves no timer behind to crash later', async () => {
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  const before = timers();
  // a literal address: no lookup is asked of the resolver
  const opts = { dns: {} as Dns, allowPrivate: true, timeoutMs: 10_000, maxRedirects: 0 };
  for (const value of ['李雷', 'a\u0000b', 'a\r\nb']) {
    const err = await sendWebhook({ url: 'http://127.0.0.1:9/', method: 'POST', headers: {}, originHeaders: { 'x-name': value }, body: '{}' }, opts).then(
      () => null,
      (e: unknown) => e,
    );
    assert.instance(err, WebhookError, JSON.stringify(value));
    assert.is((err as WebhookError).retryable, false);
    assert.match((err as WebhookError).message, 'could not be made');
  }
  assert.is(timers(), before, 'no timeout timer is pending');
});

test.run();
