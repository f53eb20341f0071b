// The encoding rules of WEBHOOK placeholders (src/webhooks/fill.ts), table by table; the daemon
// suite (webhook-placeholders.test.ts) sends the same kinds of values through /v1/track.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fillHeaderValue, webhookConfigErrors } from '../src/webhooks/fill.js';
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
