// Leaks: many calls and create/dispose cycles of every object type leave the wasm heap (bytes malloc has
// handed out, lab.memory().allocatedBytes) within 1 MB of where it started after a warm-up; and objects a
// caller forgets are freed by the FinalizationRegistry safety net once they are garbage collected (checked in
// a child node with --expose-gc). The figures are printed as test diagnostics.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import createEmbedLab from '../../dist/index.js';

const MB = 1 << 20;
const CORPUS = 'the dog bites the man. the man bites the dog. a cat sees a bird and the bird sees the cat. '.repeat(20);
let lab, tokenizer, trained, trainedText, trainedBinary, modelBytes;

before(async () => {
  lab = await createEmbedLab();
  tokenizer = await lab.getTokenizer('cl100k_base');
  trained = await lab.trainTokenizer(CORPUS, { vocabSize: 300 });
  trainedText = trained.save();
  trainedBinary = trained.save({ binary: true });
  const model = lab.createModel({ vocabSize: 64, contextLength: 16, channels: 16, layers: 1, heads: 2 });
  modelBytes = model.save();
  model.dispose();
});

const heap = () => lab.memory().allocatedBytes;

// Runs body `warmup` times, then `cycles` times, and checks the heap moved by at most 1 MB over the cycles.
async function cycles(t, name, count, body, warmup = 10) {
  for (let i = 0; i < warmup; ++i) {
    await body(i);
  }
  const start = heap();
  const began = performance.now();
  for (let i = 0; i < count; ++i) {
    await body(i);
  }
  const end = heap();
  const figures = `${name}: ${count} cycles, allocatedBytes ${start} -> ${end} (${end >= start ? '+' : ''}${end - start} bytes, ${Math.round(performance.now() - began)} ms)`;
  t.diagnostic(figures);
  console.log(`# leaks ${figures}`);
  assert.ok(Math.abs(end - start) <= MB, `${figures}: more than 1 MB`);
}

test('1e5 encode calls keep the heap within 1 MB', async (t) => {
  const texts = ['Hello, world!', 'the dog bites the man', 'def f(x):\n    return x ** 2\n', 'Ünïcödé 日本語 👍🏽'];
  await cycles(
    t,
    'tokenizer.encode',
    1e5,
    (i) => {
      tokenizer.encode(texts[i & 3]);
    },
    1000,
  );
  await cycles(
    t,
    'tokenizer.tokens + decode',
    1e4,
    (i) => {
      tokenizer.decode(tokenizer.encode(texts[i & 3]));
      tokenizer.tokens(texts[i & 3]);
    },
    100,
  );
});

test('a long encode or decode does not pin its buffers once calls are short again', (t) => {
  // Just under the size where calls go through parts (tokenizer/parts.js): one call, whole buffers.
  const before = heap();
  const long = 'The quick brown fox jumps over the lazy dog. '.repeat(11_000); // 495 KB of text
  assert.equal(tokenizer.decode(tokenizer.encode(long)), long);
  const peak = heap();
  assert.equal(tokenizer.decode(tokenizer.encode('short again')), 'short again');
  const after = heap();
  t.diagnostic(`allocatedBytes ${before} -> ${peak} after 495 KB -> ${after} after a short call`);
  assert.ok(peak - before > 2 * MB, 'the long calls did hold their buffers');
  assert.ok(after - before < 1.5 * MB, `${after - before} bytes still held after a short call`);
});

test("9 MB encode and decode go through parts: they hold one part's buffers, not the text's", (t) => {
  const before = heap();
  const long = 'The quick brown fox jumps over the lazy dog. '.repeat(200_000); // 9 MB of text
  assert.equal(tokenizer.decode(tokenizer.encode(long)), long);
  const peak = heap();
  t.diagnostic(`allocatedBytes ${before} -> ${peak} after 9 MB`);
  // Whole, the input (27 MB for a string), the ids and the decoded bytes took more than 20 MB.
  assert.ok(peak - before < 8 * MB, `${peak - before} bytes held after 9 MB calls`);
});

test('1e3 create/dispose cycles of every object type keep the heap within 1 MB', async (t) => {
  await cycles(t, 'TokenEmbedding', 1e3, (i) => {
    const e = lab.tokenEmbedding({ vocabSize: 100, dim: 32, seed: i });
    e.lookup([1, 2, 3]);
    e.dispose();
  });
  for (const kind of ['sinusoidal', 'learned', 'none']) {
    await cycles(t, `PositionalEncoding ${kind}`, 1e3, () => {
      const p = lab.positionalEncoding(kind, { dim: 16, maxLength: 64 });
      p.table(8);
      p.dispose();
    });
  }
  await cycles(t, 'SelfAttention', 1e3, (i) => {
    const a = lab.selfAttention({ dim: 16, seed: i });
    a.forward(new Float32Array(16 * 4).fill(0.5));
    a.dispose();
  });
  await cycles(t, 'Tokenizer via loadTokenizer (text)', 1e3, async () => {
    const k = await lab.loadTokenizer(trainedText);
    k.encode('the dog');
    k.dispose();
  });
  await cycles(t, 'Tokenizer via loadTokenizer (binary)', 1e3, async () => {
    const k = await lab.loadTokenizer(trainedBinary);
    k.encode('the cat');
    k.dispose();
  });
  // Each getTokenizer loads the shipped binary vocabulary (~1 ms for r50k).
  await cycles(
    t,
    'Tokenizer via getTokenizer(r50k_base)',
    1e3,
    async () => {
      const k = await lab.getTokenizer('r50k_base');
      k.encode('the dog');
      k.dispose();
    },
    3,
  );
  await cycles(t, 'Model via createModel + trainStep', 1e3, (i) => {
    const m = lab.createModel({ vocabSize: 64, contextLength: 16, channels: 16, layers: 1, heads: 2, seed: i });
    m.trainStep({ ids: [[1, 2, 3, 4]], targets: [[2, 3, 4, 5]] });
    m.dispose();
  });
  await cycles(t, 'Model via loadModel', 1e3, () => {
    const m = lab.loadModel(modelBytes);
    m.dispose();
  });
  await cycles(t, 'SafetensorsFile via readSafetensors + get', 1e3, async () => {
    const f = await lab.readSafetensors(modelBytes);
    await f.get('wte.weight');
    f.dispose();
  });
});

test('forgotten objects are freed by the FinalizationRegistry once collected (node --expose-gc)', (t) => {
  const index = new URL('../../dist/index.js', import.meta.url).href;
  const script = `
    import createEmbedLab from ${JSON.stringify(index)};
    const lab = await createEmbedLab();
    const heap = () => lab.memory().allocatedBytes;
    const tokenizerBytes = (await lab.trainTokenizer('the dog bites the man. '.repeat(40), { vocabSize: 280 })).save();
    const modelBytes = lab.createModel({ vocabSize: 64, contextLength: 16, channels: 16, layers: 1, heads: 2 }).save();
    const settle = async () => {
      for (let i = 0; i < 20; ++i) {
        globalThis.gc();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    async function forget() {  // everything made here is unreachable once it returns
      for (let i = 0; i < 50; ++i) {
        lab.tokenEmbedding({ vocabSize: 1000, dim: 64 });
        lab.positionalEncoding('learned', { dim: 64, maxLength: 256 });
        lab.positionalEncoding('sinusoidal', { dim: 64, maxLength: 256 });
        lab.selfAttention({ dim: 64 });
        await lab.loadTokenizer(tokenizerBytes);
        lab.createModel({ vocabSize: 256, contextLength: 32, channels: 32, layers: 2, heads: 2 });
        lab.loadModel(modelBytes);
        await lab.readSafetensors(modelBytes);
      }
      return heap();
    }
    await settle();
    const start = heap();
    const grown = await forget();
    await settle();
    const end = heap();
    console.log(JSON.stringify({ start, grown, end }));
    process.exit(0);
  `;
  const output = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    encoding: 'utf8',
    timeout: 60000,
  });
  const { start, grown, end } = JSON.parse(output.trim().split('\n').pop());
  const figures = `forgotten objects: allocatedBytes ${start} before, ${grown} with 400 live objects, ${end} after gc (${end - start >= 0 ? '+' : ''}${end - start} bytes)`;
  t.diagnostic(figures);
  console.log(`# leaks ${figures}`);
  assert.ok(grown - start > 4 * MB, `${figures}: the objects should have taken several MB`);
  assert.ok(end - start <= MB, `${figures}: the FinalizationRegistry did not free the forgotten objects`);
});
