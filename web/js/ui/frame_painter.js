// Painting what a stream of worker messages changes (a training's progress and snapshots): once an animation frame
// however many messages came, and while the figure is far off screen only its first state (which sets its layout:
// nothing moves when the later ones come) and its last, not the run going by where nobody sees it.

/** How near the screen a figure paints while its run goes on (the rest of the page still scrolls smoothly to it). */
const NEAR = '600px 0px';

export class FramePainter {
  #paint;
  #frame = 0;
  #pending = false;
  #near = false;
  #painted = false;

  /** paint(): draws the latest state; near: the element whose distance from the screen decides. */
  constructor(paint, near) {
    this.#paint = paint;
    const observer = new IntersectionObserver(
      (entries) => {
        this.#near = entries.at(-1).isIntersecting;
        if (this.#near && this.#pending) {
          this.#schedule();
        }
      },
      { rootMargin: NEAR },
    );
    observer.observe(near);
  }

  /** Paints on the next frame (once, however often asked); off screen, the first time only, else when it comes near. */
  request() {
    this.#pending = true;
    if (this.#near || !this.#painted) {
      this.#schedule();
    }
  }

  /** Paints now what was asked for and not painted yet: the run is over, its last state must show. */
  flush() {
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    if (this.#pending) {
      this.#pending = false;
      this.#painted = true;
      this.#paint();
    }
  }

  #schedule() {
    if (!this.#frame) {
      this.#frame = requestAnimationFrame(() => {
        this.#frame = 0;
        this.flush();
      });
    }
  }
}
