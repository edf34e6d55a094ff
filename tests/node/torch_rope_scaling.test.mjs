// The PyTorch side of RoPE scaling needs no defaults of its own: a checkpoint holds every key its scaling type reads
// (the C++ core's defaults written out), and src/torch/embedlab_rope_scaling.py takes each as it is and refuses a
// scaling with any key taken out.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import createEmbedLab from '../../dist/index.js';
import { python, readSafetensors, run, torchDir } from './torch_support.mjs';

const work = mkdtempSync(join(tmpdir(), 'embedlab-torch-scaling-'));
let lab;
before(async () => {
  lab = await createEmbedLab();
});
after(() => rmSync(work, { recursive: true, force: true }));

test('the PyTorch side needs no RoPE scaling defaults: a checkpoint holds every key its type reads', () => {
  const minimal = {
    linear: { factor: 2 },
    ntk: { factor: 2 },
    dynamic: { factor: 2, originalContextLength: 8 },
    yarn: { factor: 2, originalContextLength: 8 },
    llama3: { factor: 2, originalContextLength: 8 },
  };
  assert.deepEqual(Object.keys(minimal), lab.ropeScalingTypes.slice(1));
  const scalings = Object.entries(minimal).map(([type, fields]) => {
    const model = lab.createModel({ vocabSize: 8, contextLength: 8, channels: 8, heads: 2, positions: 'rope' });
    model.setRopeScaling({ type, ...fields });
    const path = join(work, `scaling-${type}.safetensors`);
    writeFileSync(path, model.save());
    model.dispose();
    return JSON.parse(readSafetensors(path).metadata.rope_scaling);
  });
  // The core's defaults are in the file (transformers' values, also checked in Catch2).
  const d = lab.ropeScalingDefaults;
  assert.deepEqual(scalings[3], {
    rope_type: 'yarn',
    factor: 2,
    original_max_position_embeddings: 8,
    beta_fast: d.betaFast,
    beta_slow: d.betaSlow,
    truncate: d.truncate,
  });
  assert.deepEqual(scalings[4], {
    rope_type: 'llama3',
    factor: 2,
    original_max_position_embeddings: 8,
    low_freq_factor: d.lowFrequencyFactor,
    high_freq_factor: d.highFrequencyFactor,
  });
  // embedlab_rope_scaling.py takes each as it is, and refuses each one with a key taken out.
  const script = [
    'import json, sys',
    'sys.path.insert(0, sys.argv[1])',
    'from embedlab_rope_scaling import check_rope_scaling, rope_frequencies',
    'out = []',
    'for s in json.loads(sys.argv[2]):',
    '    check_rope_scaling(s)',
    '    rope_frequencies(8, 10000.0, s, 16)',
    '    refused = []',
    '    for key in [k for k in s if k != "rope_type"]:',
    '        try:',
    '            check_rope_scaling({k: v for k, v in s.items() if k != key})',
    '        except ValueError as e:',
    '            refused.append(key)',
    '    out.append(refused)',
    'print(json.dumps(out))',
  ].join('\n');
  const refused = JSON.parse(run(python, ['-c', script, torchDir, JSON.stringify(scalings)]));
  assert.deepEqual(
    refused,
    scalings.map((s) => Object.keys(s).filter((key) => key !== 'rope_type')),
  );
});
