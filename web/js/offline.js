// Offline use: registers the service worker (sw.js, whose list of files the build writes) where one can run, and
// says in the footer what it keeps, as the worker reports it.
import { $ } from './ui/dom.js';

/** Asks the active worker what its copy holds (see copyStatus in sw.js). */
function askCopyStatus(worker) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = ({ data }) => resolve(data);
    worker.postMessage({ kind: 'copy-status' }, [channel.port2]);
  });
}

/** Rejects when this installing worker fails (it then never becomes active, and serviceWorker.ready waits on). */
function installFailure(installing) {
  return new Promise((_, reject) => {
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'redundant') {
        reject(new Error('the service worker could not save the files (see the console of the worker)'));
      }
    });
  });
}

function show(state, text) {
  const out = $('page-offline');
  out.dataset.state = state;
  out.textContent = text;
}

/** Registers the service worker and fills the footer's offline line: 'saved', 'unavailable' or 'error'. */
export async function keepForOffline() {
  // Service workers run only on http(s), in a secure context (https, or http from localhost / 127.0.0.1).
  if (location.protocol !== 'http:' && location.protocol !== 'https:') {
    show('unavailable', 'Opened as a file, this page is not kept for offline use: serve it over http(s) (npm start).');
    return;
  }
  if (!('serviceWorker' in navigator)) {
    show('unavailable', 'This browser runs no service worker here (it needs https), so the page is not kept offline.');
    return;
  }
  try {
    const registered = await navigator.serviceWorker.register(new URL('../sw.js', import.meta.url));
    // Chromium checks for a changed sw.js only now and then after a load (register() does not check): ask at every
    // load, so the first load after a rebuild installs the new build's worker. Offline the copy stays as it is.
    if (navigator.onLine) {
      registered?.update().catch(() => {}); // a failed check leaves the copy as it is, too
    }
    const registration = await Promise.race([navigator.serviceWorker.ready, installFailure(registered?.installing)]);
    const copy = await askCopyStatus(registration.active);
    if (copy.files !== copy.listed) {
      throw new Error(`${copy.files} of its ${copy.listed} files are saved`);
    }
    const builds = copy.wasmBuilds === 2 ? 'both builds (SIMD and fallback)' : `${copy.wasmBuilds} build`;
    show(
      'saved',
      `Kept in this browser for offline use: the page with ${builds} of the library and ${copy.vocabularies} ` +
        `vocabularies, ${copy.files} files (${(copy.bytes / 1e6).toFixed(1)} MB), so after this visit it works ` +
        'without a network.',
    );
  } catch (error) {
    show('error', `This page could not be kept for offline use: ${error.message}`);
  }
}
