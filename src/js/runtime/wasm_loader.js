// Starts an Emscripten module (the package's, the tokenizer entry's or the Hugging Face one) from a compiled WebAssembly.Module, so
// the glue never fetches or reads the .wasm itself. Where the .wasm comes from is decided here: the caller's
// options.wasm (a Module, bytes or a URL: Cloudflare workerd compiles no wasm from bytes at run time and imports
// .wasm files as Modules) or, by default, the file next to the JS (node: read from disk; browsers and bundlers:
// fetched from new URL(..., import.meta.url)).
import { describe, requireOptions } from './checks.js';

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string';

// The smallest module that uses a v128 instruction (the probe wasm-feature-detect uses too).
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

// try / catch_all / end: the smallest module that uses exception handling (wasm-feature-detect's probe too).
const EXCEPTIONS_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 10, 8, 1, 6, 0, 6, 64, 25, 11, 11,
]);

/**
 * True when this engine runs WebAssembly SIMD128.
 * @returns {boolean}
 */
export function simdSupported() {
  return WebAssembly.validate(SIMD_PROBE);
}

/**
 * True when this engine runs WebAssembly exception handling, which the SIMD flavour is built with.
 * @internal
 */
export function exceptionsSupported() {
  return WebAssembly.validate(EXCEPTIONS_PROBE);
}

/**
 * options.simd checked, and the flavour it picks on this engine: 'simd' or 'fallback'.
 * @internal
 */
export function chooseFlavour(simd) {
  if (simd !== 'auto' && simd !== true && simd !== false) {
    throw new TypeError(`options.simd must be true, false or 'auto', got ${describe(simd)}`);
  }
  if (simd === true && !simdSupported()) {
    throw new Error('options.simd is true but this engine does not support WebAssembly SIMD128');
  }
  if (simd === true && !exceptionsSupported()) {
    throw new Error(
      'options.simd is true but this engine does not support WebAssembly exception handling, which the SIMD module uses',
    );
  }
  return simd === false || !simdSupported() || !exceptionsSupported() ? 'fallback' : 'simd';
}

/**
 * The flavour of a compiled module given as options.wasm (or options.hfWasm: `optionName`), read from the name the
 * build writes into it (custom section "embedlab", scripts/name-wasm-module.mjs): each flavour has its own glue (the
 * fallback's C++ exceptions go through JS), so the glue is chosen by the module. Another entry's module, or a module
 * without the name, is refused.
 * @param {WebAssembly.Module} module
 * @param {string} baseName
 * @param {string} [optionName]
 * @returns {'simd' | 'fallback'}
 * @internal
 */
export function moduleFlavour(module, baseName, optionName = 'options.wasm') {
  const [section] = WebAssembly.Module.customSections(module, 'embedlab');
  const name = section === undefined ? undefined : new TextDecoder().decode(section);
  for (const flavour of /** @type {const} */ (['simd', 'fallback'])) {
    if (name === `${baseName}-${flavour}`) {
      return flavour;
    }
  }
  const wanted = `${baseName}-simd.wasm or ${baseName}-fallback.wasm`;
  throw new Error(
    name === undefined
      ? `${optionName} is not a module of this package (it carries no embedlab module name): pass ${wanted}`
      : `${optionName} is ${name}.wasm, the module of another entry: pass ${wanted}`,
  );
}

/**
 * Compiles and starts one of an entry's two modules for the entry's options {simd = 'auto', wasm, hfWasm}: bundled
 * is {simd, fallback}, each {wasm() → URL, glue() → import()}; baseName names their files (embedlab,
 * embedlab-tokenizer). options.hfWasm, the Hugging Face module's counterpart of options.wasm, is only checked here
 * (tokenizer/hf_module.js starts that module when it is first needed). Returns {raw, flavour}.
 * @param {import('./types.js').CreateOptions} options
 * @param {Record<'simd' | 'fallback', { wasm: () => URL, glue: () => Promise<{ default: unknown }> }>} bundled
 * @param {string} baseName
 * @returns {Promise<{ raw: any, flavour: 'simd' | 'fallback' }>}
 * @internal
 */
export async function startModule(options, bundled, baseName) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`options must be an object, got ${options === null ? 'null' : typeof options}`);
  }
  const { simd = 'auto', wasm, hfWasm } = requireOptions('options', options, ['simd', 'wasm', 'hfWasm']);
  requireWasmSource(hfWasm, 'options.hfWasm');
  return startFlavour(simd, wasm, bundled, baseName, 'options.wasm');
}

/**
 * Starts one flavour of a module: without `wasm` the flavour `simd` picks on this engine (see chooseFlavour), its
 * .wasm next to the JS; with it (a Module, bytes or a URL; named `optionName` in messages), the flavour read from
 * that module (each flavour has its own glue), which `simd` true/false must agree with.
 * @param {boolean | 'auto'} simd
 * @param {unknown} wasm
 * @param {Record<'simd' | 'fallback', { wasm: () => URL, glue: () => Promise<{ default: unknown }> }>} bundled
 * @param {string} baseName
 * @param {string} optionName
 * @returns {Promise<{ raw: any, flavour: 'simd' | 'fallback' }>}
 * @internal
 */
export async function startFlavour(simd, wasm, bundled, baseName, optionName) {
  const chosen = chooseFlavour(simd);
  requireWasmSource(wasm, optionName);
  if (wasm === undefined) {
    // Compiling starts before the glue is imported, so that V8 compiles on its background threads meanwhile.
    const compiling = compileBundled(bundled[chosen].wasm());
    compiling.catch(() => {}); // awaited below; a failure must not be reported as unhandled meanwhile
    const { default: factory } = await bundled[chosen].glue();
    return { raw: await instantiateCompiled(factory, compiling, `${baseName}-${chosen}.wasm`), flavour: chosen };
  }
  const compiled = await compileWasmSource(wasm, optionName);
  const flavour = moduleFlavour(compiled, baseName, optionName);
  if (simd !== 'auto' && simd !== (flavour === 'simd')) {
    throw new Error(`options.simd is ${simd} but ${optionName} is the ${flavour} module (${baseName}-${flavour}.wasm)`);
  }
  const { default: factory } = await bundled[flavour].glue();
  return { raw: await instantiateCompiled(factory, compiled, `${baseName}-${flavour}.wasm`), flavour };
}

const WASM_KINDS = 'a WebAssembly.Module, the bytes of the .wasm file (ArrayBuffer or Uint8Array) or its URL';

/**
 * Throws a TypeError unless `wasm` is undefined or one of the accepted kinds of options.wasm (`optionName`).
 * @param {unknown} wasm
 * @param {string} [optionName]
 * @internal
 */
export function requireWasmSource(wasm, optionName = 'options.wasm') {
  if (
    wasm === undefined ||
    wasm instanceof WebAssembly.Module ||
    wasm instanceof ArrayBuffer ||
    ArrayBuffer.isView(wasm) ||
    wasm instanceof URL ||
    (typeof wasm === 'string' && wasm !== '')
  ) {
    return wasm;
  }
  throw new TypeError(`${optionName} must be ${WASM_KINDS}, got ${describe(wasm)}`);
}

/**
 * Compiles options.wasm (see requireWasmSource; `optionName` names it in messages) to a WebAssembly.Module.
 * @param {any} wasm
 * @param {string} [optionName]
 * @internal
 */
export async function compileWasmSource(wasm, optionName = 'options.wasm') {
  if (wasm instanceof WebAssembly.Module) {
    return wasm;
  }
  if (wasm instanceof ArrayBuffer || ArrayBuffer.isView(wasm)) {
    return compileBytes(wasm, optionName);
  }
  const url = wasmUrl(wasm, optionName);
  return compileBytes(await readUrl(url, optionName), `${optionName} (${url.href})`);
}

// A string is a URL; in node, a string without a URL scheme is a file path (as fs takes it).
function wasmUrl(wasm, optionName) {
  if (wasm instanceof URL) {
    return wasm;
  }
  if (isNode && !/^[a-z][a-z0-9+.-]+:/i.test(wasm)) {
    return process.getBuiltinModule('url').pathToFileURL(wasm);
  }
  try {
    return new URL(wasm, globalThis.location?.href);
  } catch {
    throw new TypeError(`${optionName} must be ${WASM_KINDS}; the string ${JSON.stringify(wasm)} is not a URL`);
  }
}

async function readUrl(url, optionName) {
  // Node's fetch() cannot read file: URLs.
  try {
    if (isNode && url.protocol === 'file:') {
      return await process.getBuiltinModule('fs').promises.readFile(url);
    }
    const response = await fetch(url, { credentials: 'same-origin' });
    if (!response.ok) {
      throw new Error(`HTTP ${response.status}`);
    }
    return await response.arrayBuffer();
  } catch (error) {
    throw new Error(`${optionName}: could not load the wasm module from ${url.href}: ${error.message}`, {
      cause: error,
    });
  }
}

async function compileBytes(bytes, what) {
  try {
    return await WebAssembly.compile(bytes);
  } catch (error) {
    throw new Error(`${what} is not a WebAssembly module this engine compiles: ${error.message}`, { cause: error });
  }
}

/**
 * The .wasm next to the JS file, compiled. In node its bytes are read from disk; elsewhere it is fetched with
 * compileStreaming when the server labels it application/wasm.
 * @internal
 */
export async function compileBundled(url) {
  if (isNode && url.protocol === 'file:') {
    return WebAssembly.compile(await process.getBuiltinModule('fs').promises.readFile(url));
  }
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) {
    throw new Error(`could not load the wasm module from ${url.href}: HTTP ${response.status}`);
  }
  if (WebAssembly.compileStreaming && response.headers.get('Content-Type') === 'application/wasm') {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

/**
 * Runs the Emscripten factory on an already compiled module (a promise of one, so that V8 compiles while the
 * glue is imported). `fileName` is what the glue would otherwise fetch: given through locateFile, it keeps the
 * glue from building new URL(..., import.meta.url), which throws where import.meta.url is no URL (workerd).
 * @internal
 */
export async function instantiateCompiled(factory, compiling, fileName) {
  const compiled = await compiling;
  let fail;
  const failed = new Promise((_, reject) => {
    fail = reject;
  });
  const misfit = (error) =>
    new Error(
      `the wasm module is not the one the glue of ${fileName} expects (a module of another entry or version?): ${error.message}`,
      { cause: error },
    );
  const moduleOptions = {
    locateFile: () => fileName,
    instantiateWasm(imports, receiveInstance) {
      WebAssembly.instantiate(compiled, imports).then(
        (instance) => {
          try {
            receiveInstance(instance, compiled);
          } catch (error) {
            fail(misfit(error)); // e.g. a module without the exports the glue reads
          }
        },
        // LinkError: an import of the wrong kind; TypeError: an import module the glue does not provide.
        (error) => fail(error instanceof WebAssembly.LinkError || error instanceof TypeError ? misfit(error) : error),
      );
      return {}; // Emscripten's protocol: the exports arrive through receiveInstance
    },
  };
  return Promise.race([factory(moduleOptions), failed]);
}
