// A small static file server for the tutorial site (build/site), bound to 127.0.0.1 only.
// `node scripts/serve.mjs [port]` (or PORT=port) serves and prints the URL: a port asked for that is in use is an
// error that names a free one; without one it serves on 8080, or on the next free port after it and says so.
// Tests import startServer() and pinSite().
//
// build/site is a symlink that scripts/build-site.sh points at each new build of the site, all at once. The server
// opens each file through it, so a reload after a rebuild shows the new build, and a file being sent stays whole even
// when its build is removed meanwhile (the open file outlives its name).
import {
  closeSync,
  constants,
  createReadStream,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { basename, dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream';
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
export const DEFAULT_PORT = 8080;
const PORTS_TRIED = 20; // without a port asked for: 8080 to 8099, then any free one

/** Opens the file that urlPath names under root: {fd, path, size}, or null. Size and contents come from the one open
 * file, never from two lookups of its name that a rebuild could fall between. O_NONBLOCK: a FIFO cannot hang it. */
function openFile(root, urlPath) {
  const decoded = decodeURIComponent(urlPath.split('?')[0]);
  const path = normalize(join(root, decoded));
  if (path !== root && !path.startsWith(root + sep)) {
    return null;
  } // no escaping the root
  let fd;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const stats = fstatSync(fd);
    if (stats.isFile()) {
      return { fd, path, size: stats.size };
    }
    closeSync(fd);
    fd = undefined;
    return stats.isDirectory() ? openFile(root, join(decoded, 'index.html')) : null;
  } catch {
    if (fd !== undefined) {
      closeSync(fd);
    }
    return null;
  }
}

/** Starts serving `root`; port 0 picks a free one. Resolves to {server, url}. */
export function startServer({ root = siteRoot, port = 0 } = {}) {
  const server = createServer((request, response) => {
    let file = null;
    try {
      file = openFile(root, request.url ?? '/');
    } catch {
      file = null; // malformed percent-encoding
    }
    if (file === null) {
      response.writeHead(404, { 'Content-Type': 'text/plain' });
      response.end('not found');
      return;
    }
    response.writeHead(200, {
      'Content-Type': MIME_TYPES[extname(file.path)] ?? 'application/octet-stream',
      'Content-Length': file.size,
      'Cache-Control': 'no-cache',
    });
    if (file.size === 0) {
      closeSync(file.fd);
      response.end();
      return;
    }
    // The size the headers announced, no more; pipeline, not pipe: a client that goes away mid-file closes it too.
    pipeline(createReadStream(null, { fd: file.fd, start: 0, end: file.size - 1 }), response, () => {});
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolvePromise({ server, url: `http://127.0.0.1:${server.address().port}/` });
    });
  });
}

const pins = new Map(); // pin file -> {count, unpin}: pinSite() twice in one process, one file

/**
 * Pins the build of the site that `link` (build/site) points at now, for a reader that must see one build throughout
 * (a browser test file serves it and reads its files). Returns {root, release}: root is that build's own folder,
 * which scripts/build-site.sh keeps (LINK.pins/PID.GENERATION names it) until release() or until this process
 * ends. A site that is no generation of build-site.sh (built before it, or EMBEDLAB_SITE elsewhere) comes back as its
 * real path, unpinned; a missing one as it is.
 */
export function pinSite(link = siteRoot) {
  for (;;) {
    let root;
    try {
      root = realpathSync(link);
    } catch {
      return { root: resolve(link), release() {} };
    }
    const generation = basename(root);
    if (!generation.startsWith(`${basename(link)}.gen-`)) {
      return { root, release() {} };
    }
    const folder = join(dirname(root), `${basename(link)}.pins`);
    const pin = join(folder, `${process.pid}.${generation}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(pin, '');
    let held = pins.get(pin);
    if (!held) {
      held = { count: 0, unpin: () => rmSync(pin, { force: true }) };
      pins.set(pin, held);
      process.on('exit', held.unpin);
    }
    held.count++;
    let released = false;
    const release = () => {
      if (released) {
        return;
      }
      released = true;
      held.count--;
      if (held.count === 0) {
        pins.delete(pin);
        process.off('exit', held.unpin);
        held.unpin();
      }
    };
    // The build keeps the generation it has just replaced, so this one can only be gone if two whole builds ran
    // between realpath and the pin: then pin the newest instead.
    if (existsSync(root)) {
      return { root, release };
    }
    release();
  }
}

/** The first port from `from` on (up to `count` of them) that 127.0.0.1 can listen on now, or null. */
async function freePortFrom(from, count) {
  for (let port = from; port < Math.min(from + count, 65536); port++) {
    try {
      const { server } = await startServer({ root: '/nonexistent', port });
      await new Promise((done) => server.close(done));
      return port;
    } catch {
      // in use, or not ours to take: the next one
    }
  }
  return null;
}

function fail(message) {
  console.error(`embedlab tutorial: ${message}`);
  process.exit(1);
}

async function main() {
  const asked = process.argv[2] ?? (process.env.PORT || undefined);
  let started;
  if (asked !== undefined) {
    if (!/^\d{1,5}$/.test(asked) || Number(asked) > 65535) {
      fail(`"${asked}" is not a port number (0 to 65535; 0 picks any free port), e.g. PORT=8090 npm start`);
    }
    const port = Number(asked);
    try {
      started = await startServer({ port });
    } catch (error) {
      if (error.code === 'EADDRINUSE') {
        const free = (await freePortFrom(port + 1, PORTS_TRIED)) ?? 0;
        fail(
          `port ${port} is in use (another server: an earlier npm start?). Stop that one, or pick another port: ` +
            `PORT=${free} npm start${free === 0 ? ' (any free port)' : ''}`,
        );
      }
      fail(`cannot listen on 127.0.0.1:${port} (${error.code ?? error.message}); pick another: PORT=8090 npm start`);
    }
  } else {
    for (let port = DEFAULT_PORT; !started && port < DEFAULT_PORT + PORTS_TRIED; port++) {
      try {
        started = await startServer({ port });
      } catch (error) {
        if (error.code !== 'EADDRINUSE') {
          fail(`cannot listen on 127.0.0.1:${port} (${error.code ?? error.message}); pick a port: PORT=8090 npm start`);
        }
      }
    }
    started ??= await startServer({ port: 0 }); // all of them in use: any free port
    const port = started.server.address().port;
    if (port !== DEFAULT_PORT) {
      console.log(
        `embedlab tutorial: port ${DEFAULT_PORT} is in use, so serving on port ${port} instead (PORT=8090 npm start asks for one)`,
      );
    }
  }
  console.log(`embedlab tutorial: ${started.url}  (Ctrl+C to stop)`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => fail(error.message));
}
