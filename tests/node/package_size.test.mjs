// Size budgets of the wasm modules the package ships, wasm + glue gzipped (level 9) as a server or CDN sends
// them: the tokenizer entry (embedlab/tokenizer) within 100 kB, the full SIMD module within 200 kB.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';

const gzipped = (file) => gzipSync(readFileSync(new URL(`../../dist/${file}`, import.meta.url)), { level: 9 }).length;
const moduleSize = (name) => {
  const wasm = gzipped(`${name}.wasm`);
  const glue = gzipped(`${name}.js`);
  return { wasm, glue, total: wasm + glue, text: `${name}: ${wasm} + ${glue} = ${wasm + glue} bytes gzipped` };
};

for (const flavour of ['simd', 'fallback']) {
  test(`embedlab/tokenizer (${flavour}): wasm + glue within 100 kB gzipped`, () => {
    const size = moduleSize(`embedlab-tokenizer-${flavour}`);
    console.log(size.text);
    assert.ok(size.total <= 100_000, size.text);
  });
}

// 195.6 kB on 2026-12-01: wasm exceptions in the SIMD flavour (-14 kB with the glue) and our own decimal conversions
// instead of the C library's strtod and printf (-5 kB) brought it from 216 kB.
test('embedlab (simd): wasm + glue within 200 kB gzipped', () => {
  const size = moduleSize('embedlab-simd');
  console.log(size.text);
  assert.ok(size.total <= 200_000, size.text);
});
