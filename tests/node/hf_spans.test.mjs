// The spans of a Hugging Face tokenizer's tokens(): inside the input, non-decreasing, and each token's bytes are the
// input's bytes where its span is (a byte-level token spans exactly its bytes, even part of a character; the
// byte_fallback tokens <0xNN> of one character all span that character); template tokens have empty spans. For the byte-level files (Llama 3, Llama 3.1, DeepSeek
// V3, Qwen 3 on NFC text) a token's bytes are the input's own; for Gemma 3 and Llama 2 (SentencePiece style, "▁" for
// a space) they are too, but for the "▁" Llama 2's normalizer prepends to the text, which no input byte holds.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import createEmbedLab from '../../dist/index.js';
import { brownExcerpt, HF_MODELS, readModelFiles, SAMPLE_TEXTS } from './hf_support.mjs';

const lab = await createEmbedLab();
const encoder = new TextEncoder();
const BYTE_LEVEL = ['llama3', 'llama3_1', 'qwen3', 'deepseek_v3'];
const texts = { ...SAMPLE_TEXTS, brown: brownExcerpt(20_000) };

// [start, end) of the UTF-8 character holding byte i.
function characterAt(bytes, i) {
  let start = i;
  while (start > 0 && (bytes[start] & 0xc0) === 0x80) {
    start--;
  }
  let end = i + 1;
  while (end < bytes.length && (bytes[end] & 0xc0) === 0x80) {
    end++;
  }
  return [start, end];
}

function equalBytes(a, b) {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

for (const model of HF_MODELS) {
  test(`${model}: token spans lie in the input, never go back, and hold the token's bytes`, async () => {
    const { jsonText, configText } = readModelFiles(model);
    const tokenizer = await lab.tokenizerFromHuggingFace(jsonText, { config: configText });
    try {
      for (const [name, text] of Object.entries(texts)) {
        if (model === 'qwen3' && text.normalize('NFC') !== text) {
          continue; // NFC changes the bytes the tokens stand for: only the bounds are checked (below)
        }
        const input = encoder.encode(text);
        const tokens = tokenizer.tokens(text, { addSpecialTokens: false });
        // Llama 2's Prepend normalizer puts a "▁" before the text: its first token stands for one byte more.
        let cursor = model === 'llama2' ? -1 : 0;
        let previousStart = 0;
        for (const [i, token] of tokens.entries()) {
          const label = `${name}, token ${i} ${JSON.stringify(token.token)} [${token.start}, ${token.end})`;
          assert.ok(token.start <= token.end && token.end <= input.length, `${label}: outside the input`);
          assert.ok(token.start >= previousStart, `${label}: starts before the token before it`);
          previousStart = token.start;
          assert.ok(equalBytes(token.bytes, input.subarray(token.start, token.end)), `${label}: bytes`);
          const own = tokenizer.tokenBytes(token.id);
          const expected =
            cursor < 0
              ? encoder.encode(' ' + text).subarray(0, own.length)
              : input.subarray(cursor, cursor + own.length);
          assert.ok(equalBytes(own, expected), `${label}: stands for other bytes than the input's at ${cursor}`);
          const first = Math.max(cursor, 0);
          const last = Math.max(cursor + own.length - 1, first);
          const [charStart] = characterAt(input, first);
          const [, charEnd] = characterAt(input, last);
          // Byte-level tokens span exactly their bytes; byte_fallback's <0xNN> tokens span their whole character.
          // Llama 2's prepended "▁", when it is a token of its own, comes from no input byte: an empty span.
          const [start, end] = BYTE_LEVEL.includes(model)
            ? [first, cursor + own.length]
            : cursor < 0 && own.length === 1
              ? [0, 0]
              : [charStart, charEnd];
          assert.equal(token.start, start, `${label}: start, at input byte ${first}`);
          assert.equal(token.end, end, `${label}: end, at input byte ${first}`);
          cursor += own.length;
        }
        assert.equal(cursor, input.length, `${name}: the tokens stand for the whole input`);
      }
      for (const [name, text] of Object.entries(texts)) {
        const length = encoder.encode(text).length;
        const tokens = tokenizer.tokens(text);
        let previousStart = 0;
        for (const token of tokens) {
          assert.ok(token.start >= previousStart && token.start <= token.end && token.end <= length, name);
          previousStart = token.start;
        }
        const template = tokens.length - tokenizer.count(text, { addSpecialTokens: false });
        for (const token of tokens.slice(0, template)) {
          assert.equal(token.start, token.end, `${name}: a template token has an empty span`);
        }
      }
    } finally {
      tokenizer.dispose();
    }
  });
}
