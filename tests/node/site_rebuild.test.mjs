// The site stays whole while it is rebuilt (npm test beside npm start in one checkout): scripts/build-site.sh assembles
// each build in a folder of its own and switches the symlink to it at once. Here a server that follows the symlink
// (npm start's) and one on a pinned build (the browser tests') are read throughout rebuilds into a temporary folder:
// no file is missing or cut short, the pinned server's files never change, and old builds are removed.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { pinSite, startServer } from '../../scripts/serve.mjs';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const BUILD_SITE = join(repoRoot, 'scripts/build-site.sh');
const REBUILDS = 4;
const built = existsSync(join(repoRoot, 'dist/index.js'));

const tmp = mkdtempSync(join(tmpdir(), 'embedlab-site-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const link = join(tmp, 'site');

const buildSite = () => promisify(execFile)('bash', [BUILD_SITE, link], { timeout: 120_000 });
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const generations = () =>
  readdirSync(tmp)
    .filter((name) => name.startsWith('site.gen-'))
    .sort();

/** Paths of the files under dir, relative, with forward slashes. */
function listFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      relative(dir, join(entry.parentPath ?? entry.path, entry.name))
        .split('\\')
        .join('/'),
    );
}

/** Adds the SHA-256 of each file of the build at dir to known (path -> set of hashes). */
function record(dir, known) {
  for (const path of listFiles(dir)) {
    known.set(path, (known.get(path) ?? new Set()).add(sha256(readFileSync(join(dir, path)))));
  }
}

/** Fetches url: {status, whole, hash}; whole: as many bytes as Content-Length said (a cut-off body throws). */
async function get(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(20_000) });
    const body = Buffer.from(await response.arrayBuffer());
    return {
      status: response.status,
      whole: Number(response.headers.get('content-length')) === body.length,
      hash: sha256(body),
    };
  } catch (error) {
    return { status: `failed: ${error.cause?.message ?? error.message}`, whole: false, hash: null };
  }
}

test(
  'files served while build-site.sh rebuilds the site: none missing or cut short',
  { skip: !built && 'no dist/ (run scripts/build.sh)' },
  async () => {
    await buildSite();
    const first = realpathSync(link);
    assert.match(basename(first), /^site\.gen-/, 'the site is a symlink to a build of its own');
    const known = new Map();
    record(first, known);
    const firstHashes = new Map([...known].map(([path, hashes]) => [path, [...hashes][0]]));
    const paths = [...known.keys(), ''].sort(); // '': the folder, served as its index.html

    const pin = pinSite(link);
    assert.equal(pin.root, first);
    const following = await startServer({ root: link, port: 0 });
    const pinned = await startServer({ root: pin.root, port: 0 });
    try {
      let building = true;
      const builds = [first];
      const rebuilding = (async () => {
        try {
          for (let round = 0; round < REBUILDS; round++) {
            await buildSite();
            builds.push(realpathSync(link));
          }
        } finally {
          building = false;
        }
      })();
      const problems = [];
      const served = []; // [path, hash] from the following server, checked once every build is known
      let passes = 0;
      while (building || passes < 2) {
        for (const path of paths) {
          const file = path === '' ? 'index.html' : path;
          const [now, fixed] = await Promise.all([get(following.url + path), get(pinned.url + path)]);
          if (now.status !== 200 || !now.whole) {
            problems.push(`following server: /${path}: ${now.status}${now.whole ? '' : ', cut short'}`);
          } else {
            served.push([file, now.hash]);
          }
          if (fixed.status !== 200 || !fixed.whole || fixed.hash !== firstHashes.get(file)) {
            problems.push(`pinned server: /${path}: ${fixed.status}, ${fixed.whole ? 'whole' : 'cut short'}, changed`);
          }
        }
        passes++;
      }
      await rebuilding;
      assert.equal(new Set(builds).size, REBUILDS + 1, 'each rebuild is a new build');
      for (const build of builds.slice(-2)) {
        record(build, known); // the last two builds (the first one is recorded already)
      }
      assert.deepEqual(problems, []);
      assert.ok(passes >= 2, `${passes} passes over the site`);

      // Every file served was whole: its bytes are those of that file in one of the builds. Builds of the same
      // inputs hold the same files, so the first build's and the last two's hashes cover them all.
      const unknown = served.filter(([file, hash]) => !known.get(file)?.has(hash)).map(([file]) => file);
      assert.deepEqual(unknown, [], 'files whose bytes are in no build');

      // Kept: the newest build, the one before it (a reader may have resolved the link just before the switch), and
      // the pinned one; the others are gone.
      const expected = new Set([...builds.slice(-2), first].map((dir) => basename(dir)));
      assert.deepEqual(generations(), [...expected].sort());
    } finally {
      await new Promise((resolve) => following.server.close(resolve));
      await new Promise((resolve) => pinned.server.close(resolve));
      pin.release();
    }
    // Unpinned, the first build goes with the next rebuild.
    await buildSite();
    assert.ok(!existsSync(first), 'the first build, no longer pinned, is removed');
    assert.equal(generations().length, 2);
  },
);
