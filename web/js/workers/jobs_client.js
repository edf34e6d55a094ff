// Worker jobs: runJob runs one in a fresh module worker; TrainingRow shows one in a section's training row.
import { $ } from '../ui/dom.js';

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
 * Runs a job in a fresh module worker. Returns {cancel, done}; done resolves with the 'done' message, or null
 * when cancelled, and rejects with the worker's error message.
 */
export function runJob(type, params, onMessage) {
  const worker = new Worker(new URL('./jobs.js', import.meta.url), { type: 'module' });
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
  // The worker loads the same build as the page (?simd=off: the fallback).
  const simd = new URLSearchParams(self.location.search).get('simd') === 'off' ? false : 'auto';
  worker.postMessage({ type, params, simd });
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
