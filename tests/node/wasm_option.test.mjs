// createEmbedLab({wasm}): the module given as a compiled WebAssembly.Module (what Cloudflare workerd imports),
// as bytes or as a URL runs the same as the bundled one; its flavour is read from the module itself; bad
// values fail with errors that name options.wasm.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import createEmbedLab from '../../dist/index.js';

const simdUrl = new URL('../../dist/embedlab-simd.wasm', import.meta.url);
const fallbackUrl = new URL('../../dist/embedlab-fallback.wasm', import.meta.url);
const simdBytes = readFileSync(simdUrl);
const fallbackBytes = readFileSync(fallbackUrl);

// tiktoken's cl100k_base ids for this sentence.
const TEXT = 'hello world';
const IDS = [15339, 1917];

async function encodes(lab) {
  const tokenizer = await lab.getTokenizer('cl100k_base');
  try {
    assert.deepEqual(Array.from(tokenizer.encode(TEXT)), IDS);
  } finally {
    tokenizer.dispose();
  }
}

const GIVEN = [
  ['a compiled SIMD Module', () => WebAssembly.compile(simdBytes), 'auto', 'simd'],
  ['a compiled fallback Module', () => WebAssembly.compile(fallbackBytes), 'auto', 'fallback'],
  ['a Uint8Array', () => simdBytes, 'auto', 'simd'],
  ['an ArrayBuffer', () => new Uint8Array(fallbackBytes).buffer, false, 'fallback'],
  ['a file: URL', () => simdUrl, true, 'simd'],
  ['a file: URL string', () => fallbackUrl.href, 'auto', 'fallback'],
  ['a file path', () => fileURLToPath(simdUrl), 'auto', 'simd'],
];

for (const [what, make, simd, flavour] of GIVEN) {
  test(`options.wasm as ${what} (simd: ${simd}) runs the ${flavour} module`, async () => {
    const lab = await createEmbedLab({ wasm: await make(), simd });
    assert.equal(lab.flavour, flavour);
    assert.equal(lab.simdTarget, flavour === 'simd' ? 'WASM' : 'EMU128');
    await encodes(lab);
  });
}

test('each flavour is named in its module, and only the SIMD one uses wasm exception handling', async () => {
  const nameOf = async (bytes) =>
    WebAssembly.Module.customSections(await WebAssembly.compile(bytes), 'embedlab').map((section) =>
      new TextDecoder().decode(section),
    );
  assert.deepEqual(await nameOf(simdBytes), ['embedlab-simd']);
  assert.deepEqual(await nameOf(fallbackBytes), ['embedlab-fallback']);
  // A tag section (id 13) declares wasm exceptions; the fallback's C++ exceptions go through JS instead.
  assert.ok(sectionIds(simdBytes).includes(13));
  assert.ok(!sectionIds(fallbackBytes).includes(13));
});

// A wasm binary of these sections plus the custom section "embedlab" holding name (as the build writes it).
function namedModule(name, sections) {
  const section = [8, ...new TextEncoder().encode('embedlab'), ...new TextEncoder().encode(name)];
  return new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, ...sections, 0, section.length, ...section]);
}

// The ids of a wasm binary's sections, in order (each: id byte, LEB128 size, contents).
function sectionIds(bytes) {
  const ids = [];
  let at = 8;
  while (at < bytes.length) {
    ids.push(bytes[at++]);
    let size = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at++];
      size += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) {
        break;
      }
    }
    at += size;
  }
  return ids;
}

test('options.wasm: bad values are refused with errors naming it', async () => {
  const fallback = await WebAssembly.compile(fallbackBytes);
  const simd = await WebAssembly.compile(simdBytes);
  const cases = [
    [{ wasm: 5 }, TypeError, /^options\.wasm must be a WebAssembly\.Module, the bytes .* or its URL, got 5$/],
    [{ wasm: {} }, TypeError, /^options\.wasm must be .*got an object \(Object\)$/],
    [{ wasm: '' }, TypeError, /^options\.wasm must be .*got the string ""$/],
    [{ wasm: new Uint8Array([1, 2, 3]) }, Error, /^options\.wasm is not a WebAssembly module this engine compiles/],
    [
      { wasm: '/nonexistent/embedlab.wasm' },
      Error,
      /^options\.wasm: could not load the wasm module from file:\/\/\/nonexistent\/embedlab\.wasm/,
    ],
    [{ wasm: fallback, simd: true }, Error, /^options\.simd is true but options\.wasm is the fallback module/],
    [{ wasm: simd, simd: false }, Error, /^options\.simd is false but options\.wasm is the simd module/],
    // A valid module that is not embedlab's (no imports, no exports, no name).
    [
      { wasm: new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]) },
      Error,
      /^options\.wasm is not a module of this package .*: pass embedlab-simd\.wasm or embedlab-fallback\.wasm$/,
    ],
    // Named embedlab-simd but importing from a module the glue does not provide ("env"): another version's.
    [
      { wasm: namedModule('embedlab-simd', [1, 4, 1, 96, 0, 0, 2, 9, 1, 3, 101, 110, 118, 1, 102, 0, 0]) },
      Error,
      /^the wasm module is not the one the glue of embedlab-simd\.wasm expects/,
    ],
    [{ wams: simd }, TypeError, /^options has no option "wams" \(did you mean "wasm"\?\)/],
  ];
  for (const [options, type, message] of cases) {
    await assert.rejects(createEmbedLab(options), (error) => {
      assert.equal(error.constructor, type, `${error.constructor.name}: ${error.message}`);
      assert.match(error.message, message);
      return true;
    });
  }
  // The failures left nothing behind: a later load still works.
  await encodes(await createEmbedLab({ wasm: simd }));
});

test('options.wasm: the glue neither fetches nor reads the file when given a Module', async () => {
  const module = await WebAssembly.compile(simdBytes);
  const { fetch } = globalThis;
  const fs = process.getBuiltinModule('fs');
  const { readFile, readFileSync: readSync } = fs;
  const promisesReadFile = fs.promises.readFile;
  const touched = [];
  globalThis.fetch = (...args) => {
    touched.push(`fetch ${args[0]}`);
    return fetch(...args);
  };
  fs.readFile = (...args) => (touched.push(`readFile ${args[0]}`), readFile(...args));
  fs.readFileSync = (...args) => (touched.push(`readFileSync ${args[0]}`), readSync(...args));
  fs.promises.readFile = (...args) => (touched.push(`promises.readFile ${args[0]}`), promisesReadFile(...args));
  try {
    const lab = await createEmbedLab({ wasm: module });
    assert.equal(lab.flavour, 'simd');
  } finally {
    Object.assign(globalThis, { fetch });
    Object.assign(fs, { readFile, readFileSync: readSync });
    fs.promises.readFile = promisesReadFile;
  }
  assert.deepEqual(touched, []);
});
