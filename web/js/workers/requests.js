// The worker's side of client.js: one request at a time, in the order they came, each answered with its
// result (typed arrays in it transferred, not copied) or its error's name and message.

/** Transferable buffers of the typed arrays in `value` (an array, a plain object or a typed array), each once. */
function buffersOf(value, found = new Set()) {
  if (ArrayBuffer.isView(value)) {
    found.add(value.buffer);
  } else if (Array.isArray(value) || (value !== null && typeof value === 'object')) {
    Object.values(value).forEach((v) => buffersOf(v, found));
  }
  return [...found];
}

/**
 * Answers messages with handlers[message.op](message, progress): progress(value) reports to the request's
 * onProgress. The result's typed arrays must not be views into memory the worker keeps (wasm memory): they move.
 * Requests run one at a time in the order they came, except the ops in `concurrent` (a download, say), which start
 * when they arrive, so that the queue goes on answering while they wait.
 */
export function serveRequests(handlers, { concurrent = [] } = {}) {
  let queue = Promise.resolve();
  self.onmessage = ({ data }) => {
    const run = () => answer(handlers, data);
    if (concurrent.includes(data.op)) {
      run();
    } else {
      queue = queue.then(run);
    }
  };
}

async function answer(handlers, data) {
  const progress = (value) => self.postMessage({ id: data.id, progress: value });
  try {
    const handler = Object.hasOwn(handlers, data.op) ? handlers[data.op] : null;
    if (!handler) {
      throw new TypeError(`unknown request ${JSON.stringify(data.op)}`);
    }
    const result = await handler(data, progress);
    self.postMessage({ id: data.id, result }, buffersOf(result));
  } catch (error) {
    self.postMessage({ id: data.id, error: { name: error?.name, message: error?.message ?? String(error) } });
  }
}
