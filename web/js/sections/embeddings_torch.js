// Section 2's way out to PyTorch and back: the trained model (model.save(): weights, AdamW state, step) and the ids
// it trains on as downloads, for `npx embedlab export-torch` and train.py; a model file from there opens here to
// keep training in the browser.
import { $ } from '../dom.js';
import { buildData, MODEL_DEFAULTS } from '../training.js';

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

// The worker's corpus, tokenized the same way (training.js buildData with r50k_base), as train.py reads it.
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

/**
 * Wires the file input: a model that fits the section's corpus (its vocabulary size, sequences of the section's
 * length) goes to continueFrom(bytes, step); anything else gets a message naming the file and what is needed.
 */
export function initTorchPanel(ctx, { vocabSize, continueFrom }) {
  const input = $('embeddings-torch-file');
  const error = $('embeddings-torch-error');
  input.addEventListener('change', async () => {
    const file = input.files?.[0];
    error.textContent = '';
    if (!file) {
      return;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    let config;
    let step;
    let maxLength;
    try {
      const model = ctx.lab.loadModel(bytes);
      ({ config, step, maxLength } = model);
      model.dispose();
    } catch (failure) {
      error.textContent = `${file.name}: ${failure.message}`;
      return;
    }
    const needed = vocabSize();
    if (config.vocabSize !== needed) {
      error.textContent = `${file.name} has vocabSize ${config.vocabSize}; this section's corpus has ${needed} distinct tokens: open a model downloaded here (or trained in PyTorch from one).`;
      return;
    }
    if (maxLength < MODEL_DEFAULTS.contextLength) {
      error.textContent = `${file.name} reads at most ${maxLength} tokens; this section trains on ${MODEL_DEFAULTS.contextLength}-token windows.`;
      return;
    }
    continueFrom(bytes, step);
  });
}
