// Section 2's way out to PyTorch and back: the trained model (model.save(): weights, AdamW state, step) and the ids
// it trains on as downloads, for `npx embedlab export-torch` and train.py; a model file from there opens here to
// keep training in the browser, once a worker has checked it.
import { $ } from '../../ui/dom.js';
import { runJob } from '../../workers/jobs_client.js';
import { buildData, MODEL_DEFAULTS } from '../../training/training.js';

const MODEL_FILE = 'embedlab-section2.safetensors';
const DATA_FILE = 'embedlab-section2-train.bin';
let trainIds = null; // Uint8Array of uint32 little-endian ids, made once
const urls = {};

function offer(id, bytes, name, text) {
  if (urls[id]) {
    URL.revokeObjectURL(urls[id]);
  }
  urls[id] = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
  const link = $(id);
  link.href = urls[id];
  link.download = name;
  link.textContent = text;
  link.hidden = false;
}

// The worker's corpus, tokenized the same way (training/training.js buildData with r50k_base), as train.py reads it.
async function trainingIds(ctx) {
  if (!trainIds) {
    const { train } = buildData(ctx.lab, await ctx.loadTokenizer('r50k_base'));
    trainIds = new Uint8Array(train.length * 4);
    const view = new DataView(trainIds.buffer);
    train.forEach((id, i) => view.setUint32(4 * i, id, true));
  }
  return trainIds;
}

/** Offers `saved` (model.save() bytes at `step`) and the section's training ids for download. */
export async function offerDownloads(ctx, saved, step) {
  if (!saved) {
    return;
  }
  offer('embeddings-torch-model', saved, MODEL_FILE, `Download the model at step ${step} (${MODEL_FILE})`);
  const ids = await trainingIds(ctx);
  offer('embeddings-torch-data', ids, DATA_FILE, `Download its training ids (${DATA_FILE}, ${ids.length / 4} tokens)`);
}

/** "a 2-layer GPT, 32 channels, 4 heads, learned positions, 20 tokens" */
function describe({ layers, channels, heads, positions, vocabSize }) {
  return `a ${layers}-layer GPT, ${channels} channels, ${heads} heads, ${positions} positions, ${vocabSize} tokens`;
}

/** Why a checkpoint's config cannot go on training as this section's model, or null when it can. */
export function mismatch(config, maxLength, vocabSize) {
  const expected = { ...MODEL_DEFAULTS, positions: 'learned', vocabSize };
  const keys = ['layers', 'channels', 'heads', 'positions', 'vocabSize'];
  if (keys.some((key) => config[key] !== expected[key]) || !config.causal) {
    const kind = config.causal ? describe(config) : `${describe(config)}, bidirectional`;
    return `it holds ${kind}; this section trains ${describe(expected)} (the distinct tokens of its corpus): open a model downloaded here, or trained in PyTorch from one.`;
  }
  if (maxLength < MODEL_DEFAULTS.contextLength) {
    return `it reads at most ${maxLength} tokens; this section trains on ${MODEL_DEFAULTS.contextLength}-token windows.`;
  }
  return null;
}

/**
 * Wires the file input: the file is read and checked in a worker (a hostile file cannot hurt the page or its
 * model); a model that fits the section's corpus goes to continueFrom(bytes, step, learningRate); anything else
 * gets a message under the input naming the file and what is wrong, and the section's model stays as it was.
 */
export function initTorchPanel(ctx, { vocabSize, learningRate, continueFrom }) {
  const input = $('embeddings-torch-file');
  const status = $('embeddings-torch-status');
  const error = $('embeddings-torch-error');
  let opening = 0; // the latest file; an older one whose check ends later is dropped
  const refuse = (name, reason) => {
    status.dataset.state = 'error';
    status.textContent = `${name} was not opened; the model above is unchanged.`;
    error.textContent = `${name}: ${reason}`;
  };
  input.addEventListener('change', async () => {
    const file = input.files?.[0];
    const request = ++opening;
    error.textContent = '';
    if (!file) {
      return;
    }
    const needed = vocabSize();
    const rate = learningRate();
    if (needed === 0 || rate === null) {
      refuse(
        file.name,
        needed === 0
          ? 'the section’s corpus is still loading; open the file again in a moment.'
          : 'the learning rate above is not usable (see its message).',
      );
      return;
    }
    status.dataset.state = 'running';
    status.textContent = `Checking ${file.name}…`;
    let checked;
    try {
      checked = await runJob('inspectModel', { file }).done;
    } catch (failure) {
      if (request === opening) {
        refuse(file.name, failure.message);
      }
      return;
    }
    if (request !== opening) {
      return;
    }
    const { bytes, config, step, maxLength } = checked;
    const reason = mismatch(config, maxLength, needed);
    if (reason) {
      refuse(file.name, reason);
      return;
    }
    status.dataset.state = 'opened';
    status.dataset.step = String(step);
    status.textContent = `Opened ${file.name} (${describe(config)}, step ${step}): training goes on above, from step ${step}.`;
    continueFrom(bytes, step, rate);
  });
}
