// `npm run bench`: every benchmark, printed as Markdown tables (also written to build/bench/results.md).
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';

import { benchKernels } from './kernels.mjs';

const sections = [`Machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores; node ${process.version}.`];
console.log(sections[0]);
for (const [title, bench] of [['Kernels', benchKernels]]) {
  console.log(`\n## ${title}\n`);
  const table = await bench();
  console.log(table);
  sections.push(`## ${title}\n\n${table}`);
}
mkdirSync(new URL('../../build/bench/', import.meta.url), { recursive: true });
writeFileSync(new URL('../../build/bench/results.md', import.meta.url), sections.join('\n\n') + '\n');
