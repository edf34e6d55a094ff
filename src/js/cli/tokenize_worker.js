// A worker thread of tokenize_threads.js: opens the command's tokenizer (a Hugging Face one from the binary form the
// main thread sends) and encodes or counts the parts it is sent.
import { parentPort as port, workerData } from 'node:worker_threads';

import createEmbedLab from '../index.js';
import { partOptions } from '../tokenizer/stream.js';
import { openTokenizer } from './open_tokenizer.js';
import { specialOptions } from './stream.js';

const parentPort = /** @type {import('node:worker_threads').MessagePort} */ (port); // null only outside a worker
const asData = (error) => ({ name: error?.name, message: String(error?.message ?? error), code: error?.code });

try {
  const { wasm, hfWasm } = workerData.modules; // compiled once by the main thread
  const lab = await createEmbedLab({ wasm, hfWasm });
  const { saved, values, command } = workerData;
  const tokenizer = saved ? await lab.tokenizerFromHuggingFace(saved) : await openTokenizer(lab, values, command);
  const special = specialOptions(tokenizer);
  parentPort.on('message', ({ seq, bytes, first, last, mode }) => {
    try {
      const options = partOptions(tokenizer, special, first, last);
      const spent = bytes.buffer; // sent back for the next part
      if (mode === 'count') {
        parentPort.postMessage({ seq, result: tokenizer.count(bytes, options), spent }, [spent]);
        return;
      }
      const ids = tokenizer.encode(bytes, options);
      const owned = ids.byteOffset === 0 && ids.byteLength === ids.buffer.byteLength ? ids : ids.slice();
      parentPort.postMessage({ seq, result: owned, spent }, [owned.buffer, spent]);
    } catch (error) {
      parentPort.postMessage({ seq, error: asData(error), spent: bytes.buffer }, [bytes.buffer]);
    }
  });
  parentPort.postMessage({ ready: true });
} catch (error) {
  parentPort.postMessage({ error: asData(error) });
}
