// Worker jobs: runJob runs one in a fresh module worker; TrainingRow shows one in a section's training row.
import { $ } from '../ui/dom.js';
import { simdFlavour } from './client.js';

// How memory failures read: the library's "out of memory: …", and the browser's failed wasm growth or allocation.
const OUT_OF_MEMORY = /out of memory|memory size|allocat/i;

/** What the page says when a worker dies: its last words, and what they mean when they are about memory. */
export function workerDeath(message) {
  const memory = OUT_OF_MEMORY.test(message ?? '') ? ': it ran out of memory' : '';
  return `The worker doing this job died (${message || 'it failed to start'})${memory}. The next run starts a new worker.`;
}

/** A job's own error as the page shows it; one about memory also says that the worker is gone. */
export function jobFailure(message) {
  return OUT_OF_MEMORY.test(message)
    ? `The job ran out of memory (${message}); its worker was stopped. The next run starts a new worker.`
    : message;
}

/**
 * A job worker, told at once to load the library (the page's build) and what `plan` names ahead of a job:
 * {type, encoding} (jobs.js: load). {worker, plan, died}: died holds its error if it failed meanwhile.
 */
function startWorker(plan = {}) {
  const worker = new Worker(new URL('./jobs.js', import.meta.url), { type: 'module' });
  const started = { worker, plan, died: null };
  worker.onerror = (event) => {
    event.preventDefault();
    started.died = event.message;
  };
  worker.postMessage({ type: 'load', params: { encoding: plan.encoding }, simd: simdFlavour() });
  return started;
}

let spares = []; // workers started ahead of the page's first jobs, loading meanwhile

/**
 * Starts a job worker for each plan ({type, encoding}: a job the page starts with) now, while the page itself loads:
 * that job finds one with the library and its data loaded. Those left over when stopSpareWorkers() is called end
 * then: later jobs start a worker of their own.
 */
export function startSpareWorkers(plans) {
  spares = plans.map(startWorker);
}

export function stopSpareWorkers() {
  spares.forEach(({ worker }) => worker.terminate());
  spares = [];
}

/** The worker started for this job if it is alive, or a new one. */
function takeWorker(type, { encoding } = {}) {
  const index = spares.findIndex(({ plan }) => plan.type === type && plan.encoding === encoding);
  if (index >= 0) {
    const [spare] = spares.splice(index, 1);
    if (spare.died === null) {
      return spare.worker;
    }
    spare.worker.terminate(); // it died loading: a new worker reports for itself how it fails
  }
  return startWorker().worker;
}

/**
 * Runs a job in a fresh module worker (one started ahead, if it is still alive). Returns {cancel, done}; done
 * resolves with the 'done' message, or null when cancelled, and rejects with the worker's error message.
 */
export function runJob(type, params, onMessage) {
  const worker = takeWorker(type, params);
  let settle;
  const done = new Promise((resolve, reject) => {
    settle = { resolve, reject };
  });
  const finish = () => worker.terminate();
  worker.onmessage = ({ data }) => {
    if (data.kind === 'error') {
      finish();
      settle.reject(new Error(jobFailure(data.message)));
    } else if (data.kind === 'done') {
      finish();
      settle.resolve(data);
    } else {
      onMessage?.(data);
    }
  };
  // An error nothing in the worker caught (a failed allocation, say) or a script that did not load: the job is
  // over and so is its worker; the next job starts a fresh one.
  worker.onerror = (event) => {
    event.preventDefault();
    finish();
    settle.reject(new Error(workerDeath(event.message)));
  };
  worker.postMessage({ type, params, simd: simdFlavour() });
  return {
    done,
    cancel() {
      finish();
      settle.resolve(null);
    },
  };
}

/**
 * A section's training row: its progress bar, its status line (data-state 'running', then 'done' or 'error') and
 * its error line, found by id as `${prefix}-progress`, `${prefix}-status` and `${prefix}-error`. One job at a time.
 */
export class TrainingRow {
  #job = null;

  constructor(prefix) {
    this.progress = $(`${prefix}-progress`);
    this.status = $(`${prefix}-status`);
    this.error = $(`${prefix}-error`);
  }

  /**
   * Cancels the running job and starts this one; the messages of a replaced job are dropped. Resolves with the
   * 'done' message, or null when the job was cancelled or failed (the failure is shown in the error line).
   */
  async run(type, params, onMessage) {
    this.#job?.cancel();
    this.progress.value = 0;
    this.status.dataset.state = 'running';
    this.status.textContent = 'Loading…';
    this.error.textContent = '';
    const job = runJob(type, params, (message) => {
      if (job === this.#job) {
        onMessage(message);
      }
    });
    this.#job = job;
    try {
      return await job.done;
    } catch (error) {
      this.status.dataset.state = 'error';
      this.error.textContent = error.message;
      return null;
    }
  }

  /**
   * Shows a run stopped because its loss diverged (training/divergence.js): data-state 'diverged', the reason in the
   * error line.
   */
  diverged(status, reason) {
    this.status.textContent = status;
    this.error.textContent = reason;
    this.status.dataset.state = 'diverged';
  }

  /** Shows a finished run: the status text and data, then data-state 'done' (what the page's tests wait for). */
  done(text, data = {}) {
    Object.assign(this.status.dataset, data);
    this.status.textContent = text;
    this.status.dataset.state = 'done';
  }
}
