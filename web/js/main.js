// The tutorial page: loads the library once and starts the sections.
// Sections share one context: the library, the current tokenizer (section 1) and the embedding worker.
import createEmbedLab from '../embedlab/index.js';
import { drawLegend } from './draw/legend.js';
import { $ } from './ui/dom.js';
import { WorkerClient } from './workers/client.js';
import { keepForOffline } from './offline.js';
import { trackContents } from './ui/contents.js';
import { nextTask } from './ui/tasks.js';
import { deferFarChapters, layOutChapter, returnToFragment } from './ui/deferred_chapters.js';

// The table sizes the sections draw first at their defaults (section 2's strips at d = 16; section 3's swap at 32 and
// 64, section 6's comparison at 64, section 7's heads at 32; all at stddev 1): the embedding worker draws them as soon
// as the page knows its vocabulary, before the sections ask. A default that changes only makes one of these useless.
const FIRST_TABLE_DIMS = [16, 32, 64];

/**
 * The embedding worker, started with the page: its library loads while the page's own compiles (sections 2, 3, 6
 * and 7 wait for it otherwise). The seeded tables take vocabSize × dim draws of one PRNG stream: built there, never on
 * the page. (A failure here comes back with the sections' own requests, which restart the worker.)
 */
function startEmbeddingWorker() {
  const worker = new WorkerClient(new URL('./workers/embedding.js', import.meta.url), 'the embedding worker');
  worker.request({ op: 'start' }).catch(() => {});
  return worker;
}

function createContext(lab, embeddingWorker) {
  const listeners = new Set();
  const tokenizers = new Map(); // name → Tokenizer
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
    /**
     * Runs `ops` (workers/embedding.js: lookup, compose, compare) on the token embedding table of the current
     * vocabulary (or of vocabSize rows), of dim, N(0, stddev), seed 1, in the embedding worker; resolves with their
     * results.
     */
    embeddingRun(dim, stddev, ops, vocabSize = ctx.tokenizer.vocabSize) {
      const table = { vocabSize, dim, stddev };
      return embeddingWorker.request({ op: 'run', table, ops });
    },
    /** Has the embedding worker draw the first tables of the current vocabulary now (not awaited: only earlier). */
    prepareFirstTables() {
      const specs = FIRST_TABLE_DIMS.map((dim) => ({ vocabSize: ctx.tokenizer.vocabSize, dim, stddev: 1 }));
      embeddingWorker.request({ op: 'prepare', specs }).catch(() => {});
    },
  };
  return ctx;
}

// The sections, in the order they start: those whose first results come from workers first, so that the workers
// compute while the page draws the sections computed here (4, 8, 9). The trainings of sections 2 and 5 are not
// first results: section 2's starts once the page is ready, section 5's when the reader comes near it.
// Each is named by the id of its chapter in the page.
const SECTIONS = [
  ['tokenize', './sections/tokenize/tokenize.js'],
  ['embeddings', './sections/embeddings/embeddings.js'],
  ['learned', './sections/learned.js'],
  ['order', './sections/order.js'],
  ['compare', './sections/compare/compare.js'],
  ['beyond', './sections/beyond/beyond.js'],
  ['sinusoidal', './sections/sinusoidal/sinusoidal.js'],
  ['scale', './sections/scale/scale.js'],
  ['exercises', './sections/exercises/exercises.js'],
];

// A chapter this close to the window (a fraction of its height) counts as near: it starts before the reader reaches it.
const NEAR = 0.5;

/** Resolves when the browser has nothing else to do (or after `timeout` ms at the latest). */
function idle(timeout) {
  return new Promise((resolve) =>
    globalThis.requestIdleCallback ? requestIdleCallback(resolve, { timeout }) : setTimeout(resolve, 50),
  );
}

/** True when the chapter `id` is in the window or within NEAR of its height from it. */
function isNear(id) {
  const { top, bottom } = $(id).getBoundingClientRect();
  const margin = window.innerHeight * NEAR;
  return bottom > -margin && top < window.innerHeight + margin;
}

/**
 * Starts every section: those in view (or near it) at once, each in a task of its own, and the page says 'shown' when
 * their first numbers are there; the others when the reader comes near them, or one after another as the page has a
 * moment (idle, or 100 ms at most), none waiting for another's first numbers: a section waiting on a worker leaves
 * the main thread to the next. Resolves when every section has shown its first numbers ('ready'); each marks
 * 'section-start:ID' and 'section-shown:ID' for DevTools' timeline and the tests.
 */
async function startSections(ctx, sections) {
  const failed = (error) => {
    console.warn(error);
    $('page-load-error').textContent = `A section failed to start: ${error.message}`;
  };
  const started = new Map(); // id → promise of its first results
  const start = (id) => {
    if (!started.has(id)) {
      const loading = sections.get(id);
      performance.mark(`section-start:${id}`);
      started.set(
        id,
        Promise.all([loading, layOutChapter($(id))])
          .then(([section]) => section.init(ctx))
          .then(() => performance.mark(`section-shown:${id}`))
          .catch(failed), // a section that fails leaves the others running
      );
    }
    return started.get(id);
  };
  const near = SECTIONS.map(([id]) => id).filter(isNear);
  for (const id of near) {
    await nextTask(); // the page answers input and paints between two sections' starts
    start(id);
  }
  await Promise.all(near.map(start));
  $('main').dataset.state = 'shown';
  performance.mark('page-shown'); // for DevTools' timeline and tests/bench/page_load.mjs
  const observer = new IntersectionObserver(
    (entries) => entries.filter((e) => e.isIntersecting).forEach((e) => start(e.target.id)),
    { rootMargin: `${NEAR * 100}% 0px` },
  );
  SECTIONS.forEach(([id]) => started.has(id) || observer.observe($(id)));
  for (const [id] of SECTIONS) {
    if (!started.has(id)) {
      await idle(100);
      start(id); // not awaited: a section waiting on a worker leaves the main thread to the next one
    }
  }
  observer.disconnect();
  await Promise.all(started.values());
}

async function start() {
  // The sections' modules are imported here, not statically (the library's start would wait for all of them): they
  // load while the library's wasm compiles and its vocabulary arrives, and each section starts once its own is there.
  const sections = new Map(SECTIONS.map(([id, url]) => [id, import(url)]));
  sections.forEach((section) => section.catch(() => {})); // each awaited when it starts, unless the library fails first
  const embeddingWorker = startEmbeddingWorker();
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
  const ctx = createContext(lab, embeddingWorker);
  try {
    await ctx.setTokenizer('r50k_base');
  } catch (error) {
    $('page-load-error').textContent = `The vocabulary could not be loaded: ${error.message}`;
    return;
  }
  ctx.prepareFirstTables();
  document.querySelectorAll('.legend-bar').forEach(drawLegend);
  await startSections(ctx, sections);
  returnToFragment();
  $('main').dataset.state = 'ready'; // every section's first numbers shown: nothing moves after
  performance.mark('page-ready');
}

// Before the parser finishes (a module's top level runs then): chapters far from the window out of layout.
deferFarChapters();
// The contents bar works before the library loads: it needs only the chapters' markup.
trackContents($('contents'));
// Offline use is set up once the page shows its first results: copying the site's files then delays none of them.
start().finally(keepForOffline);
