// Yielding to the event loop between slices of long work, so pages stay responsive and AbortSignals
// and progress callbacks get their turn. setTimeout(0) is clamped to 4 ms in browsers; a MessageChannel
// round trip is not. Node has setImmediate.
let channel = null;
const waiting = [];

export function yieldToEventLoop() {
  if (typeof setImmediate === 'function') {
    return new Promise((resolve) => setImmediate(resolve));
  }
  if (typeof MessageChannel !== 'function') {
    return new Promise((resolve) => setTimeout(resolve, 0));
  }
  if (channel === null) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => waiting.shift()?.();
  }
  return new Promise((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });
}

/** Runs work(count) in slices of about `sliceMs` each, doubling or halving count to fit. */
export class SliceSizer {
  constructor(sliceMs = 16, maxCount = Infinity) {
    this.sliceMs = sliceMs;
    this.maxCount = maxCount;
    this.count = 1;
  }

  update(elapsedMs) {
    if (elapsedMs < this.sliceMs / 2) {
      this.count = Math.min(this.maxCount, this.count * 2);
    } else if (elapsedMs > this.sliceMs * 2) {
      this.count = Math.max(1, Math.floor(this.count / 2));
    }
  }
}
