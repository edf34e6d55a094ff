// Training data and nearest neighbours through the package (SIMD and fallback modules), against independent
// JS references: splitmix64 + xoshiro128** written from the published algorithms with BigInt, windows cut
// by hand, cosines in double precision. The first uniforms of seed 7 are pinned here and in the Catch2
// suite (tests/cpp/training_windows_test.cc), so a seed gives the same numbers natively and in wasm.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import createEmbedLab, { CorpusBatches } from '../../dist/index.js';
import { cosine, handleTracker, testVector } from './reference.mjs';

const MASK64 = (1n << 64n) - 1n;

function referencePrng(seed) {
  let mix = BigInt(seed);
  const splitmix = () => {
    mix = (mix + 0x9e3779b97f4a7c15n) & MASK64;
    let z = mix;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
    return z ^ (z >> 31n);
  };
  const a = splitmix();
  const b = splitmix();
  const s = [a & 0xffffffffn, a >> 32n, b & 0xffffffffn, b >> 32n].map((x) => Number(x) >>> 0);
  const rotl = (x, k) => ((x << k) | (x >>> (32 - k))) >>> 0;
  const nextU32 = () => {
    const result = Math.imul(rotl(Math.imul(s[1], 5) >>> 0, 7), 9) >>> 0;
    const t = (s[1] << 9) >>> 0;
    s[2] = (s[2] ^ s[0]) >>> 0;
    s[3] = (s[3] ^ s[1]) >>> 0;
    s[1] = (s[1] ^ s[2]) >>> 0;
    s[0] = (s[0] ^ s[3]) >>> 0;
    s[2] = (s[2] ^ t) >>> 0;
    s[3] = rotl(s[3], 11);
    return result;
  };
  // 27 + 26 random bits over 2^53, as the C++ Prng::NextUniform.
  return () => ((nextU32() >>> 5) * 2 ** 26 + (nextU32() >>> 6)) / 2 ** 53;
}

// Windows of `length` tokens starting at `starts`, with their next tokens.
function windows(tokens, starts, length) {
  const ids = [];
  const targets = [];
  for (const start of starts) {
    for (let t = 0; t < length; t++) {
      ids.push(tokens[start + t]);
      targets.push(tokens[start + t + 1]);
    }
  }
  return { ids, targets };
}

const counting = (n) => Array.from({ length: n }, (_, i) => i);
const stream = (n) => Array.from({ length: n }, (_, i) => (i * 7919 + 13) % 50257);

for (const simd of [true, false]) {
  describe(`training data and nearest rows (${simd ? 'SIMD128' : 'fallback'})`, () => {
    let lab;
    const { track, disposeAll } = handleTracker();
    before(async () => {
      lab = await createEmbedLab({ simd });
    });
    after(disposeAll);

    test('randomUniform: seed 7 gives the pinned 53-bit numerators', () => {
      const values = lab.randomUniform(4, { seed: 7 });
      assert.ok(values instanceof Float64Array);
      assert.deepEqual(
        Array.from(values, (u) => u * 2 ** 53),
        [3777173713491078, 6276358306508284, 4355904173978053, 6979584994824798],
      );
    });

    test('randomUniform equals the BigInt reference bit for bit, for small, large and default seeds', () => {
      for (const seed of [0, 1, 42, 2 ** 32 + 5, 2 ** 53]) {
        const next = referencePrng(seed);
        const expected = Array.from({ length: 1000 }, next);
        const options = seed === 0 ? undefined : { seed };
        assert.deepEqual(Array.from(lab.randomUniform(1000, options)), expected, `seed ${seed}`);
      }
      assert.equal(lab.randomUniform(0).length, 0);
    });

    test('corpusBatches: windows start at floor(u · (tokens − length)), batch after batch', () => {
      for (const tokens of [stream(5000), Uint32Array.from(stream(300)), counting(9)]) {
        const batches = track(lab.corpusBatches(tokens, { batch: 8, length: 8, seed: 3 }));
        assert.ok(batches instanceof CorpusBatches);
        assert.equal(batches.batch, 8);
        assert.equal(batches.length, 8);
        const next = referencePrng(3);
        for (let step = 0; step < 5; step++) {
          const starts = Array.from({ length: 8 }, () => Math.floor(next() * (tokens.length - 8)));
          const expected = windows(tokens, starts, 8);
          const batch = batches.next();
          assert.equal(batch.batch, 8);
          assert.equal(batch.length, 8);
          assert.ok(batch.ids instanceof Int32Array && batch.targets instanceof Int32Array);
          assert.deepEqual(Array.from(batch.ids), expected.ids, `step ${step}`);
          assert.deepEqual(Array.from(batch.targets), expected.targets, `step ${step}`);
        }
      }
    });

    test('corpusBatches: seed 7 on 0..99 starts at the windows pinned natively', () => {
      const batch = track(lab.corpusBatches(counting(100), { batch: 4, length: 8, seed: 7 })).next();
      assert.deepEqual(
        [0, 1, 2, 3].map((b) => batch.ids[b * 8]),
        [38, 64, 44, 71],
      );
    });

    test('evenlySpacedWindows: window b starts at b · floor((tokens − length − 1) / batch)', () => {
      for (const [n, batch, length] of [
        [1000, 8, 16],
        [1000, 8, 64],
        [20, 3, 4],
        [6, 2, 5],
        [17, 1, 16],
      ]) {
        const tokens = stream(n);
        const stride = Math.floor((n - length - 1) / batch);
        const expected = windows(
          tokens,
          Array.from({ length: batch }, (_, b) => b * stride),
          length,
        );
        const found = lab.evenlySpacedWindows(tokens, { batch, length });
        assert.deepEqual([found.batch, found.length], [batch, length]);
        assert.deepEqual(Array.from(found.ids), expected.ids, `${n} ${batch} ${length}`);
        assert.deepEqual(Array.from(found.targets), expected.targets, `${n} ${batch} ${length}`);
      }
    });

    test('a model trains and evaluates on these batches as they come', () => {
      const tokens = stream(400).map((id) => id % 50);
      const model = track(
        lab.createModel({ vocabSize: 50, contextLength: 8, channels: 16, layers: 1, heads: 2, seed: 1 }),
      );
      const batches = track(lab.corpusBatches(tokens, { batch: 4, length: 8, seed: 1 }));
      const { loss } = model.trainStep(batches.next());
      assert.ok(Number.isFinite(loss));
      assert.ok(Number.isFinite(model.evaluate(lab.evenlySpacedWindows(tokens, { batch: 4, length: 8 }))));
    });

    test('nearestRows ranks rows like a double-precision reference, skipping the query row and skip', () => {
      const rows = 200;
      const dim = 24;
      const table = testVector(rows * dim, 11);
      const row = (i) => table.subarray(i * dim, (i + 1) * dim);
      const reference = (query, skipped) =>
        Array.from({ length: rows }, (_, i) => i)
          .filter((i) => !skipped.includes(i))
          .map((i) => ({ row: i, cosine: cosine(query, row(i)) }))
          .sort((a, b) => b.cosine - a.cosine);
      const check = (found, expected) => {
        assert.deepEqual(
          found.map((f) => f.row),
          expected.map((e) => e.row),
        );
        found.forEach((f, i) => assert.ok(Math.abs(f.cosine - expected[i].cosine) <= 2e-6, `rank ${i}`));
      };
      check(lab.nearestRows(table, dim, 5, { k: 7, skip: [9, 100] }), reference(row(5), [5, 9, 100]).slice(0, 7));
      const query = testVector(dim, 12);
      check(lab.nearestRows(table, dim, query), reference(query, []).slice(0, 10));
      check(lab.nearestRows(Array.from(table), dim, Array.from(query), { k: rows }), reference(query, []));
    });

    test('nearestRows: ties keep row order; fewer than k when fewer rows remain', () => {
      const table = new Float32Array([1, 0, 0, 1, 2, 0, 3, 0]);
      assert.deepEqual(lab.nearestRows(table, 2, 0, { k: 4 }), [
        { row: 2, cosine: 1 },
        { row: 3, cosine: 1 },
        { row: 1, cosine: 0 },
      ]);
      assert.deepEqual(lab.nearestRows(table, 2, [0, 5], { k: 2, skip: [1] }), [
        { row: 0, cosine: 0 },
        { row: 2, cosine: 0 },
      ]);
    });

    test('bad arguments: a clear error naming the argument, and the instance keeps working', () => {
      const tokens = counting(50);
      const cases = [
        [() => lab.randomUniform(-1), RangeError, /count must be an integer in \[0, 16777216\], got -1/],
        [() => lab.randomUniform(1.5), RangeError, /count must be an integer/],
        [() => lab.randomUniform('3'), TypeError, /count must be an integer/],
        [() => lab.randomUniform(3, { seed: -1 }), RangeError, /seed must be an integer in \[0, 9007199254740992\]/],
        [() => lab.randomUniform(3, 7), TypeError, /options must be an options object/],
        [() => lab.corpusBatches(tokens), TypeError, /batch must be an integer in \[1, 65536\], got undefined/],
        [
          () => lab.corpusBatches(tokens, { batch: 0, length: 4 }),
          RangeError,
          /batch must be an integer in \[1, 65536\]/,
        ],
        [() => lab.corpusBatches(tokens, { batch: 2, length: 1e6 }), RangeError, /length must be an integer/],
        [
          () => lab.corpusBatches(tokens, { batch: 2, length: 50 }),
          RangeError,
          /tokens.length must be at least length \+ 1 = 51.*got 50/,
        ],
        [() => lab.corpusBatches('abc', { batch: 2, length: 2 }), TypeError, /tokens must be an array/],
        [
          () => lab.corpusBatches([1, -2, 3], { batch: 1, length: 1 }),
          RangeError,
          /tokens\[1\] must be an integer in \[0, 2147483647\]/,
        ],
        [() => lab.corpusBatches(tokens, { batch: 2, length: 2, seed: 0.5 }), RangeError, /seed must be an integer/],
        [
          () => lab.evenlySpacedWindows(tokens, { batch: 2, length: 50 }),
          RangeError,
          /tokens.length must be at least length \+ 1 = 51/,
        ],
        [
          () => lab.evenlySpacedWindows(tokens, { batch: 70000, length: 2 }),
          RangeError,
          /batch must be an integer in \[1, 65536\]/,
        ],
        [
          () => lab.nearestRows(new Float32Array(6), 4, 0),
          RangeError,
          /table.length must be a multiple of dim \(4\), got 6/,
        ],
        [() => lab.nearestRows(new Float32Array(8), 0, 0), RangeError, /dim must be an integer in \[1, 16384\]/],
        [() => lab.nearestRows('table', 2, 0), TypeError, /table must be an array or Float32Array/],
        [() => lab.nearestRows([1, NaN], 2, 0), RangeError, /table\[1\] must be a finite number/],
        [() => lab.nearestRows(new Float32Array(8), 2, 4), RangeError, /query must be an integer in \[0, 3\], got 4/],
        [() => lab.nearestRows(new Float32Array(8), 2, [1, 2, 3]), RangeError, /query.length must be 2, got 3/],
        [
          () => lab.nearestRows(new Float32Array(8), 2, 'dog'),
          TypeError,
          /query must be a row index or a vector of 2 numbers/,
        ],
        [
          () => lab.nearestRows(new Float32Array(8), 2, 0, { k: 0 }),
          RangeError,
          /k must be an integer in \[1, 2147483647\], got 0/,
        ],
        [
          () => lab.nearestRows(new Float32Array(8), 2, 0, { skip: [4] }),
          RangeError,
          /skip\[0\] must be an integer in \[0, 3\], got 4/,
        ],
        [
          () => lab.nearestRows(new Float32Array(8), 2, 0, { skip: 1 }),
          TypeError,
          /skip must be an array of row indices/,
        ],
      ];
      for (const [call, type, message] of cases) {
        assert.throws(call, (error) => error instanceof type && message.test(error.message), String(message));
      }
      const batches = lab.corpusBatches(tokens, { batch: 1, length: 2 });
      batches.dispose();
      assert.throws(() => batches.next(), /CorpusBatches has been disposed/);
      assert.equal(lab.randomUniform(2, { seed: 7 })[0] * 2 ** 53, 3777173713491078);
    });
  });
}
