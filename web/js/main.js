// The tutorial page: loads the library once and starts the sections in the chapter's order.
// Sections share one context: the library, the current tokenizer (section 1) and cached embedding tables.
import createEmbedLab from '../embedlab/index.js';
import * as tokenize from './sections/tokenize.js';
import * as embeddings from './sections/embeddings.js';
import * as order from './sections/order.js';
import * as sinusoidal from './sections/sinusoidal.js';
import * as learned from './sections/learned.js';
import * as compare from './sections/compare.js';
import * as beyond from './sections/beyond.js';
import * as exercises from './sections/exercises.js';
import { drawLegend } from './canvas.js';
import { $ } from './dom.js';

function createContext(lab) {
  const listeners = new Set();
  const tokenizers = new Map(); // name → Tokenizer
  const tables = new Map(); // key → TokenEmbedding
  const ctx = {
    lab,
    tokenizer: null,
    tokenizerName: null,
    /** The OpenAI vocabulary last in use: where the sections' "back" buttons return from a trained one. */
    builtInName: 'r50k_base',
    /** Calls fn() whenever section 1 switches vocabulary. */
    onTokenizer(fn) {
      listeners.add(fn);
    },
    async loadTokenizer(name) {
      if (!tokenizers.has(name)) {
        tokenizers.set(name, await lab.getTokenizer(name));
      }
      return tokenizers.get(name);
    },
    /** Makes `name` the page's vocabulary (an OpenAI name, or 'trained' with a Tokenizer). */
    async setTokenizer(name, tokenizer, { select = true } = {}) {
      if (tokenizer) {
        const old = tokenizers.get(name);
        tokenizers.set(name, tokenizer);
        if (old && old !== tokenizer) {
          if (ctx.tokenizer === old) {
            ctx.tokenizer = tokenizer;
          }
          old.dispose();
        }
        if (!select) {
          if (ctx.tokenizerName === name) {
            for (const fn of listeners) {
              fn();
            }
          }
          return;
        }
      }
      const next = tokenizer ?? (await ctx.loadTokenizer(name));
      ctx.tokenizer = next;
      ctx.tokenizerName = name;
      if (name !== 'trained') {
        ctx.builtInName = name;
      }
      for (const fn of listeners) {
        fn();
      }
    },
    /** Goes back from the trained vocabulary to the built-in one in use before it. */
    useBuiltInTokenizer() {
      return ctx.setTokenizer(ctx.builtInName);
    },
    /** The token embedding table of the current vocabulary: vocabSize rows of dim, N(0, stddev), seed 1. */
    embedding(dim, stddev) {
      const key = `${ctx.tokenizerName}/${ctx.tokenizer.vocabSize}/${dim}/${stddev}`;
      if (!tables.has(key)) {
        // Keep at most two tables (they can be large: vocabSize × dim floats).
        if (tables.size >= 2) {
          const [oldKey, old] = tables.entries().next().value;
          old.dispose();
          tables.delete(oldKey);
        }
        tables.set(key, lab.tokenEmbedding({ vocabSize: ctx.tokenizer.vocabSize, dim, seed: 1, stddev }));
      }
      return tables.get(key);
    },
  };
  return ctx;
}

async function start() {
  let lab;
  try {
    // ?simd=off loads the fallback build (Highway EMU128), as an engine without SIMD128 would.
    const simd = new URLSearchParams(window.location.search).get('simd') === 'off' ? false : 'auto';
    lab = await createEmbedLab({ simd });
  } catch (error) {
    $('main').dataset.state = 'error';
    $('page-load-error').textContent = `The embedlab library could not be loaded: ${error.message}`;
    $('page-simd-target').textContent = 'unavailable';
    return;
  }
  $('page-lab-version').textContent = lab.version;
  $('page-simd-target').textContent = lab.simdTarget;
  $('page-lab-flavour').textContent =
    `(${lab.flavour === 'simd' ? 'WebAssembly SIMD128 build' : 'fallback build without SIMD'})`;
  const ctx = createContext(lab);
  try {
    await ctx.setTokenizer('r50k_base');
  } catch (error) {
    $('page-load-error').textContent = `The vocabulary could not be loaded: ${error.message}`;
    return;
  }
  document.querySelectorAll('.legend-bar').forEach(drawLegend);
  // Sections that train in a worker start their jobs one after another, so the first results come fast.
  for (const section of [tokenize, embeddings, order, sinusoidal, learned, compare, beyond, exercises]) {
    try {
      section.init(ctx);
    } catch (error) {
      console.warn(error);
      $('page-load-error').textContent = `A section failed to start: ${error.message}`;
    }
  }
  $('main').dataset.state = 'ready';
}

start();
