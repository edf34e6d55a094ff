// A pool of long-lived module workers (worker.js) for independent jobs: each worker runs one job at a time and
// takes the next waiting job when it is done; a job waits until its inputs are ready (start(job) may be called
// later). stop() ends every job at once by terminating the workers.

/** How many workers the race uses: every core the browser reports, at most `cap` (memory: one wasm instance each). */
export function raceWorkerCount(cap = 8) {
  const cores = Number(globalThis.navigator?.hardwareConcurrency) || 2;
  return Math.max(1, Math.min(cap, cores));
}

export class WorkerPool {
  #url;
  #idle = [];
  #all = [];
  #queue = [];
  #current = new Map(); // worker -> the job it runs
  #stopped = false;

  constructor(url, size) {
    this.#url = url;
    this.size = size;
  }

  /**
   * Queues a job: {type, params, transfer, onMessage}. Returns a promise of its 'done' message; it rejects with the
   * worker's error, or with an Error named 'AbortError' when the pool is stopped first.
   */
  run(job) {
    return new Promise((resolve, reject) => {
      this.#queue.push({ ...job, resolve, reject });
      this.#next();
    });
  }

  #worker() {
    if (this.#idle.length > 0) {
      return this.#idle.pop();
    }
    if (this.#all.length < this.size) {
      const worker = new Worker(this.#url, { type: 'module' });
      this.#all.push(worker);
      return worker;
    }
    return null;
  }

  #next() {
    while (!this.#stopped && this.#queue.length > 0) {
      const worker = this.#worker();
      if (!worker) {
        return;
      }
      const job = this.#queue.shift();
      const finish = (settle, value) => {
        this.#current.delete(worker);
        worker.onmessage = null;
        worker.onerror = null;
        this.#idle.push(worker);
        settle(value);
        this.#next();
      };
      worker.onmessage = ({ data }) => {
        if (data.kind === 'done') {
          finish(job.resolve, data);
        } else if (data.kind === 'error') {
          finish(job.reject, new Error(data.message));
        } else {
          job.onMessage?.(data);
        }
      };
      worker.onerror = (event) => {
        event.preventDefault();
        // A worker that died (out of memory, failed to load) is not reused.
        this.#all = this.#all.filter((w) => w !== worker);
        this.#current.delete(worker);
        worker.terminate();
        job.reject(new Error(`a race worker died (${event.message || 'it failed to start'})`));
        this.#next();
      };
      this.#current.set(worker, job);
      job.onStart?.();
      const simd = new URLSearchParams(self.location.search).get('simd') === 'off' ? false : 'auto';
      worker.postMessage({ type: job.type, params: job.params, simd }, job.transfer ?? []);
    }
  }

  /** Terminates every worker; waiting and running jobs reject with an AbortError. The pool cannot be reused. */
  stop() {
    this.#stopped = true;
    for (const worker of this.#all) {
      worker.terminate();
    }
    const abort = () => Object.assign(new Error('stopped'), { name: 'AbortError' });
    for (const job of this.#current.values()) {
      job.reject(abort());
    }
    for (const job of this.#queue) {
      job.reject(abort());
    }
    this.#queue = [];
    this.#all = [];
    this.#idle = [];
    this.#current.clear();
  }
}
