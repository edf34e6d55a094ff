// Names, caps and defaults the C++ core defines once and the package reads from it: lab.limits,
// lab.patternNames, lab.positionSchemes, lab.ropeScalingDefaults. Each is frozen, and each is the one the core
// uses. And the names in the core's error messages: the core writes the JS API's names itself (see
// src/bindings/boundary.h), so no message reaches JS with a C++ name (vocab_size, ids.size()).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import createEmbedLab from '../../dist/index.js';

let lab;
before(async () => {
  lab = await createEmbedLab();
});

test('limits are the caps of errors/argument_checks.h, and the core enforces exactly them', () => {
  assert.ok(Object.isFrozen(lab.limits));
  assert.deepEqual(
    { ...lab.limits },
    {
      maxDim: 16384,
      maxVocabSize: 2 ** 21,
      maxSequenceLength: 65536,
      maxSeed: 2 ** 53,
    },
  );
  const encoding = lab.positionalEncoding('none', { dim: 1, maxLength: lab.limits.maxSequenceLength });
  assert.equal(encoding.maxLength, lab.limits.maxSequenceLength);
  encoding.dispose();
  assert.throws(() => lab.positionalEncoding('none', { dim: 1, maxLength: lab.limits.maxSequenceLength + 1 }), {
    name: 'RangeError',
    message: /maxLength must be an integer in \[1, 65536\]/,
  });
});

test('patternNames lists the pre-tokenizers; each one trains a tokenizer that reports it', async () => {
  assert.ok(Object.isFrozen(lab.patternNames));
  assert.deepEqual([...lab.patternNames], ['gpt2', 'cl100k', 'o200k']);
  for (const pattern of lab.patternNames) {
    const tokenizer = await lab.trainTokenizer('the dog bites the man. '.repeat(10), { vocabSize: 260, pattern });
    assert.equal(tokenizer.pattern, pattern);
    tokenizer.dispose();
  }
});

test('ropeLayouts lists the RoPE layouts; each one makes a model that reports it, and others are refused', () => {
  assert.ok(Object.isFrozen(lab.ropeLayouts));
  assert.deepEqual([...lab.ropeLayouts], ['interleaved', 'rotate_half']);
  const config = { vocabSize: 8, contextLength: 4, channels: 8, layers: 1, heads: 2, positions: 'rope' };
  for (const ropeLayout of lab.ropeLayouts) {
    const model = lab.createModel({ ...config, ropeLayout });
    assert.equal(model.config.ropeLayout, ropeLayout);
    model.dispose();
  }
  assert.throws(() => lab.createModel({ ...config, ropeLayout: 'half' }), {
    name: 'TypeError',
    message: "config.ropeLayout must be 'interleaved' or 'rotate_half', got the string \"half\"",
  });
});

test('positionSchemes lists the model schemes; each one makes a model that reports it', () => {
  assert.ok(Object.isFrozen(lab.positionSchemes));
  assert.deepEqual([...lab.positionSchemes], ['learned', 'sinusoidal', 'rope', 'alibi', 't5', 'none']);
  for (const positions of lab.positionSchemes) {
    const model = lab.createModel({ vocabSize: 8, contextLength: 4, channels: 8, layers: 1, heads: 2, positions });
    assert.equal(model.config.positions, positions);
    model.dispose();
  }
});

test("ropeScalingDefaults are the core's, and the core fills in exactly them", () => {
  assert.ok(Object.isFrozen(lab.ropeScalingDefaults));
  // transformers' values (modeling_rope_utils); attentionFactor 0 stands for 0.1 ln(factor) + 1.
  assert.deepEqual(
    { ...lab.ropeScalingDefaults },
    {
      type: 'none',
      factor: 1,
      originalContextLength: 0,
      betaFast: 32,
      betaSlow: 1,
      attentionFactor: 0,
      truncate: true,
      lowFrequencyFactor: 1,
      highFrequencyFactor: 4,
    },
  );
  const d = lab.ropeScalingDefaults;
  const config = { vocabSize: 8, contextLength: 8, channels: 8, heads: 2, positions: 'rope' };
  for (const [ropeScaling, expected] of [
    [
      { type: 'yarn', factor: 2, originalContextLength: 8 },
      { betaFast: d.betaFast, betaSlow: d.betaSlow, truncate: d.truncate },
    ],
    [
      { type: 'llama3', factor: 2, originalContextLength: 8 },
      { lowFrequencyFactor: d.lowFrequencyFactor, highFrequencyFactor: d.highFrequencyFactor },
    ],
  ]) {
    const model = lab.createModel({ ...config, ropeScaling });
    assert.deepEqual(model.config.ropeScaling, { ...ropeScaling, ...expected });
    // The checkpoint's reader takes the same defaults for keys a file leaves out.
    const loaded = lab.loadModel(
      withMetadata(model.save(), { rope_scaling: JSON.stringify(ropeScalingJson(ropeScaling)) }),
    );
    assert.deepEqual(loaded.config.ropeScaling, model.config.ropeScaling);
    loaded.dispose();
    model.dispose();
  }
  // An attentionFactor left out and one of 0 are the same default.
  const frequencies = (scaling) => lab.ropeFrequencies({ headDim: 8, scaling }).attentionFactor;
  const yarn = { type: 'yarn', factor: 4, originalContextLength: 64 };
  assert.equal(frequencies(yarn), frequencies({ ...yarn, attentionFactor: 0 }));
  assert.equal(frequencies(yarn), 0.1 * Math.log(4) + 1);
});

test('ropeScaling: the JS layer checks types, the core every range (with its numbers)', () => {
  const bad = [
    [{ type: 'linear', factor: '2' }, TypeError, /scaling.factor must be a number, got the string "2"/],
    [{ type: 'yarn', factor: 2, originalContextLength: 8, truncate: 1 }, TypeError, /scaling.truncate must be true/],
    [{ type: 'yarn', factor: 2, originalContextLength: 8.5 }, RangeError, /must be an integer in \[1, 65536\]/],
    [{ type: 'linear', factor: 2e6 }, RangeError, /^scaling.factor must be a finite number in \[1, 1000000\]/],
    [
      { type: 'yarn', factor: 2, originalContextLength: 8, attentionFactor: 17 },
      RangeError,
      /^scaling.attentionFactor must be a finite number in \(0, 16\], got 17$/,
    ],
  ];
  for (const [scaling, name, message] of bad) {
    assert.throws(
      () => lab.ropeFrequencies({ headDim: 8, scaling }),
      { name: name.name, message },
      JSON.stringify(scaling),
    );
  }
});

// A checkpoint with some metadata replaced (safetensors: 8-byte header length, JSON header, data).
function withMetadata(bytes, changes) {
  const file = Buffer.from(bytes);
  const length = Number(file.readBigUInt64LE(0));
  const header = JSON.parse(file.subarray(8, 8 + length).toString('utf8'));
  Object.assign(header.__metadata__, changes);
  let text = JSON.stringify(header);
  text += ' '.repeat((8 - (text.length % 8)) % 8);
  const out = Buffer.alloc(8 + text.length + file.length - 8 - length);
  out.writeBigUInt64LE(BigInt(text.length));
  out.write(text, 8);
  file.copy(out, 8 + text.length, 8 + length);
  return new Uint8Array(out);
}

// transformers' keys, only those given (the reader fills in the rest).
function ropeScalingJson({ type, factor, originalContextLength }) {
  return { rope_type: type, factor, original_max_position_embeddings: originalContextLength };
}

// Words of a message that read as C++ names: snake_case outside quotes, or a C++ call such as ids.size().
// A JSON path's segments (post_processor.special_tokens, written path + ".special_tokens") are the file's own keys.
function cppNames(message, values) {
  const bare = message
    .replace(/"[^"]*"/g, '')
    .replace(/'[^']*'/g, '')
    .replace(/(^|[\w\]])\.[a-z][a-z0-9_]*(?![\w(])/g, '$1');
  const words = bare.match(/\b[a-z][a-z0-9]*_[a-z0-9_]*[a-z0-9]\b|\b\w+\.(size|dim)\(\)/g) ?? [];
  return words.filter((word) => !values.includes(word));
}

test('core messages reach JS with the JS names: checkpoints checked by the core alone', () => {
  const config = { vocabSize: 8, contextLength: 8, channels: 8, heads: 2, positions: 'rope' };
  const model = lab.createModel(config);
  const bytes = model.save();
  model.dispose();
  const t5 = lab.createModel({ ...config, positions: 't5' });
  const t5Bytes = t5.save();
  t5.dispose();
  const cases = [
    [bytes, { context_length: '0' }, /^checkpoint config\.contextLength must be an integer in \[1, 65536\], got 0$/],
    [
      bytes,
      { rope_base: '0.5' },
      /^checkpoint config\.ropeBase must be a finite number in \[1, 1000000000000\], got 0.5$/,
    ],
    [
      bytes,
      { embedding_scale: '0' },
      /^checkpoint config\.embeddingScale must be a finite number in \(0, 1024\], got 0$/,
    ],
    [
      bytes,
      { adamw_learning_rate: '11' },
      /^checkpoint config\.optimizer\.learningRate must be a finite number in \[0, 10\], got 11$/,
    ],
    [bytes, { adamw_weight_decay: '-1' }, /^checkpoint config\.optimizer\.weightDecay must be a finite number/],
    [bytes, { rope_layout: 'half' }, /^ropeLayout must be "interleaved" or "rotate_half", got "half"$/],
    [
      t5Bytes,
      { relative_attention_num_buckets: '1' },
      /^checkpoint config\.t5NumBuckets \(causal\) must be an integer in \[2, 4096\], got 1$/,
    ],
  ];
  const values = [...lab.ropeLayouts, ...lab.tokenizerNames, ...lab.longContextSchemes];
  for (const [file, changes, message] of cases) {
    let error;
    assert.throws(
      () => lab.loadModel(withMetadata(file, changes)),
      (e) => {
        error = e;
        return true;
      },
    );
    assert.match(error.message, message, JSON.stringify(changes));
    assert.deepEqual(cppNames(error.message, values), [], error.message);
  }
});

test('core messages reach JS with the JS names: a disallowed special token', async () => {
  const tokenizer = await lab.getTokenizer('gpt2');
  assert.throws(() => tokenizer.encode('a <|endoftext|>'), {
    message: /allow it \(allowedSpecial\), or encode it as text \(disallowedSpecial: \[\] or encodeOrdinary\)$/,
  });
  tokenizer.dispose();
});

// Every message the core can throw, read from its source: the string literals of each throw statement and each
// Require*/Validate*/check call (comments and #include lines aside). A name must be the JS API's; a file's own key
// is quoted ("vocab_size") or a JSON path's segment (post_processor.special_tokens); the values the API lists
// (encoding names, rotate_half, rope_pi) may stand bare.
test('no message in the C++ core names an argument as C++ does', () => {
  const root = fileURLToPath(new URL('../../src/', import.meta.url));
  const layers = readdirSync(root).filter((name) => statSync(join(root, name)).isDirectory());
  const core = layers.filter((name) => !['js', 'torch', 'tools'].includes(name));
  assert.ok(core.includes('bindings') && core.includes('model') && core.includes('bpe'), core.join());
  const files = (dir) =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : /\.(cc|h)$/.test(name) ? [path] : [];
    });
  const values = [...lab.ropeLayouts, ...lab.tokenizerNames, ...lab.longContextSchemes];
  const found = [];
  let statements = 0;
  for (const path of core.flatMap((layer) => files(join(root, layer)))) {
    const { code, literals } = splitLiterals(readFileSync(path, 'utf8'));
    for (const statement of code.split(/[;{}]/)) {
      if (!/\bthrow\b|\b(Require\w*|Validate\w*|\w*[Cc]heck\w*)\s*\(/.test(statement)) {
        continue;
      }
      // RequireMember(json, path, "key", …) names the file's key: quoted when missing, else in a JSON path.
      const keys = [...statement.matchAll(/RequireMember\([^,]*,[^,]*,\s*@(\d+)@/g)].map((match) => match[1]);
      const message = (statement.match(/@\d+@/g) ?? [])
        .map((token) => token.slice(1, -1))
        .map((index) => (keys.includes(index) ? `"${literals[index]}"` : literals[index]))
        .join(' … ');
      statements++;
      for (const name of cppNames(message, values)) {
        found.push(`${path.slice(root.length)}: ${name} in "${message}"`);
      }
    }
  }
  assert.ok(statements > 200, `only ${statements} statements found: the scan is broken`);
  assert.deepEqual(found, []);
});

// The delimiter of the C++ raw string literal that starts at i, or null.
function rawStringAt(source, i) {
  if (source[i] !== 'R' || source[i + 1] !== '"' || /\w/.test(source[i - 1] ?? '')) {
    return null;
  }
  const match = /^[^()\\\s"]{0,16}\(/.exec(source.slice(i + 2, i + 20));
  return match === null ? null : match[0].slice(0, -1);
}

// The code with comments and preprocessor lines removed and each string literal replaced by @index@.
function splitLiterals(source) {
  const literals = [];
  let code = '';
  for (let i = 0; i < source.length;) {
    if (source.startsWith('//', i) || (source[i] === '#' && (i === 0 || source[i - 1] === '\n'))) {
      const end = source.indexOf('\n', i);
      i = end < 0 ? source.length : end;
    } else if (source.startsWith('/*', i)) {
      i = source.indexOf('*/', i) + 2;
    } else if (source[i] === "'") {
      const length = source[i + 1] === '\\' ? 4 : 3;
      code += source.slice(i, i + length);
      i += length;
    } else if (rawStringAt(source, i) !== null) {
      // R"delimiter( ... )delimiter", e.g. the split regexes' R"re(...)re" (a plain scan would run off the end).
      const delimiter = rawStringAt(source, i);
      const open = i + 3 + delimiter.length;
      const end = source.indexOf(`)${delimiter}"`, open);
      assert.ok(end >= 0, `unterminated raw string at ${i}`);
      code += `@${literals.length}@`;
      literals.push(source.slice(open, end));
      i = end + delimiter.length + 2;
    } else if (source[i] === '"') {
      let text = '';
      let j = i + 1;
      for (; source[j] !== '"'; j++) {
        assert.ok(j < source.length, `unterminated string literal at ${i}`);
        if (source[j] === '\\') {
          j++;
        }
        text += source[j];
      }
      code += `@${literals.length}@`;
      literals.push(text);
      i = j + 1;
    } else {
      code += source[i++];
    }
  }
  return { code, literals };
}
