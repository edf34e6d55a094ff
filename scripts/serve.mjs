// A small static file server for the tutorial site (build/site), bound to 127.0.0.1 only.
// `node scripts/serve.mjs [port]` serves and prints the URL; tests import startServer().
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
  '.emblvoc': 'application/octet-stream',
};

export const siteRoot = resolve(fileURLToPath(new URL('../build/site', import.meta.url)));

function fileFor(root, urlPath) {
  const decoded = decodeURIComponent(urlPath.split('?')[0]);
  const path = normalize(join(root, decoded));
  if (path !== root && !path.startsWith(root + sep)) {
    return null;
  } // no escaping the root
  try {
    const stats = statSync(path);
    if (stats.isDirectory()) {
      return fileFor(root, join(decoded, 'index.html'));
    }
    return stats.isFile() ? path : null;
  } catch {
    return null;
  }
}

/** Starts serving `root`; port 0 picks a free one. Resolves to {server, url}. */
export function startServer({ root = siteRoot, port = 0 } = {}) {
  const server = createServer((request, response) => {
    let path = null;
    try {
      path = fileFor(root, request.url ?? '/');
    } catch {
      path = null; // malformed percent-encoding
    }
    if (path === null) {
      response.writeHead(404, { 'Content-Type': 'text/plain' });
      response.end('not found');
      return;
    }
    response.writeHead(200, {
      'Content-Type': MIME_TYPES[extname(path)] ?? 'application/octet-stream',
      'Cache-Control': 'no-cache',
    });
    createReadStream(path).pipe(response);
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      resolvePromise({ server, url: `http://127.0.0.1:${server.address().port}/` });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.argv[2] ?? process.env.PORT ?? 8080);
  startServer({ port }).then(
    ({ url }) => console.log(`embedlab tutorial: ${url}  (Ctrl+C to stop)`),
    (error) => {
      if (error.code === 'EADDRINUSE') {
        console.error(`port ${port} is busy; try: PORT=8090 npm start`);
      } else {
        console.error(error.message);
      }
      process.exit(1);
    },
  );
}
