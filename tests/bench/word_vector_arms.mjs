// Section 2's four arms in node (web/js/training/word_vector_arms.js, the code the page's worker runs): each arm's
// validation loss after N steps, mean and range over seeds, and each arm's gap to joint training, at one or more
// RMS row norms. Reads the site's Brown excerpt (build/site/corpus/brown-excerpt.txt: run a build first).
// Usage: node tests/bench/word_vector_arms.mjs [--steps 400] [--seeds 1,2,3] [--row-norms 1] [--json]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import createEmbedLab from '../../dist/index.js';
import {
  ARM_NAMES,
  ARMS,
  ARMS_SETUP,
  armsCorpus,
  armsSeed,
  summariseArms,
} from '../../web/js/training/word_vector_arms.js';

const { values } = parseArgs({
  options: {
    steps: { type: 'string', default: String(ARMS_SETUP.steps) },
    seeds: { type: 'string', default: ARMS_SETUP.seeds.join(',') },
    'row-norms': { type: 'string', default: String(ARMS_SETUP.rowNorm) },
    json: { type: 'boolean', default: false },
  },
});
const steps = Number(values.steps);
const seeds = values.seeds.split(',').map(Number);
const norms = values['row-norms'].split(',').map(Number);

const lab = await createEmbedLab();
const excerpt = fileURLToPath(new URL('../../build/site/corpus/brown-excerpt.txt', import.meta.url));
const data = await armsCorpus(lab, readFileSync(excerpt, 'utf8'));
const f3 = (v) => v.toFixed(3);
const signed = (v) => (v >= 0 ? '+' : '') + v.toFixed(3);
const results = [];
console.log(
  `Brown excerpt: ${data.trainIds.length} training and ${data.validIds.length} validation tokens, ` +
    `${data.vocabSize}-token BPE; ${steps} steps, seeds ${seeds.join(', ')}`,
);
for (const rowNorm of norms) {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const runs = [];
  for (const seed of seeds) {
    runs.push(await armsSeed(lab, data, { seed, steps, rowNorm }));
  }
  const summary = summariseArms(runs);
  const seconds = (performance.now() - started) / 1000;
  const { user, system } = process.cpuUsage(cpu);
  const cpuSeconds = (user + system) / 1e6;
  results.push({ rowNorm, steps, seeds, summary, seconds, cpuSeconds });
  console.log(`\nRMS row norm ${f3(rowNorm)} (${seconds.toFixed(1)} s wall, ${cpuSeconds.toFixed(1)} s CPU)`);
  console.log('arm                          valid mean [min, max]      gap to joint mean [min, max]');
  for (const arm of ARMS) {
    const { valid } = summary.arms[arm];
    const gap = summary.gaps[arm];
    console.log(
      `${ARM_NAMES[arm].padEnd(28)} ${f3(valid.mean)} [${f3(valid.min)}, ${f3(valid.max)}]` +
        `   ${arm === 'joint' ? '' : `${signed(gap.mean)} [${signed(gap.min)}, ${signed(gap.max)}]`}`,
    );
  }
}
if (values.json) {
  console.log(JSON.stringify(results.map(({ summary, ...r }) => ({ ...r, arms: summary.arms, gaps: summary.gaps }))));
}
