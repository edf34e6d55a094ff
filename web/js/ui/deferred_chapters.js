// Chapters far from where the page opens keep their contents out of layout until they come near or start.
// Why: when parsing ends, Chromium's autofill looks at every text field, select and textarea on the page, and that
// lays out every chapter holding one, content-visibility notwithstanding: the first layout of the whole page in one
// task (about 70 ms of CPU at a phone's width on the 2-core machine). Contents out of layout (display: none) cost it
// nothing. Without JavaScript nothing is deferred: the class is only ever set here.

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
 * Defers every chapter (.section) but the one the address points into (its #fragment) or the first, and the one after
 * it; each comes back when it nears the window or revealChapter is called. Call before parsing ends (a module's top
 * level runs then).
 */
export function deferFarChapters() {
  const chapters = [...document.querySelectorAll('.section')];
  let target = null;
  try {
    target = window.location.hash ? document.getElementById(decodeURIComponent(window.location.hash.slice(1))) : null;
  } catch {
    target = null; // a malformed fragment: open at the top
  }
  const opened = Math.max(0, chapters.indexOf(target?.closest('.section')));
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) {
          observer.unobserve(entry.target);
          revealChapter(entry.target);
        }
      }
    },
    { rootMargin: NEAR },
  );
  chapters.forEach((section, i) => {
    if (i !== opened) {
      section.classList.add(DEFERRED);
      observer.observe(section);
    }
  });
}
