// The page's Web Worker: long jobs (BPE training, model training, the extrapolation race) run here so the
// page stays responsive. One job per worker; the page cancels a job by terminating its worker.
import createEmbedLab from '../embedlab/index.js';
import { buildData, evaluateLengths, trainingBatches, trainModel } from './training.js';

const decoder = new TextDecoder('utf-8', { fatal: false });
let labPromise = null;
let simd = 'auto';
const lab = () => (labPromise ??= createEmbedLab({ simd }));

const post = (message, transfer = []) => self.postMessage(message, transfer);

async function trainBpe({ corpus, vocabSize, pattern }) {
  const l = await lab();
  const wanted = vocabSize - 256;
  const tokenizer = await l.trainTokenizer(corpus, {
    vocabSize,
    pattern,
    progressInterval: Math.max(1, Math.floor(wanted / 100)),
    onProgress: ({ merges, wanted, token, count }) => {
      post({ kind: 'progress', merges, wanted, token: decoder.decode(token), count });
    },
  });
  const bytes = tokenizer.save();
  const merges = tokenizer.merges.slice(-12).map((m) => ({
    id: m.id,
    count: m.count,
    left: decoder.decode(tokenizer.tokenBytes(m.left)),
    right: decoder.decode(tokenizer.tokenBytes(m.right)),
  }));
  post({ kind: 'done', bytes, mergeCount: tokenizer.merges.length, vocabSize: tokenizer.vocabSize, merges }, [
    bytes.buffer,
  ]);
  tokenizer.dispose();
}

async function data(encoding) {
  const l = await lab();
  const tokenizer = await l.getTokenizer(encoding);
  const d = buildData(l, tokenizer);
  tokenizer.dispose();
  return d;
}

/** Keeps training a saved model (section 2's "Keep training"): snapshots as below, the saved bytes when done. */
async function resume({ encoding, resume: bytes, steps, every, options }) {
  const l = await lab();
  const d = await data(encoding);
  post({ kind: 'data', labels: d.labels, originalIds: d.originalIds, vocabSize: d.vocabSize, sample: d.sample });
  const model = l.loadModel(bytes);
  const first = model.step;
  const last = first + steps;
  const batches = trainingBatches(l, d, options, first);
  for (let s = 0; s < steps; s++) {
    const { step, loss } = model.trainStep(batches.next());
    post({ kind: 'progress', step, steps: last, loss });
    if (step % every === 0 || step === last) {
      post({ kind: 'snapshot', step, loss, wte: model.tokenEmbeddings() });
    }
  }
  batches.dispose();
  const saved = model.save();
  model.dispose();
  post({ kind: 'done', saved }, [saved.buffer]);
}

/** One scheme, with snapshots of wte / wpe every `every` steps (step 0 included). */
async function train({ encoding, positions, steps, every, options, keep = false }) {
  const l = await lab();
  const d = await data(encoding);
  post({ kind: 'data', labels: d.labels, originalIds: d.originalIds, vocabSize: d.vocabSize, sample: d.sample });
  const snapshot = (model, step, loss) => {
    const wte = model.tokenEmbeddings();
    const wpe = model.positionEmbeddings();
    const transfer = [wte.buffer];
    if (wpe) {
      transfer.push(wpe.buffer);
    }
    post({ kind: 'snapshot', step, loss, wte, wpe }, transfer);
  };
  const model = trainModel(l, d, positions, {
    steps: 0,
    ...options,
  });
  snapshot(model, 0, NaN);
  model.dispose();
  const trained = trainModel(l, d, positions, {
    steps,
    ...options,
    onStep: ({ step, loss, model }) => {
      post({ kind: 'progress', step, steps, loss });
      if (step % every === 0 || step === steps) {
        snapshot(model, step, loss);
      }
    },
  });
  const lengths = evaluateLengths(l, trained, d, trained.config.contextLength);
  // keep: the model and optimizer state, for a later resume job.
  const saved = keep ? trained.save() : undefined;
  trained.dispose();
  post({ kind: 'done', lengths, saved }, saved ? [saved.buffer] : []);
}

/**
 * Section 2's two runs: the same model, seed and batches, once with wte trained and once with wte (and so the tied
 * output head) frozen at its random start. Progress per run, then each run's final table and validation loss.
 */
async function trainedVsFrozen({ encoding, steps, options }) {
  const l = await lab();
  const d = await data(encoding);
  post({ kind: 'data', labels: d.labels, vocabSize: d.vocabSize });
  for (const [run, frozen] of [
    ['trained', []],
    ['frozen', ['wte.weight']],
  ]) {
    const model = trainModel(l, d, 'learned', {
      steps,
      ...options,
      frozen,
      onStep: ({ step, loss }) => post({ kind: 'progress', run, step, steps, loss }),
    });
    const [{ loss: valid }] = evaluateLengths(l, model, d, model.config.contextLength);
    const wte = model.tokenEmbeddings();
    model.dispose();
    post({ kind: 'run', run, wte, valid }, [wte.buffer]);
  }
  post({ kind: 'done' });
}

async function race({ encoding, steps, schemes: chosen, options }) {
  const l = await lab();
  const schemes = chosen ?? l.positionSchemes;
  const d = await data(encoding);
  const results = [];
  schemes.forEach((positions, index) => {
    const model = trainModel(l, d, positions, {
      steps,
      ...options,
      onStep: ({ step, loss }) => {
        if (step % 10 === 0 || step === steps) {
          post({ kind: 'progress', positions, index, count: schemes.length, step, steps, loss });
        }
      },
    });
    const lengths = evaluateLengths(l, model, d, model.config.contextLength);
    model.dispose();
    results.push({ positions, lengths });
    post({ kind: 'result', positions, lengths });
  });
  post({ kind: 'done', results });
}

const jobs = { trainBpe, train, resume, race, trainedVsFrozen };

self.onmessage = async ({ data: { type, params, simd: flavour } }) => {
  simd = flavour ?? 'auto';
  try {
    await jobs[type](params);
  } catch (error) {
    post({ kind: 'error', message: error?.message ?? String(error) });
  }
};
