// The page's service worker (registered by js/offline.js): keeps a copy of every file the page can load, so that
// after one visit the whole page (every section, both builds of the library, every vocabulary) works offline.
//
// Network first, the copy only as a fallback. The classic trap of service workers is a developer who rebuilds,
// reloads and is served the old build from the cache. Here a load that reaches the server always gets the files
// the server has now (so `npm start` after a rebuild shows the new build on the next reload), and the copy answers
// only when the network does not (offline, server stopped). Cache first would save the round trips to the server
// but would show the previous build once after every rebuild, and a page mixing two builds if the worker updated
// in between. The copy holds one build: the cache's name carries a version derived from the files' SHA-256 (put
// here by scripts/build-service-worker.mjs), so a rebuild changes this file, the browser installs the new worker,
// which copies the new build (each file checked against its hash), asks to take over without waiting for every tab
// of the page to close (the browser switches once the old worker is idle) and, once active, deletes older copies.
// Until then an offline load gets the previous build, whole.
// Section 1's open-model vocabularies (vocab/hf/*.bin, a few MB each) and the library's Hugging Face module that reads
// them (embedlab/embedlab-hf-*) are not copied at install: a first visit would download all of them. One the reader
// loads is copied as it arrives, so it loads offline afterwards too.
// Requests for anything else (other paths of the origin, other methods) are left to the browser untouched.

const PRECACHE = null; // replaced by scripts/build-service-worker.mjs
if (PRECACHE === null) {
  throw new Error('sw.js: no precache list; serve the built site (build/site), whose sw.js the build writes');
}
const CACHE_PREFIX = 'embedlab-precache-';
const CACHE_NAME = `${CACHE_PREFIX}${PRECACHE.version}`;
const SCOPE = new URL(self.registration.scope);
const PRECACHED = new Set(PRECACHE.files.map((file) => file.path));
const COPIED_WHEN_LOADED = /^(vocab\/hf\/[\w-]+\.bin|embedlab\/embedlab-hf-(simd|fallback)\.(js|wasm))$/;

/** The path of a URL relative to the worker's scope ('index.html' for a folder), or null outside the scope. */
function sitePath(url) {
  const u = new URL(url);
  if (u.origin !== SCOPE.origin || !u.pathname.startsWith(SCOPE.pathname)) {
    return null;
  }
  const path = decodeURIComponent(u.pathname.slice(SCOPE.pathname.length));
  return path === '' || path.endsWith('/') ? `${path}index.html` : path;
}

const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');

/** Copies one file into the cache, unless an earlier, interrupted install already did (same version, same bytes). */
async function copy(cache, { path, sha256 }) {
  const url = new URL(path, SCOPE);
  if (await cache.match(url)) {
    return;
  }
  const response = await fetch(url, { cache: 'no-cache' });
  if (!response.ok) {
    throw new Error(`${path}: HTTP ${response.status}`);
  }
  const hash = hex(await crypto.subtle.digest('SHA-256', await response.clone().arrayBuffer()));
  if (hash !== sha256) {
    // The site changed after this worker was built (a rebuild): the next visit installs the newer worker.
    throw new Error(`${path} is not the file of build ${PRECACHE.version} (a newer build is being served)`);
  }
  await cache.put(url, response);
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE_NAME);
      await Promise.all(PRECACHE.files.map((file) => copy(cache, file)));
      await self.skipWaiting(); // the copy is complete: take over without waiting for every tab to close
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(CACHE_PREFIX) && name !== CACHE_NAME) {
          await caches.delete(name);
        }
      }
      await self.clients.claim(); // the open page (and the workers it starts next) go through this worker now
    })(),
  );
});

async function networkFirst(request, path) {
  try {
    return await fetch(request);
  } catch (error) {
    // caches.match with a cacheName, not caches.open: an old worker must not create its deleted cache again.
    const copied = await caches.match(new URL(path, SCOPE), { cacheName: CACHE_NAME });
    if (copied) {
      return copied;
    }
    throw error;
  }
}

/** Keeps `response` in this build's cache, unless a newer worker has deleted that cache (this worker is old). */
async function keep(key, response) {
  if (await caches.has(CACHE_NAME)) {
    await (await caches.open(CACHE_NAME)).put(key, response);
  }
}

/**
 * Network first, as networkFirst, keeping a copy of what the network gives (not awaited: the page reads the file,
 * and shows its progress, as it arrives).
 */
async function networkFirstKeepingCopy(event, path) {
  const key = new URL(path, SCOPE);
  let response;
  try {
    response = await fetch(event.request);
  } catch (error) {
    const copied = await caches.match(key, { cacheName: CACHE_NAME });
    if (copied) {
      return copied;
    }
    throw error;
  }
  if (response.ok) {
    event.waitUntil(keep(key, response.clone()));
  }
  return response;
}

self.addEventListener('fetch', (event) => {
  const path = event.request.method === 'GET' ? sitePath(event.request.url) : null;
  if (path !== null && PRECACHED.has(path)) {
    event.respondWith(networkFirst(event.request, path));
  } else if (path !== null && COPIED_WHEN_LOADED.test(path)) {
    event.respondWith(networkFirstKeepingCopy(event, path));
  }
});

/** What the copy holds, for the page's footer: files and bytes copied, and how many are vocabularies. */
async function copyStatus() {
  const requests = (await caches.has(CACHE_NAME)) ? await (await caches.open(CACHE_NAME)).keys() : [];
  const copied = new Set(requests.map((request) => sitePath(request.url)));
  const files = PRECACHE.files.filter((file) => copied.has(file.path));
  return {
    version: PRECACHE.version,
    files: files.length,
    listed: PRECACHE.files.length,
    bytes: files.reduce((sum, file) => sum + file.bytes, 0),
    vocabularies: files.filter((file) => /^embedlab\/vocab\/[^/]+\.emblvoc$/.test(file.path)).length,
    wasmBuilds: files.filter((file) => /^embedlab\/embedlab-(simd|fallback)\.wasm$/.test(file.path)).length,
  };
}

self.addEventListener('message', (event) => {
  if (event.data?.kind === 'copy-status' && event.ports[0]) {
    event.waitUntil(copyStatus().then((status) => event.ports[0].postMessage(status)));
  }
});
