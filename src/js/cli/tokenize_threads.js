// `tokenize --format bin` and `count` on worker threads: the main thread reads FILE and cuts it where the ids cannot
// change (the streams' own cuts, tokenizer/stream.js), workers encode whole parts with their own tokenizer, and the
// results are used in the order of the parts, so the output is byte-identical to one thread. The workers start only
// for an input of more parts than threads: at once for a file whose size says so, else when the input runs past that
// many parts (a shorter input has nothing to share out, so an empty stdin or a small file is encoded here without each
// worker loading the tokenizer again). Until the first worker is ready the main thread encodes the parts itself, so
// starting them costs no time. At most two parts per thread are in flight, so memory stays bounded as with one thread.
import { readFile, stat } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';

import { HfTokenizer } from '../tokenizer/hf_tokenizer.js';
import { partOptions, streamParts } from '../tokenizer/stream.js';
import { withByteOffset } from '../tokenizer/parts.js';
import { inputStream, specialOptions, streamOptions } from './stream.js';

const ERRORS = { RangeError, TypeError, SyntaxError };

// An error sent by a worker as plain data, as the error it was (the core's byte offsets made absolute).
function errorFromWorker({ name, message, code }, offset) {
  const error = new (ERRORS[name] ?? Error)(message);
  if (code !== undefined) {
    error.code = code;
  }
  return withByteOffset(error, offset);
}

// What a worker needs to open the command's tokenizer: the package's wasm modules of the lab's flavour, compiled
// once here (each worker compiling its own would start on unoptimized code), and a Hugging Face tokenizer's binary
// form (faster to load than its tokenizer.json) or else the command's options.
async function workerData(tokenizer, values, command, flavour) {
  const compile = async (name) =>
    WebAssembly.compile(await readFile(new URL(`../${name}-${flavour}.wasm`, import.meta.url)));
  const hf = tokenizer instanceof HfTokenizer;
  const [wasm, hfWasm] = await Promise.all([compile('embedlab'), hf ? compile('embedlab-hf') : undefined]);
  return { modules: { wasm, hfWasm }, saved: hf ? tokenizer.save() : undefined, values, command };
}

/** One tokenizer thread (tokenize_worker.js) with what it needs to open the command's tokenizer. */
const startWorker = (workerData) => new Worker(new URL('./tokenize_worker.js', import.meta.url), { workerData });

/**
 * Encodes (mode 'ids') or counts (mode 'count') FILE's parts on `threads` workers and calls `use(result)` with each
 * part's ids or count, in the order of the parts (awaiting it before more results are used).
 * @param {any} tokenizer the command's tokenizer, which finds the cuts (and encodes until a worker is ready)
 * @param {{ values: object; command: string; file?: string; threads: number; chunkSize: number;
 *   maxBufferBytes: number; mode: 'ids' | 'count'; flavour?: 'simd' | 'fallback';
 *   createWorker?: (workerData: object) => Worker }} job createWorker: starts one worker (a test counts them)
 * @param {(result: any) => unknown} use
 */
export async function encodeInThreads(
  tokenizer,
  { values, command, file, threads, chunkSize, maxBufferBytes, mode, flavour = 'simd', createWorker = startWorker },
  use,
) {
  const workers = [];
  const ready = new Array(threads).fill(false);
  const inFlight = new Array(threads).fill(0);
  const waiting = new Map(); // seq → {resolve, reject, offset}
  let failure;
  const fail = (error) => {
    failure ??= error;
    for (const job of waiting.values()) {
      job.reject(failure);
    }
  };
  const listen = (worker, w) => {
    worker.on('message', ({ seq, result, error, spent }) => {
      if (seq === undefined) {
        return error ? fail(errorFromWorker(error, 0)) : (ready[w] = true); // started, or could not start
      }
      spare.push(spent);
      const job = waiting.get(seq);
      waiting.delete(seq);
      inFlight[w]--;
      return error ? job.reject(errorFromWorker(error, job.offset)) : job.resolve(result);
    });
    worker.on('error', fail);
    worker.on('exit', (code) => code !== 0 && fail(new Error(`a tokenizer thread stopped (exit code ${code})`)));
  };
  let ended = false;
  let starting = null; // the workers' start, once the input is long enough
  const startWorkers = () =>
    (starting ??= workerData(tokenizer, values, command, flavour).then((data) => {
      for (let w = 0; w < threads && !ended; w++) {
        workers.push(createWorker(data));
        listen(workers[w], w);
      }
    }, fail));
  const special = specialOptions(tokenizer);
  const encodeHere = (bytes, first, last) => {
    const options = partOptions(tokenizer, special, first, last);
    return mode === 'count' ? tokenizer.count(bytes, options) : tokenizer.encode(bytes, options);
  };
  // The buffers the workers sent back: reused for the next parts, so no part leaves garbage for the collector (three
  // heaps collecting it lazily held over 100 MB more).
  const spare = [];
  const bufferFor = (bytes) => {
    const i = spare.findIndex((buffer) => buffer.byteLength >= bytes.length);
    const buffer = i >= 0 ? spare.splice(i, 1)[0] : new ArrayBuffer(Math.max(bytes.length, chunkSize));
    const part = new Uint8Array(buffer, 0, bytes.length);
    part.set(bytes); // a copy: the view is reused for the next part
    return part;
  };
  const queue = []; // the results of the parts in flight, in order
  try {
    let seq = 0;
    let parts = 0;
    // A file known to be long enough starts them at once (one that cannot be read is reported by the stream below).
    const size = file === undefined ? 0 : ((await stat(file).catch(() => null))?.size ?? 0);
    if (size > threads * chunkSize) {
      startWorkers();
    }
    const options = streamOptions(tokenizer, { chunkSize, maxBufferBytes });
    for await (const { bytes, first, last, offset } of streamParts(tokenizer, inputStream(file, chunkSize), options)) {
      if (failure) {
        throw failure;
      }
      if (++parts > threads) {
        startWorkers(); // not awaited: the parts are encoded here until a worker is ready
      }
      const idle = ready.map((isReady, w) => (isReady ? inFlight[w] : Infinity));
      const w = idle.indexOf(Math.min(...idle)); // the least busy worker that is ready
      if (!ready[w]) {
        try {
          queue.push(Promise.resolve(encodeHere(bytes, first, last)));
        } catch (error) {
          throw withByteOffset(error, offset);
        }
      } else {
        const part = bufferFor(bytes);
        const result = new Promise((resolve, reject) => waiting.set(seq, { resolve, reject, offset }));
        result.catch(() => {}); // awaited in order below; a failure before then is not unhandled
        inFlight[w]++;
        workers[w].postMessage({ seq: seq++, bytes: part, first, last, mode }, [part.buffer]);
        queue.push(result);
      }
      while (queue.length >= 2 * threads) {
        await use(await queue.shift());
      }
      await new Promise(setImmediate); // lets the workers' messages (ready, results) in between parts
    }
    while (queue.length > 0) {
      await use(await queue.shift());
    }
  } finally {
    ended = true;
    await starting;
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}
