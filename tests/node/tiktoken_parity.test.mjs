// The shipped wasm package (SIMD128 and fallback) against npm tiktoken, the reference, token for token, for
// r50k_base, p50k_base, cl100k_base and o200k_base on the corpora of tests/reference/tokenizer_corpora.mjs
// (smaller than scripts/check-tiktoken-parity.mjs's defaults, which checks the native build on a few MB):
// English and multilingual man pages, seeded adversarial strings, every case of gpt-tokenizer's
// data/TestPlans.txt, and texts with special-token text (allowed 'all', and tiktoken's default rejection).
// Plus decode(encode(x)) == x for random byte strings, invalid UTF-8 included.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';

import { get_encoding } from 'tiktoken';

import createEmbedLab from '../../dist/index.js';
import { englishCorpus, multilingualCorpus, testPlanCases, utf8Bytes } from '../reference/tokenizer_corpora.mjs';
import { adversarialStrings, specialTokenStrings } from '../reference/adversarial_strings.mjs';
import { firstDifference } from '../reference/token_comparison.mjs';

const require = createRequire(import.meta.url);
const SEED = 1;
const ENCODINGS = ['r50k_base', 'p50k_base', 'cl100k_base', 'o200k_base'];
// TestPlans.txt also has p50k_edit cases: its ordinary encoding is p50k_base's.
const PLAN_ENCODINGS = {
  r50k_base: ['r50k_base'],
  p50k_base: ['p50k_base', 'p50k_edit'],
  cl100k_base: ['cl100k_base'],
  o200k_base: ['o200k_base'],
};

const corpora = {
  english: englishCorpus({ bytes: 0.75e6 }), // + ~0.26 MB of licences: ~1 MB
  multilingual: multilingualCorpus({ bytes: 0.5e6 }),
  adversarial: adversarialStrings({ count: 3000, seed: SEED }),
};
const plans = testPlanCases();

// The corpora come from the machine (man pages, licences): a machine without them would compare nothing.
test('the corpora are as large as the test needs', () => {
  assert.ok(utf8Bytes(corpora.english) >= 0.75e6, `english ${utf8Bytes(corpora.english)} bytes`);
  assert.ok(utf8Bytes(corpora.multilingual) >= 0.4e6, `multilingual ${utf8Bytes(corpora.multilingual)} bytes`);
  // Multilingual means other scripts: count distinct Han, Cyrillic, Arabic and Greek characters.
  const scripts = new Set(
    corpora.multilingual.join('').match(/[\p{Script=Han}\p{Script=Cyrillic}\p{Script=Arabic}\p{Script=Greek}]/gu),
  );
  assert.ok(scripts.size >= 200, `${scripts.size} distinct non-Latin characters`);
  assert.equal(corpora.adversarial.length, 3000);
  assert.ok(plans.length >= 100, `${plans.length} TestPlans cases`);
});

// The reference's ids, computed once per encoding and shared by both flavours.
const referenceCache = new Map();
function referenceOf(name) {
  if (referenceCache.has(name)) {
    return referenceCache.get(name);
  }
  const enc = get_encoding(name);
  const specials = Object.keys(
    JSON.parse(readFileSync(require.resolve(`tiktoken/encoders/${name}.json`), 'utf8')).special_tokens,
  );
  const specialTexts = specialTokenStrings({ count: 500, seed: SEED, specials });
  const planCases = plans.filter((c) => PLAN_ENCODINGS[name].includes(c.encoding));
  const orError = (encode) => {
    try {
      return encode();
    } catch {
      return 'error';
    }
  };
  const reference = {
    corpora: Object.fromEntries(
      Object.entries(corpora).map(([label, texts]) => [label, texts.map((t) => enc.encode_ordinary(t))]),
    ),
    planCases,
    plans: planCases.map((c) => enc.encode_ordinary(c.text)),
    specialTexts,
    specialsAllowed: specialTexts.map((t) => enc.encode(t, 'all')),
    specialsDisallowed: specialTexts.map((t) => orError(() => enc.encode(t))),
  };
  enc.free();
  referenceCache.set(name, reference);
  return reference;
}

// Counts equal texts and tokens of ours against theirs; returns a row and the first mismatch.
function compare(label, texts, ours, theirs) {
  const row = { label, texts: texts.length, equalTexts: 0, tokens: 0, equalTokens: 0, mismatch: null };
  for (let i = 0; i < texts.length; ++i) {
    const size = theirs[i] === 'error' ? 1 : theirs[i].length;
    row.tokens += size;
    const at = firstDifference(ours[i], theirs[i]);
    if (at < 0) {
      ++row.equalTexts;
      row.equalTokens += size;
    } else {
      row.equalTokens += at;
      row.mismatch ??=
        `${label}: text ${JSON.stringify(texts[i].slice(0, 120))} differs at token ${at}: ours ` +
        `${ours[i] === 'error' ? 'error' : Array.from(ours[i].slice(at, at + 5))} tiktoken ` +
        `${theirs[i] === 'error' ? 'error' : Array.from(theirs[i].slice(at, at + 5))}`;
    }
  }
  return row;
}

for (const simd of [true, false]) {
  const flavour = simd ? 'SIMD128' : 'fallback';
  describe(`wasm ${flavour} against npm tiktoken`, () => {
    let lab;
    before(async () => {
      lab = await createEmbedLab({ simd });
    });

    for (const name of ENCODINGS) {
      describe(name, () => {
        let tokenizer;
        before(async () => {
          tokenizer = await lab.getTokenizer(name);
        });
        after(() => tokenizer.dispose());

        test('token for token on English, multilingual, adversarial, TestPlans and special-token texts', (t) => {
          const reference = referenceOf(name);
          const rows = [];
          for (const [label, texts] of Object.entries(corpora)) {
            rows.push(
              compare(
                label,
                texts,
                texts.map((text) => tokenizer.encodeOrdinary(text)),
                reference.corpora[label],
              ),
            );
          }
          const planTexts = reference.planCases.map((c) => c.text);
          const planIds = planTexts.map((text) => tokenizer.encodeOrdinary(text));
          rows.push(compare('TestPlans', planTexts, planIds, reference.plans));
          rows.push(
            compare(
              'TestPlans stored ids',
              planTexts,
              planIds,
              reference.planCases.map((c) => c.expected),
            ),
          );
          const specialTexts = reference.specialTexts;
          rows.push(
            compare(
              'specials allowed',
              specialTexts,
              specialTexts.map((text) => tokenizer.encode(text, { allowedSpecial: 'all' })),
              reference.specialsAllowed,
            ),
          );
          rows.push(
            compare(
              'specials disallowed',
              specialTexts,
              specialTexts.map((text) => {
                try {
                  return tokenizer.encode(text);
                } catch (error) {
                  assert.match(error.message, /disallowed special token/);
                  return 'error';
                }
              }),
              reference.specialsDisallowed,
            ),
          );
          const rejected = reference.specialsDisallowed.filter((ids) => ids === 'error').length;
          const sum = (key) => rows.reduce((s, r) => s + r[key], 0);
          t.diagnostic(
            `${name} ${flavour}: ${sum('equalTexts')}/${sum('texts')} texts, ${sum('equalTokens')}/${sum('tokens')} tokens equal; ` +
              `english ${(utf8Bytes(corpora.english) / 1e6).toFixed(2)} MB, multilingual ${(utf8Bytes(corpora.multilingual) / 1e6).toFixed(2)} MB; ` +
              rows.map((r) => `${r.label} ${r.equalTexts}/${r.texts}`).join(', ') +
              `; ${rejected} special texts rejected by both`,
          );
          const mismatches = rows.filter((r) => r.mismatch).map((r) => r.mismatch);
          assert.deepEqual(mismatches, []);
          assert.ok(planTexts.length >= 57 && rejected > 0 && rejected < specialTexts.length);
        });

        test('decode(encode(x)) == x for 2000 random byte strings, invalid UTF-8 included', (t) => {
          let state = 0x9e3779b9 ^ name.length;
          const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296;
          const utf8 = new TextEncoder().encode('é日👍\u0085\ufeff\u0301 \n\t1 x');
          let invalid = 0;
          for (let trial = 0; trial < 2000; trial++) {
            const length = Math.floor(random() * (trial % 10 === 0 ? 600 : 80));
            const bytes = new Uint8Array(length);
            for (let i = 0; i < length; i++) {
              const kind = random();
              bytes[i] =
                kind < 0.35
                  ? Math.floor(random() * 256) // any byte: invalid UTF-8
                  : kind < 0.5
                    ? 0x80 + Math.floor(random() * 0x40) // stray continuation bytes
                    : kind < 0.75
                      ? utf8[Math.floor(random() * utf8.length)] // pieces of real characters
                      : 0x20 + Math.floor(random() * 0x5f); // printable ASCII
            }
            try {
              new TextDecoder('utf-8', { fatal: true }).decode(bytes);
            } catch {
              invalid++;
            }
            const ids = tokenizer.encodeOrdinary(bytes);
            assert.deepEqual(tokenizer.decodeBytes(ids), bytes, `trial ${trial}`);
          }
          t.diagnostic(`${name} ${flavour}: 2000 byte strings round-trip, ${invalid} of them invalid UTF-8`);
          assert.ok(invalid > 1000);
        });
      });
    }
  });
}
