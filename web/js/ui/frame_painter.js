// Painting what a stream of worker messages changes (a training's progress and snapshots): once an animation frame
// however many messages came (and one painter a frame), and while the figure is far off screen only its first state
// (which sets its layout: nothing moves when the later ones come) and its last, not the run going by where nobody
// sees it.

/** How near the screen a figure paints while its run goes on (the rest of the page still scrolls smoothly to it). */
const NEAR = '600px 0px';

// One painter paints per animation frame, the others in the frames after, in the order they asked: the callbacks
// of one frame run in one task, and two runs' figures painted together (sections 2 and 5 train at once) made it the
// longest of a page load.
const waiting = [];
let frame = 0;

function paintNext() {
  frame = 0;
  waiting.shift()?.flush();
  if (waiting.length > 0) {
    frame = requestAnimationFrame(paintNext);
  }
}

export class FramePainter {
  #paint;
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
    const queued = waiting.indexOf(this);
    if (queued >= 0) {
      waiting.splice(queued, 1);
    }
    if (this.#pending) {
      this.#pending = false;
      this.#painted = true;
      this.#paint();
    }
  }

  #schedule() {
    if (!waiting.includes(this)) {
      waiting.push(this);
    }
    if (!frame) {
      frame = requestAnimationFrame(paintNext);
    }
  }
}
