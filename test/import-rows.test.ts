import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { detectDelimiter } from '../src/contacts/import/csv.js';
import { cellValue, columnsOf, rowOutcome } from '../src/contacts/import/rows.js';
import { ApiError } from '../src/errors.js';

test('cellValue: numbers and booleans recognised, identifiers kept as text', () => {
  assert.is(cellValue('42'), 42);
  assert.is(cellValue('-3.50'), -3.5);
  assert.is(cellValue('0'), 0);
  assert.is(cellValue('TRUE'), true);
  assert.is(cellValue('false'), false);
  for (const text of ['007', '1e5', '+4930123', '12.', '.5', '1,5', '1234567890123456', 'yes', 'NaN', 'Infinity', '0x10']) {
    assert.is(cellValue(text), text, text);
  }
});

test('columnsOf: email and subscribed ignoring case, data.x goes to x, empty names ignored, duplicates refused', () => {
  assert.equal(columnsOf([' EMAIL ', 'Subscribed', 'plan', 'data.plan2', '', 'data.', '__proto__']), [
    { kind: 'email' },
    { kind: 'subscribed' },
    { kind: 'data', key: 'plan' },
    { kind: 'data', key: 'plan2' },
    { kind: 'ignored' },
    { kind: 'ignored' },
    { kind: 'ignored' },
  ]);
  for (const header of [['name'], ['email', 'Email'], ['email', 'plan', 'data.plan'], Array.from({ length: 1001 }, (_, i) => (i ? `c${i}` : 'email'))]) {
    assert.throws(
      () => columnsOf(header),
      (err: unknown) => err instanceof ApiError && err.status === 422,
    );
  }
});

test('rowOutcome: blank rows, failures with a message, the upsert of a good row', () => {
  const columns = columnsOf(['email', 'subscribed', 'age', 'city']);
  assert.equal(rowOutcome(['', '', '', ''], columns), { kind: 'blank' });
  assert.equal(rowOutcome([''], columns), { kind: 'blank' });
  assert.equal(rowOutcome(['ann@x.test', 'No', '41'], columns), {
    kind: 'contact',
    input: { email: 'ann@x.test', subscribed: false, data: { age: 41 } },
  });
  assert.equal(rowOutcome(['ann@bücher.de', '', '', 'Köln'], columns), {
    kind: 'contact',
    input: { email: 'ann@xn--bcher-kva.de', data: { city: 'Köln' } },
  });
  const bad = (cells: string[]) => {
    const outcome = rowOutcome(cells, columns);
    assert.is(outcome.kind, 'invalid', cells.join(','));
    return outcome.kind === 'invalid' ? outcome.message : '';
  };
  assert.match(bad(['nope', '', '', '']), /Invalid email/);
  assert.match(bad(['', 'yes', '1', 'x']), /no email/);
  assert.match(bad(['a@x.test', 'sometimes', '', '']), /subscribed/);
  assert.match(bad(['a@x.test', '', '', '', 'extra']), /5 cells/);
  assert.ok(bad(['x'.repeat(5000), '', '', '']).length < 200, 'a long cell is cut in the message');
});

test('detectDelimiter: the one the header uses outside quotes', () => {
  assert.is(detectDelimiter('email,name\n'), ',');
  assert.is(detectDelimiter('email;name;city\r\na,b;c'), ';');
  assert.is(detectDelimiter('"a,b,c";name;x\n'), ';');
  assert.is(detectDelimiter('email\n'), ',');
});

test.run();
