// The page's side of a long-lived module worker that answers requests (requests.js): each request is a
// promise of its result, with progress messages passed to its onProgress. Errors keep their type (RangeError,
// TypeError), so a section shows a refusal of the library the same way whichever thread computed it. A worker that
// dies (out of memory, say) fails the requests it held with a message, and the next request starts a fresh one.

const ERROR_TYPES = { RangeError, TypeError };

/** A worker that died before answering (not the library refusing an input). */
export class WorkerFailedError extends Error {}

/** The build the page runs (?simd=off: the fallback): workers load the same one, so their numbers are the page's. */
export function simdFlavour() {
  return new URLSearchParams(self.location.search).get('simd') === 'off' ? false : 'auto';
}

export class WorkerClient {
  #url;
  #name;
  #worker = null;
  #lastId = 0;
  #pending = new Map(); // id → {resolve, reject, onProgress}

  /** url: the worker's module; name: how messages call it ("the embedding worker"). */
  constructor(url, name) {
    this.#url = url;
    this.#name = name;
  }

  /** Sends `message` ({op, ...}); resolves with the worker's result, rejects with its error. */
  request(message, { onProgress, transfer = [] } = {}) {
    const id = ++this.#lastId;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, onProgress });
      this.#start().postMessage({ ...message, id, simd: simdFlavour() }, transfer);
    });
  }

  #start() {
    if (!this.#worker) {
      const worker = new Worker(this.#url, { type: 'module' });
      worker.onmessage = ({ data }) => this.#receive(data);
      worker.onerror = (event) => {
        event.preventDefault();
        this.#fail(event.message || 'it stopped');
      };
      this.#worker = worker;
    }
    return this.#worker;
  }

  #receive({ id, progress, result, error }) {
    const entry = this.#pending.get(id);
    if (!entry) {
      return;
    }
    if (progress !== undefined) {
      entry.onProgress?.(progress);
      return;
    }
    this.#pending.delete(id);
    if (error === undefined) {
      entry.resolve(result);
    } else {
      entry.reject(new (ERROR_TYPES[error.name] ?? Error)(error.message));
    }
  }

  #fail(message) {
    this.#worker?.terminate();
    this.#worker = null;
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const { reject } of pending) {
      reject(new WorkerFailedError(`${this.#name} failed (${message}); it restarts with the next request`));
    }
  }
}
