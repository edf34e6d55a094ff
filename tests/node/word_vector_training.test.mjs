// lab.trainWordVectors (GloVe in the core): result shapes; the co-occurrence counts recounted here from the ids and
// the last loss recomputed here in double from the returned tables; same seed, same numbers (and the SIMD128 and
// fallback modules agree within float rounding); tokens that share their contexts end up nearest neighbours;
// progress per epoch; AbortSignal; every bad argument refused with its name and range.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';
import { cosine, maxAbsDiff } from './reference.mjs';

let lab;
before(async () => {
  lab = await createEmbedLab();
});

// A seeded integer source: next(n) in [0, n).
function lcg(seed) {
  let state = seed;
  return (n) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return Math.floor((state / 2 ** 32) * n);
  };
}

// A seeded corpus: sentences "p q T r s" whose middle token T is 0 or 1 (contexts from 10..19), 2 or 3 (contexts
// from 20..29) or 4 (contexts from 30..39).
function groupedCorpus(sentences, seed) {
  const next = lcg(seed);
  const ids = [];
  for (let s = 0; s < sentences; s++) {
    const group = next(5);
    const target = [0, 1, 2, 3, 4][group];
    const base = [10, 10, 20, 20, 30][group];
    ids.push(base + next(10), base + next(10), target, base + next(10), base + next(10));
  }
  return ids;
}

// X counted as cooccur.c does, independently of the core: a pair d <= window apart adds 1/d both ways.
function countCooccurrences(ids, window) {
  const counts = new Map();
  const add = (a, b, value) => counts.set(`${a},${b}`, (counts.get(`${a},${b}`) ?? 0) + value);
  for (let j = 0; j < ids.length; j++) {
    for (let k = Math.max(0, j - window); k < j; k++) {
      add(ids[k], ids[j], 1 / (j - k));
      add(ids[j], ids[k], 1 / (j - k));
    }
  }
  return counts;
}

const small = { vocabSize: 40, dim: 13, window: 2, epochs: 6, xMax: 10, seed: 3 };

test('shapes, the counts recounted from the ids, and the last loss recomputed from the returned tables', async () => {
  const ids = groupedCorpus(400, 1);
  const result = await lab.trainWordVectors({ ids, ...small });
  const { vocabSize, dim } = small;
  for (const key of ['vectors', 'words', 'contexts']) {
    assert.ok(result[key] instanceof Float32Array && result[key].length === vocabSize * dim, key);
  }
  assert.equal(result.wordBiases.length, vocabSize);
  assert.equal(result.contextBiases.length, vocabSize);
  assert.equal(result.aborted, false);
  assert.equal(result.losses.length, small.epochs);
  for (let i = 0; i < result.vectors.length; i++) {
    assert.equal(result.vectors[i], Math.fround(result.words[i] + result.contexts[i]));
  }
  const expected = countCooccurrences(ids, small.window);
  const { rows, cols, values } = result.cooccurrences;
  assert.equal(values.length, expected.size);
  for (let i = 0; i < values.length; i++) {
    if (i > 0) {
      assert.ok(rows[i - 1] < rows[i] || (rows[i - 1] === rows[i] && cols[i - 1] < cols[i]), 'sorted by (row, col)');
    }
    const want = expected.get(`${rows[i]},${cols[i]}`);
    assert.ok(Math.abs(values[i] - want) <= 1e-12 * want, `X[${rows[i]}][${cols[i]}] = ${values[i]}, want ${want}`);
  }
  // J = Σ f(X) (w_i · c_j + b_i + b̃_j − ln X)², f(X) = min(1, (X / xMax)^0.75), in double.
  let loss = 0;
  for (let i = 0; i < values.length; i++) {
    let error = result.wordBiases[rows[i]] + result.contextBiases[cols[i]] - Math.log(values[i]);
    for (let k = 0; k < dim; k++) {
      error += result.words[rows[i] * dim + k] * result.contexts[cols[i] * dim + k];
    }
    loss += Math.min(1, (values[i] / small.xMax) ** 0.75) * error * error;
  }
  assert.ok(Math.abs(result.losses.at(-1) - loss) <= 1e-6 * loss, `${result.losses.at(-1)} vs ${loss}`);
  assert.ok(
    result.losses.every((value, k) => k === 0 || value < result.losses[k - 1]),
    `${result.losses}`,
  );
});

test('same seed, same numbers; another seed differs; the fallback module agrees within float rounding', async () => {
  const ids = groupedCorpus(300, 2);
  const first = await lab.trainWordVectors({ ids, ...small });
  const again = await lab.trainWordVectors({ ids: Int32Array.from(ids), ...small });
  assert.deepEqual(again, first);
  const other = await lab.trainWordVectors({ ids, ...small, seed: 4 });
  assert.notDeepEqual(other.vectors, first.vectors);
  const fallback = await createEmbedLab({ simd: false });
  const portable = await fallback.trainWordVectors({ ids, ...small });
  assert.ok(maxAbsDiff(portable.vectors, first.vectors) <= 1e-5, `${maxAbsDiff(portable.vectors, first.vectors)}`);
  assert.ok(Math.abs(portable.losses.at(-1) - first.losses.at(-1)) <= 1e-6 * first.losses.at(-1));
  // The initial values are PRNG draws only: bit for bit in both modules.
  const initial = await lab.trainWordVectors({ ids, ...small, epochs: 0 });
  assert.deepEqual((await fallback.trainWordVectors({ ids, ...small, epochs: 0 })).words, initial.words);
});

// Sentences "p q T r s" over context tokens 10..29 whose middle token T (0..4) sets how the contexts are drawn: for
// 0 and 1 mostly from 10..19, for 2 and 3 mostly from 20..29, for 4 mostly the even ones. 0 and 1 thus share their
// context distribution, as do 2 and 3. (The distributions must differ in shape, not only in support: GloVe fits
// only the nonzero counts, and a token whose counts are equal over its contexts is fitted by its bias alone.)
function sharedContextCorpus(sentences, seed) {
  const next = lcg(seed);
  const weights = [(j) => (j < 20 ? 8 : 1), (j) => (j >= 20 ? 8 : 1), (j) => (j % 2 === 0 ? 8 : 1)];
  const draw = (weight) => {
    let r = next(Array.from({ length: 20 }, (_, k) => weight(10 + k)).reduce((a, b) => a + b));
    for (let j = 10; ; j++) {
      if ((r -= weight(j)) < 0) {
        return j;
      }
    }
  };
  const ids = [];
  for (let s = 0; s < sentences; s++) {
    const target = next(5);
    const weight = weights[[0, 0, 1, 1, 2][target]];
    ids.push(draw(weight), draw(weight), target, draw(weight), draw(weight));
  }
  return ids;
}

test('tokens that share their contexts become nearest neighbours; unrelated ones do not', async () => {
  for (const seed of [1, 2, 3]) {
    const dim = 16;
    const { vectors } = await lab.trainWordVectors({
      ids: sharedContextCorpus(3000, seed),
      vocabSize: 30,
      dim,
      window: 2,
      xMax: 10,
      seed,
    });
    const vector = (id) => vectors.subarray(id * dim, (id + 1) * dim);
    const nearest = (id) => {
      let best = -1;
      for (let other = 0; other < 30; other++) {
        if (other !== id && (best < 0 || cosine(vector(other), vector(id)) > cosine(vector(best), vector(id)))) {
          best = other;
        }
      }
      return best;
    };
    assert.deepEqual([0, 1, 2, 3].map(nearest), [1, 0, 3, 2], `seed ${seed}`);
    const twins = cosine(vector(0), vector(1));
    assert.ok(twins > 0.9 && cosine(vector(2), vector(3)) > 0.9, `seed ${seed}: cos(0, 1) = ${twins}`);
    for (const unrelated of [2, 4]) {
      const c = cosine(vector(0), vector(unrelated));
      assert.ok(c < twins - 0.5, `seed ${seed}: cos(0, ${unrelated}) = ${c}, cos(0, 1) = ${twins}`);
    }
  }
});

test('onProgress reports every epoch with its loss; a signal stops training', async () => {
  const ids = groupedCorpus(200, 6);
  const reports = [];
  const result = await lab.trainWordVectors({ ids, ...small, onProgress: (p) => reports.push(p) });
  assert.deepEqual(
    reports,
    result.losses.map((loss, k) => ({ epoch: k + 1, epochs: small.epochs, loss })),
  );
  const controller = new AbortController();
  const stopped = await lab.trainWordVectors({
    ids,
    ...small,
    signal: controller.signal,
    onProgress: ({ epoch }) => epoch === 2 && controller.abort(),
  });
  assert.equal(stopped.aborted, true);
  assert.deepEqual(stopped.losses, result.losses.slice(0, 2));
  const never = await lab.trainWordVectors({ ids, ...small, signal: AbortSignal.abort() });
  assert.equal(never.aborted, true);
  assert.deepEqual(never.losses, []);
  assert.deepEqual(never.words, (await lab.trainWordVectors({ ids, ...small, epochs: 0 })).words);
});

test('bad arguments are refused with their name and range', async () => {
  const ids = [0, 1, 2, 1, 0];
  const base = { ids, vocabSize: 3, dim: 4 };
  const cases = [
    [{ ...base, window: 0 }, RangeError, 'window must be an integer in [1, 1000], got 0'],
    [{ ...base, window: 2.5 }, RangeError, 'window must be an integer, got 2.5'],
    [{ ...base, epochs: -1 }, RangeError, 'epochs must be an integer in [0, 100000], got -1'],
    [{ ...base, dim: 0 }, RangeError, 'dim must be an integer in [1, 16384], got 0'],
    [{ ...base, dim: undefined }, TypeError, 'dim must be an integer, got undefined'],
    [{ ...base, vocabSize: 2 }, RangeError, 'ids[2] must be a token id in [0, 1] (vocabSize 2), got 2'],
    [{ ...base, xMax: 0 }, RangeError, 'xMax must be a finite number in (0, 1e+30], got 0'],
    [{ ...base, alpha: -0.5 }, RangeError, 'alpha must be a finite number in (0, 100], got -0.5'],
    [{ ...base, learningRate: NaN }, RangeError, 'learningRate must be a finite number in (0, 100], got NaN'],
    [{ ...base, learningRate: '0.1' }, TypeError, 'learningRate must be a number, got the string "0.1"'],
    [{ ...base, seed: -1 }, RangeError, 'seed must be an integer in [0, 9007199254740992], got -1'],
    [{ ...base, ids: 'the cat' }, TypeError, /^ids must be an array or typed array of token ids/],
    [{ ...base, ids: [0, -1] }, RangeError, /^ids\[1\] must be an integer in \[0, 2147483647\]/],
    [{ ...base, windw: 3 }, TypeError, /has no option "windw" \(did you mean "window"\?\)/],
    [{ ...base, onProgress: 1 }, TypeError, 'onProgress must be a function, got 1'],
    [{ ...base, signal: {} }, TypeError, /^signal must be an AbortSignal/],
  ];
  for (const [options, name, message] of cases) {
    await assert.rejects(lab.trainWordVectors(options), { name: name.name, message }, JSON.stringify(options));
  }
  // The instance still works.
  assert.equal((await lab.trainWordVectors({ ...base, epochs: 1 })).losses.length, 1);
});
