// Long starts cut into tasks: between two of them the browser answers input and paints.

/** Resolves in a later task, ahead of other waiting tasks where the browser can (scheduler.yield). */
export function nextTask() {
  return globalThis.scheduler?.yield ? globalThis.scheduler.yield() : new Promise((resolve) => setTimeout(resolve));
}
