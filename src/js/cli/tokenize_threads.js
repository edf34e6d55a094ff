// `tokenize --format bin` and `count` on worker threads: the main thread reads FILE and cuts it where the ids cannot
// change (the streams' own cuts, tokenizer/stream.js), each worker encodes whole parts with its own tokenizer, and
// the results are used in the order of the parts, so the output is byte-identical to one thread. At most two parts
// per thread are in flight, so memory stays bounded as with one thread.
import { Worker } from 'node:worker_threads';

import { streamParts } from '../tokenizer/stream.js';
import { withByteOffset } from '../tokenizer/parts.js';
import { inputStream, streamOptions } from './stream.js';

const ERRORS = { RangeError, TypeError, SyntaxError };

// An error sent by a worker as plain data, as the error it was (the core's byte offsets made absolute).
function errorFromWorker({ name, message, code }, offset) {
  const error = new (ERRORS[name] ?? Error)(message);
  if (code !== undefined) {
    error.code = code;
  }
  return withByteOffset(error, offset);
}

// Starts `count` workers that open the tokenizer `values` name (as the command did) and resolve once all are ready.
async function startWorkers(count, values, command) {
  const workers = Array.from(
    { length: count },
    () => new Worker(new URL('./tokenize_worker.js', import.meta.url), { workerData: { values, command } }),
  );
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          /** @type {Promise<void>} */ (
            new Promise((resolve, reject) => {
              worker.once('error', reject);
              worker.once('message', (message) =>
                message.error ? reject(errorFromWorker(message.error, 0)) : resolve(),
              );
            })
          ),
      ),
    );
  } catch (error) {
    await Promise.all(workers.map((worker) => worker.terminate()));
    throw error;
  }
  return workers;
}

/**
 * Encodes (mode 'ids') or counts (mode 'count') FILE's parts on `threads` workers and calls `use(result)` with each
 * part's ids or count, in the order of the parts (awaiting it before more results are used).
 * @param {any} tokenizer the command's tokenizer, which finds the cuts
 * @param {{ values: object; command: string; file?: string; threads: number; chunkSize: number;
 *   maxBufferBytes: number; mode: 'ids' | 'count' }} job
 * @param {(result: any) => unknown} use
 */
export async function encodeInThreads(
  tokenizer,
  { values, command, file, threads, chunkSize, maxBufferBytes, mode },
  use,
) {
  const workers = await startWorkers(threads, values, command);
  const waiting = new Map(); // seq → {resolve, offset}
  const inFlight = new Array(threads).fill(0);
  let failure;
  const fail = (error) => {
    failure ??= error;
    for (const { reject } of waiting.values()) {
      reject(failure);
    }
  };
  workers.forEach((worker, w) => {
    worker.on('message', ({ seq, result, error }) => {
      const job = waiting.get(seq);
      waiting.delete(seq);
      inFlight[w]--;
      if (error) {
        job.reject(errorFromWorker(error, job.offset));
      } else {
        job.resolve(result);
      }
    });
    worker.on('error', fail);
    worker.on('exit', (code) => code !== 0 && fail(new Error(`a tokenizer thread stopped (exit code ${code})`)));
  });
  const queue = []; // the results of the parts in flight, in order
  try {
    let seq = 0;
    const options = streamOptions(tokenizer, { chunkSize, maxBufferBytes });
    for await (const { bytes, first, last, offset } of streamParts(tokenizer, inputStream(file, chunkSize), options)) {
      if (failure) {
        throw failure;
      }
      const w = inFlight.indexOf(Math.min(...inFlight)); // the least busy worker
      const part = bytes.slice(); // the view is reused for the next part
      const result = new Promise((resolve, reject) => waiting.set(seq, { resolve, reject, offset }));
      result.catch(() => {}); // awaited in order below; a failure before then is not unhandled
      inFlight[w]++;
      workers[w].postMessage({ seq: seq++, bytes: part, first, last, mode }, [part.buffer]);
      queue.push(result);
      while (queue.length >= 2 * threads) {
        await use(await queue.shift());
      }
    }
    while (queue.length > 0) {
      await use(await queue.shift());
    }
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}
