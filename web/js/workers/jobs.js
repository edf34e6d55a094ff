// The page's Web Worker: long jobs (BPE training, model training; the race has race/worker.js) run here so the
// page stays responsive. One job per worker; the page cancels a job by terminating its worker.
import createEmbedLab from '../../embedlab/index.js';
import { divergenceLimit, hasDiverged } from '../training/divergence.js';
import { buildData, evaluateLengths, trainingBatches, trainModel } from '../training/training.js';
import { corpusJob, seedJob } from './arms_jobs.js';

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

/**
 * Keeps training a saved model (section 2's "Keep training"): snapshots as below, the saved bytes when done, at
 * options.learningRate when given. A diverged run ends with the bytes of its last snapshot (those it was given
 * when it diverged before its first one).
 */
async function resume({ encoding, resume: bytes, steps, every, options = {} }) {
  const l = await lab();
  const d = await data(encoding);
  post({ kind: 'data', labels: d.labels, originalIds: d.originalIds, vocabSize: d.vocabSize, sample: d.sample });
  const model = l.loadModel(bytes);
  if (options.learningRate !== undefined) {
    model.setLearningRate(options.learningRate);
  }
  const first = model.step;
  const last = first + steps;
  post({ kind: 'snapshot', step: first, loss: NaN, wte: model.tokenEmbeddings() }); // the model it goes on from
  const batches = trainingBatches(l, d, options, first);
  let good = { step: first, saved: bytes };
  let diverged = null;
  for (let s = 0; s < steps; s++) {
    const { step, loss } = model.trainStep(batches.next());
    post({ kind: 'progress', step, steps: last, loss });
    if (hasDiverged(loss, d.vocabSize)) {
      diverged = { step, loss, limit: divergenceLimit(d.vocabSize), rolledBackTo: good.step };
      break;
    }
    if (step % every === 0 || step === last) {
      post({ kind: 'snapshot', step, loss, wte: model.tokenEmbeddings() });
      good = { step, saved: model.save() };
    }
  }
  batches.dispose();
  const saved = diverged ? good.saved : model.save();
  model.dispose();
  post({ kind: 'done', saved, diverged }, [saved.buffer]);
}

/**
 * One scheme, with snapshots of wte / wpe every `every` steps (step 0 included). A run whose loss diverges
 * (training/divergence.js) stops there and reports {diverged: {step, loss, limit, rolledBackTo}}: the model rolls
 * back to its last snapshot, whose saved bytes come with `keep`.
 */
async function train({ encoding, positions, steps, every, options, keep = false }) {
  const l = await lab();
  const d = await data(encoding);
  post({ kind: 'data', labels: d.labels, originalIds: d.originalIds, vocabSize: d.vocabSize, sample: d.sample });
  let good = null; // {step, saved} of the last snapshot
  const snapshot = (model, step, loss) => {
    const wte = model.tokenEmbeddings();
    const wpe = model.positionEmbeddings();
    const transfer = [wte.buffer];
    if (wpe) {
      transfer.push(wpe.buffer);
    }
    post({ kind: 'snapshot', step, loss, wte, wpe }, transfer);
    good = { step, saved: keep ? model.save() : undefined };
  };
  const model = trainModel(l, d, positions, {
    steps: 0,
    ...options,
  });
  snapshot(model, 0, NaN);
  model.dispose();
  let diverged = null;
  const trained = trainModel(l, d, positions, {
    steps,
    ...options,
    onStep: ({ step, loss, model }) => {
      post({ kind: 'progress', step, steps, loss });
      if (hasDiverged(loss, d.vocabSize)) {
        diverged = { step, loss, limit: divergenceLimit(d.vocabSize), rolledBackTo: good.step };
        return false;
      }
      if (step % every === 0 || step === steps) {
        snapshot(model, step, loss);
      }
    },
  });
  if (diverged) {
    trained.dispose();
    post({ kind: 'done', diverged, saved: good.saved }, good.saved ? [good.saved.buffer] : []);
    return;
  }
  const lengths = evaluateLengths(l, trained, d, trained.config.contextLength);
  // keep: the model and optimizer state, for a later resume job.
  const saved = keep ? trained.save() : undefined;
  trained.dispose();
  post({ kind: 'done', lengths, saved }, saved ? [saved.buffer] : []);
}

/**
 * Reads and checks a model file for section 2 (the library refuses truncated, lying, non-JSON and non-finite
 * files by name): its header first, so that a file of another kind is refused before all of it is read.
 */
async function inspectModel({ file }) {
  const l = await lab();
  const header = await l.readSafetensors(file);
  const { format } = header.metadata;
  const names = header.tensors.map((t) => t.name);
  header.dispose();
  if (format !== 'embedlab-gpt') {
    const listed = `${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''}`;
    throw new TypeError(
      `not a checkpoint of this page's tiny GPT (its metadata has no format "embedlab-gpt"; ${names.length} tensors: ${listed})`,
    );
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  const model = l.loadModel(bytes);
  const { config, step, maxLength } = model;
  model.dispose();
  post({ kind: 'done', bytes, config, step, maxLength }, [bytes.buffer]);
}

const armsCorpus = async (params) => corpusJob(await lab(), post, params);
const armsSeed = async (params) => seedJob(await lab(), post, params);

const jobs = { trainBpe, train, resume, armsCorpus, armsSeed, inspectModel };

self.onmessage = async ({ data: { type, params, simd: flavour } }) => {
  simd = flavour ?? 'auto';
  try {
    await jobs[type](params);
  } catch (error) {
    post({ kind: 'error', message: error?.message ?? String(error) });
  }
};
