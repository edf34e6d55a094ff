// Runs a job in a fresh module worker. Returns {cancel, done}; done resolves with the 'done' message,
// or null when cancelled, and rejects with the worker's error message.
export function runJob(type, params, onMessage) {
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  let settle;
  const done = new Promise((resolve, reject) => {
    settle = { resolve, reject };
  });
  const finish = () => worker.terminate();
  worker.onmessage = ({ data }) => {
    if (data.kind === 'error') {
      finish();
      settle.reject(new Error(data.message));
    } else if (data.kind === 'done') {
      finish();
      settle.resolve(data);
    } else {
      onMessage?.(data);
    }
  };
  worker.onerror = (event) => {
    event.preventDefault();
    finish();
    settle.reject(new Error(event.message || 'the worker failed to start'));
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
