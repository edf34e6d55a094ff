// Chapters after the one the page opens at keep their contents out of layout until they come near or start.
// Why: when parsing ends, Chromium's autofill looks at every text field, select and textarea on the page, and that
// lays out every chapter holding one, content-visibility notwithstanding: the first layout of the whole page in one
// task (about 70 ms of CPU at a phone's width on the 2-core machine). Contents out of layout (display: none) cost it
// nothing. Without JavaScript nothing is deferred: the class is only ever set here.

import { whenNear } from './near.js';
import { nextTask } from './tasks.js';

const DEFERRED = 'section-deferred';

// A deferred chapter this close to the window (a share of its height) shows its contents: laid out before it is seen.
const NEAR = '100% 0px';

/** Shows the contents of `section` if they were deferred (idempotent). */
export function revealChapter(section) {
  section.classList.remove(DEFERRED);
}

/**
 * Shows `section` and lays it out in a task of its own, then resolves in the next: a chapter's first layout (10-20 ms
 * of CPU) is not added to the task where its figures first measure their canvases. Off screen, content-visibility
 * skips the chapter until something inside is measured: its last child is.
 */
export async function layOutChapter(section) {
  revealChapter(section);
  await nextTask();
  section.lastElementChild?.getBoundingClientRect();
  await nextTask();
}

/**
 * Defers every chapter (.section) after the one the address points into (its #fragment) or the first; each comes back
 * when it nears the window or revealChapter is called. Those before it are not deferred: the browser scrolls to the
 * fragment when the page has loaded, and keeps the reader's place as chapters above it change height only when their
 * contents were there all along. Call before parsing ends (a module's top level runs then).
 */
export function deferFarChapters() {
  const chapters = [...document.querySelectorAll('.section')];
  const target = fragmentTarget();
  const opened = Math.max(0, chapters.indexOf(target?.closest('.section')));
  chapters.forEach((section, i) => {
    if (i > opened) {
      section.classList.add(DEFERRED);
      whenNear(section, NEAR).then(() => revealChapter(section));
    }
  });
}

/** The element the address's #fragment names, or null. */
function fragmentTarget() {
  try {
    return window.location.hash ? document.getElementById(decodeURIComponent(window.location.hash.slice(1))) : null;
  } catch {
    return null; // a malformed fragment: open at the top
  }
}

let readerMoved = false;
for (const type of ['wheel', 'touchstart', 'keydown', 'mousedown']) {
  window.addEventListener(type, () => (readerMoved = true), { once: true, passive: true });
}

/**
 * Once every chapter has started: the #fragment's element back where the browser first scrolled it, under the
 * contents bar (its scroll-margin), unless the reader has scrolled. The chapters above it grew as they were drawn and
 * Chromium's scroll anchoring kept the page still to within the bar's height, which hid the chapter's title.
 */
export function returnToFragment() {
  const target = fragmentTarget();
  if (target && !readerMoved) {
    target.scrollIntoView();
  }
}
