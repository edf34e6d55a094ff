// Starts web_worker.mjs as a module worker and shows its report in #result (data-state: done or error).
const result = document.getElementById('result');
const worker = new Worker(new URL('./web_worker.mjs', import.meta.url), { type: 'module' });
const show = (state, text) => {
  result.textContent = text;
  result.dataset.state = state;
};
worker.onmessage = ({ data }) =>
  show(data.error === undefined ? 'done' : 'error', data.error ?? JSON.stringify(data.report));
worker.onerror = (event) => show('error', `worker error: ${event.message}`);
worker.postMessage({ packageUrl: new URL('../embedlab/index.js', location.href).href });
