// The library's longContextRun for many option sets, in node worker threads (one per core, at most `threads`), each
// with its own instance of the package: the race test's reference is several dozen independent runs, and one thread
// left the other core idle for about 40 s of every browser suite. Results come back in the order of the option sets.
import { availableParallelism } from 'node:os';
import { Worker, isMainThread, parentPort } from 'node:worker_threads';

/** @returns {Promise<object[]>} longContextRun(options[i]) for each i. */
export async function longContextRuns(options, threads = availableParallelism()) {
  const results = new Array(options.length);
  let next = 0;
  const lane = async () => {
    const worker = new Worker(new URL(import.meta.url));
    try {
      while (next < options.length) {
        const index = next++;
        results[index] = await new Promise((resolve, reject) => {
          worker.once('message', ({ result, error }) => (error ? reject(new Error(error)) : resolve(result)));
          worker.once('error', reject);
          worker.postMessage(options[index]);
        });
        worker.removeAllListeners('error');
      }
    } finally {
      await worker.terminate();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(threads, options.length)) }, lane));
  return results;
}

if (!isMainThread) {
  const { default: createEmbedLab } = await import('../../dist/index.js');
  const lab = await createEmbedLab();
  parentPort.on('message', async (options) => {
    try {
      parentPort.postMessage({ result: await lab.longContextRun(options) });
    } catch (error) {
      parentPort.postMessage({ error: `longContextRun(${JSON.stringify(options.scheme)}): ${error.stack}` });
    }
  });
}
