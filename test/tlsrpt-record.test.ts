// The _smtp._tls record of TLS-RPT (RFC 8460 3) and the report's file name (5.1).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { reportFileName } from '../src/outbound/tls-policy/report.js';
import { reportUris } from '../src/outbound/tls-policy/tlsrpt-record.js';

test('rua: mailto and https URIs of exactly one v=TLSRPTv1 record', () => {
  assert.equal(reportUris(['v=TLSRPTv1; rua=mailto:tls@example.com,https://reports.example.com/v1']), ['mailto:tls@example.com', 'https://reports.example.com/v1']);
  assert.equal(reportUris(['v=TLSRPTv1;rua=mailto:tls@example.com', 'v=spf1 -all']), ['mailto:tls@example.com']);
  assert.equal(reportUris(['v=TLSRPTv1; rua=mailto:a@example.com', 'v=TLSRPTv1; rua=mailto:b@example.com']), [], 'two records are none');
  assert.equal(reportUris(['v=TLSRPTv1; rua=http://plain.example.com/,ftp://x.example.com/,mailto:nobody,https://ok.example.com/']), ['https://ok.example.com/']);
  assert.equal(reportUris(['v=TLSRPTv1']), []);
  assert.equal(reportUris(['v=TLSRPTv2; rua=mailto:tls@example.com']), []);
  assert.equal(reportUris([]), []);
  assert.equal(reportUris(['v=TLSRPTv1; rua=https://a.example.com/,https://a.example.com/,mailto:b@example.com,https://c.example.com/']), ['https://a.example.com/', 'mailto:b@example.com'], 'the first two distinct');
});

test('the file name: sender, policy domain, the day in epoch seconds, an id', () => {
  assert.is(reportFileName('mail.sender.example', '2016-08-01', 'example.com', '001'), 'mail.sender.example!example.com!1470009600!1470095999!001.json.gz');
});

test.run();
