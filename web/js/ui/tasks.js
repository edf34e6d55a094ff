// Long starts cut into tasks: between two of them the browser answers input and paints.

/** Resolves in a later task, ahead of other waiting tasks where the browser can (scheduler.yield). */
export function nextTask() {
  return globalThis.scheduler?.yield ? globalThis.scheduler.yield() : new Promise((resolve) => setTimeout(resolve));
}

/**
 * Calls each of `steps` in a task of its own, the first in this one: a section's first drawing of several figures,
 * cut where the page can answer input and paint. Stops once current() is false (the reader changed a setting and
 * everything was drawn anew meanwhile: a later step would draw the old settings). Resolves after the last.
 */
export async function stepByStep(steps, current = () => true) {
  for (const [i, step] of steps.entries()) {
    if (i > 0) {
      await nextTask();
      if (!current()) {
        return;
      }
    }
    step();
  }
}
