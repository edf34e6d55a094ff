// When an element comes near the window: the page's heavier background work (section 2's experiment, section 5's
// training, section 7's small race) starts as the reader approaches it, not for a reader who never scrolls there.

/**
 * Resolves once `element` is within `margin` of the window (a CSS margin, e.g. '600px 0px' or '100% 0px': a
 * percentage is of the window's height), at once if it already is.
 */
export function whenNear(element, margin) {
  return new Promise((resolve) => {
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          observer.disconnect();
          resolve();
        }
      },
      { rootMargin: margin },
    );
    observer.observe(element);
  });
}
