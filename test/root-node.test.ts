import MimeNode from 'nodemailer/lib/mime-node';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RootNode } from '../src/nodemailer-internals.js';

test('the root node writes the headers MimeNode writes', () => {
  const headerSets = [
    [
      { key: 'X-Postmill-Email-Id', value: 'e1' },
      { key: 'list-unsubscribe', value: `<https://p.test/u/${'t'.repeat(120)}>, <mailto:unsubscribe@bounces.acme.test?subject=t>` },
      { key: 'x-smtpapi', value: '{}' },
      { key: 'mime-extra', value: 'Ünïcödé '.repeat(20) },
      { key: 'In-Reply-To', value: 'a@b.test' },
      { key: 'content-features', value: 'x' },
    ],
    [{ key: 'X-Feedback-Id', value: 'c:p:postmill' }],
  ];
  for (let round = 0; round < 2; round++) {
    for (const headers of headerSets) {
      const build = (node: MimeNode) => {
        node.addHeader(headers);
        node.setHeader('from', { name: 'Ácme, "Quoted" Néws', address: 'news@acme.test' });
        node.setHeader('to', { name: 'Ann', address: 'ann@exämple.test' });
        node.setHeader('subject', 'Grüße '.repeat(30));
        node.setHeader('message-id', '<m@acme.test>');
        node.setHeader('date', new Date(0));
        return node.buildHeaders();
      };
      const options = { baseBoundary: 'base', disableFileAccess: true, disableUrlAccess: true };
      assert.is(build(new RootNode('multipart/alternative', options)), build(new MimeNode('multipart/alternative', options)));
    }
  }
});

test.run();
