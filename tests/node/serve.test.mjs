// npm start's server (scripts/serve.mjs) when its port is in use: a port asked for (PORT=, or the argument) is an
// error that names a free one, exit 1; the default port moves on to the next free one and prints the URL it serves.
// Loopback only; each server is stopped by its own pid.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { DEFAULT_PORT } from '../../scripts/serve.mjs';

const SERVE = fileURLToPath(new URL('../../scripts/serve.mjs', import.meta.url));
const children = [];
after(() => children.forEach((child) => child.exitCode === null && child.kill()));

/** A TCP listener on 127.0.0.1:port (0: any free one); resolves to it, or null when that port is taken already. */
function occupy(port) {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error) => (error.code === 'EADDRINUSE' ? resolve(null) : reject(error)));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
const release = (server) => new Promise((resolve) => (server ? server.close(resolve) : resolve()));

/** Runs serve.mjs until it prints its URL or exits (at most 20 s): {child, url, code, stdout, stderr}. */
function serve(args, env) {
  const child = spawn(process.execPath, [SERVE, ...args], {
    env: { ...process.env, PORT: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`serve.mjs neither served nor exited within 20 s\n${stdout}${stderr}`));
    }, 20_000);
    const done = (result) => {
      clearTimeout(timer);
      resolve({ child, stdout, stderr, ...result });
    };
    child.stdout.on('data', (data) => {
      stdout += data;
      const url = stdout.match(/(http:\/\/127\.0\.0\.1:\d+\/)/)?.[1];
      if (url) {
        done({ url, code: null });
      }
    });
    child.stderr.on('data', (data) => (stderr += data));
    child.on('exit', (code) => done({ url: null, code }));
  });
}

function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill();
  });
}

for (const [how, args, env] of [
  ['PORT=', [], (port) => ({ PORT: String(port) })],
  ['the argument', (port) => [String(port)], () => ({})],
]) {
  test(`a port asked for by ${how} that is in use: says so, names PORT= with a free port, exits 1`, async () => {
    const taken = await occupy(0);
    const port = taken.address().port;
    try {
      const result = await serve(typeof args === 'function' ? args(port) : args, env(port));
      assert.equal(result.url, null, `it served instead: ${result.stdout}`);
      assert.equal(result.code, 1);
      assert.match(result.stderr, new RegExp(`port ${port} is in use`));
      const suggested = Number(result.stderr.match(/PORT=(\d+) npm start/)?.[1]);
      assert.ok(suggested > 0 && suggested !== port, result.stderr);
    } finally {
      await release(taken);
    }
  });
}

test('a port that is no number: says so and exits 1', async () => {
  const result = await serve([], { PORT: 'eighty' });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /"eighty" is not a port number.*PORT=/);
});

test('the default port in use: serves on the next free port and prints that URL', async () => {
  // Held here, or by someone else already (an npm start of the user's): in use either way.
  const taken = await occupy(DEFAULT_PORT);
  try {
    const result = await serve([], {});
    try {
      assert.ok(result.url, `no URL printed (exit ${result.code}): ${result.stdout}${result.stderr}`);
      const port = Number(new URL(result.url).port);
      assert.ok(port > DEFAULT_PORT, `served on ${port}`);
      assert.match(result.stdout, new RegExp(`port ${DEFAULT_PORT} is in use, so serving on port ${port}`));
      const response = await fetch(result.url, { signal: AbortSignal.timeout(10_000) });
      await response.arrayBuffer();
      assert.ok([200, 404].includes(response.status), `status ${response.status}`); // 404: no site built
    } finally {
      await stop(result.child);
    }
  } finally {
    await release(taken);
  }
});
