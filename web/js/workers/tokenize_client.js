// The page's side of section 1's tokenizer worker (tokenize.js): one request in flight at a time, and of
// those asked for meanwhile only the latest is sent next, so typing into a box holding megabytes never queues up
// work; a text is sent in parts, and not again when only the vocabulary changes. Only the latest request's progress and result are reported; a worker that dies is replaced.

const PART_CHARS = 1 << 18;

export class TokenizeClient {
  #worker = null;
  #seq = 0;
  #inFlight = null; // seq of the request the worker is working on
  #pending = null; // the latest request not sent yet
  #handlers;
  #sentText = null; // the text the worker holds
  #memory = []; // resolvers of memory() calls, in order

  /** handlers: onProgress({done, total}), onTokens(result), onError(message); each for the latest request only. */
  constructor(handlers) {
    this.#handlers = handlers;
  }

  /** Tokenizes `text` with `vocab` ({key, name} of a built-in vocabulary, or {key, bytes} of a trained one). */
  request(text, vocab) {
    this.#pending = { seq: ++this.#seq, text, vocab };
    this.#next();
  }

  /** Drops the latest request: its result is not reported (the page has shown a newer text by itself). */
  cancel() {
    this.#pending = null;
    this.#seq++;
  }

  async #next() {
    if (this.#inFlight !== null || this.#pending === null) {
      return;
    }
    const { seq, text, vocab } = this.#pending;
    this.#pending = null;
    this.#inFlight = seq;
    // The worker loads the same build as the page (?simd=off: the fallback).
    const simd = new URLSearchParams(self.location.search).get('simd') === 'off' ? false : 'auto';
    const worker = this.#start();
    if (text === this.#sentText) {
      worker.postMessage({ seq, vocab, simd, reuse: true }); // a vocabulary switch: the worker has the text
      return;
    }
    // Copying megabytes into a message takes long: send the text in parts, each in a task of its own.
    this.#sentText = null;
    for (let at = 0; at === 0 || at < text.length; at += PART_CHARS) {
      await new Promise((resolve) => setTimeout(resolve));
      if (this.#worker !== worker) {
        return; // the worker failed meanwhile; #fail has moved on
      }
      const last = at + PART_CHARS >= text.length;
      worker.postMessage({ seq, vocab, simd, part: text.slice(at, at + PART_CHARS), first: at === 0, last });
    }
    this.#sentText = text;
  }

  #start() {
    if (!this.#worker) {
      this.#worker = new Worker(new URL('./tokenize.js', import.meta.url), { type: 'module' });
      this.#worker.onmessage = ({ data }) => this.#receive(data);
      this.#worker.onerror = (event) => {
        event.preventDefault();
        this.#fail(event.message || 'the tokenizer worker stopped');
      };
    }
    return this.#worker;
  }

  #fail(message) {
    this.#worker?.terminate();
    this.#worker = null;
    this.#sentText = null;
    const seq = this.#inFlight;
    this.#inFlight = null;
    if (seq === this.#seq) {
      this.#handlers.onError(`The tokenizer worker failed (${message}); type again to retry.`);
    }
    this.#next();
  }

  /** The worker's wasm memory, lab.memory() ({heapBytes: 0, allocatedBytes: 0} before it has loaded the lab). */
  memory() {
    return new Promise((resolve) => {
      this.#memory.push(resolve);
      this.#start().postMessage({ memory: true });
    });
  }

  #receive(data) {
    if (data.kind === 'memory') {
      this.#memory.shift()(data);
      return;
    }
    const latest = data.seq === this.#seq;
    if (data.kind === 'progress') {
      if (latest) {
        this.#handlers.onProgress(data);
      }
      return;
    }
    this.#inFlight = null;
    if (latest) {
      if (data.kind === 'error') {
        this.#handlers.onError(data.message);
      } else {
        this.#handlers.onTokens(data);
      }
    }
    this.#next();
  }
}
