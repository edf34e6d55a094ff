// The page's thousands grouping (web/js/ui/format.js grouped) writes what toLocaleString('en-US') writes with its
// commas as narrow no-break spaces, the form the page used before it stopped loading the locale's data at start.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { grouped } from '../../web/js/ui/format.js';

const reference = (n) => n.toLocaleString('en-US').replace(/,/g, '\u202f');

test('grouped(n) equals toLocaleString("en-US") with narrow no-break spaces, over every digit count and sign', () => {
  const values = [0, 1, 9, 10, 99, 100, 999, 1000, 1001, 9999, 10000, 65536, 100256, 999999, 1000000, 2 ** 31];
  values.push(Number.MAX_SAFE_INTEGER, ...values.map((n) => -n).filter((n) => n !== 0));
  let seed = 7;
  for (let i = 0; i < 2000; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    values.push(Math.floor(seed / 10 ** (i % 9))); // 1 to 10 digits
  }
  for (const n of values) {
    assert.equal(grouped(n), reference(n), `grouped(${n})`);
  }
});
