// What an SMTP client is told for each kind of failure: permanent (5xx) when sending the same
// message again cannot change the answer, temporary (4xx) only when it can.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError, validationFailed } from '../src/errors.js';
import { smtpReplyOf } from '../src/submission/submit.js';
import { ThreadDied } from '../src/threads/pool.js';

const code = (err: unknown) => smtpReplyOf(err).responseCode;

test('a message that ended the thread it ran on alone is refused for good; one that shared it may be sent again', () => {
  assert.is(code(new ThreadDied(true, true, 'heap')), 552);
  assert.match(smtpReplyOf(new ThreadDied(true, true, 'heap')).message, '5.3.4');
  assert.is(code(new ThreadDied(true, false, 'exit code 1')), 554);
  assert.is(code(new ThreadDied(false, true, 'heap')), 451);
});

test('refusals of the request are permanent, rate limits and our failures temporary', () => {
  assert.is(code(validationFailed([{ field: 'body', message: 'x', code: 'too_big' }])), 550);
  assert.is(code(new ApiError(403, 'FORBIDDEN', 'disabled')), 550);
  assert.is(code(new ApiError(429, 'RATE_LIMITED', 'slow down')), 451);
  assert.is(code(new Error('disk full')), 451);
});

test.run();
