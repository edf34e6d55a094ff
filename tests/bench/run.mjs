// `npm run bench`: every benchmark, printed as Markdown tables (also written to build/bench/results.md).
// `node tests/bench/run.mjs Model 'Hugging Face tokenizers'` runs only the named sections (Kernels, Model, Tokenizer,
// 'Hugging Face tokenizers', 'Race workers', GloVe, 'CLI threads', 'Page load').
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

import { benchCliThreads } from './cli_threads.mjs';
import { benchGlove } from './glove.mjs';
import { benchKernels } from './kernels.mjs';
import { benchModel } from './model.mjs';
import { benchPageLoad } from './page_load.mjs';
import { benchRaceWorkers } from './race_workers.mjs';
import { benchTokenizer } from './tokenizer.mjs';
import { benchHfTokenizers } from './tokenizer_hf.mjs';

const sections = [
  `Machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)} at start; ` +
    `node ${process.version}.`,
];
console.log(sections[0]);
const benches = [
  ['Kernels', benchKernels],
  ['Model', benchModel],
  ['Tokenizer', benchTokenizer],
  ['Hugging Face tokenizers', benchHfTokenizers],
  ['Race workers', benchRaceWorkers],
  ['GloVe', benchGlove],
  ['CLI threads', benchCliThreads],
  ['Page load', benchPageLoad],
];
const wanted = process.argv.slice(2);
for (const [title, bench] of benches.filter(([title]) => wanted.length === 0 || wanted.includes(title))) {
  console.log(`\n## ${title}\n`);
  const table = await bench();
  console.log(table);
  sections.push(`## ${title}\n\n${table}`);
}
mkdirSync(new URL('../../build/bench/', import.meta.url), { recursive: true });
writeFileSync(new URL('../../build/bench/results.md', import.meta.url), sections.join('\n\n') + '\n');
