// A ReadableStream's queue without the stream: what a ResponseBuilder's stream() is to its one
// reader inside agentwire (the run manager logging a run), where the stream's own machinery
// (making it, a reader, a promise and its bookkeeping per chunk) was a noticeable part of a
// short run. Its source sees the controller a ReadableStream gives (`enqueue`, `close`,
// `error`, `desiredSize`), called as a ReadableStream calls it (`start`, then `pull` while the
// queue is under its high-water mark or a read waits, never two at once, `cancel`); its reader
// is the stream reader's `read()` and `cancel()`.

/** A queue of byte chunks from `source` (`{start, pull, cancel}`), `highWaterMark` bytes. */
export class ChunkQueue {
  #source;
  #highWaterMark;
  #chunks = [];
  #head = 0;
  #size = 0;
  /** "readable", "closed" or "errored"; a close asked for while chunks wait is `#closing`. */
  #state = "readable";
  #closing = false;
  #error = undefined;
  #started = false;
  #pulling = false;
  #pullAgain = false;
  /** The waiting read: `{resolve, reject}`, or null. */
  #read = null;
  #controller;

  constructor(source, { highWaterMark }) {
    this.#source = source;
    this.#highWaterMark = highWaterMark;
    const queue = this;
    this.#controller = {
      enqueue: (chunk) => queue.#enqueue(chunk),
      close: () => queue.#close(),
      error: (e) => queue.#fail(e),
      get desiredSize() {
        return queue.#desiredSize();
      },
    };
    source.start(this.#controller);
    Promise.resolve().then(() => {
      this.#started = true;
      this.#pullIfNeeded();
    });
  }

  #desiredSize() {
    if (this.#state === "errored") return null;
    if (this.#state === "closed") return 0;
    return this.#highWaterMark - this.#size;
  }

  #enqueue(chunk) {
    if (this.#closing || this.#state !== "readable") throw new TypeError("The queue is closed.");
    const read = this.#read;
    if (read !== null) {
      this.#read = null;
      read.resolve({ value: chunk, done: false });
    } else {
      this.#chunks.push(chunk);
      this.#size += chunk.byteLength;
    }
    this.#pullIfNeeded();
  }

  #close() {
    if (this.#closing || this.#state !== "readable") throw new TypeError("The queue is closed.");
    this.#closing = true;
    if (this.#head === this.#chunks.length) this.#finish();
  }

  #finish() {
    this.#state = "closed";
    this.#chunks = [];
    this.#head = 0;
    this.#size = 0;
    const read = this.#read;
    this.#read = null;
    read?.resolve({ value: undefined, done: true });
  }

  #fail(error) {
    if (this.#state !== "readable") return;
    this.#state = "errored";
    this.#error = error;
    this.#chunks = [];
    this.#head = 0;
    this.#size = 0;
    const read = this.#read;
    this.#read = null;
    read?.reject(error);
  }

  #pullIfNeeded() {
    if (!this.#started || this.#closing || this.#state !== "readable") return;
    if (this.#read === null && this.#desiredSize() <= 0) return;
    if (this.#pulling) {
      this.#pullAgain = true;
      return;
    }
    this.#pulling = true;
    let pulled;
    try {
      pulled = Promise.resolve(this.#source.pull(this.#controller));
    } catch (e) {
      pulled = Promise.reject(e);
    }
    pulled.then(() => {
      this.#pulling = false;
      if (this.#pullAgain) {
        this.#pullAgain = false;
        this.#pullIfNeeded();
      }
    }, (e) => this.#fail(e));
  }

  /** The reader (one): `read()` and `cancel(reason)`, as a ReadableStream's default reader's. */
  getReader() {
    return { read: () => this.#readOne(), cancel: (reason) => this.#cancel(reason) };
  }

  #readOne() {
    if (this.#state === "errored") return Promise.reject(this.#error);
    if (this.#head < this.#chunks.length) {
      const chunk = this.#chunks[this.#head];
      this.#chunks[this.#head++] = undefined;
      this.#size -= chunk.byteLength;
      if (this.#head === this.#chunks.length) {
        this.#chunks = [];
        this.#head = 0;
      }
      if (this.#closing && this.#head === this.#chunks.length) this.#finish();
      else this.#pullIfNeeded();
      return Promise.resolve({ value: chunk, done: false });
    }
    if (this.#state === "closed") return Promise.resolve({ value: undefined, done: true });
    if (this.#read !== null) return Promise.reject(new TypeError("A read is already waiting."));
    const waiting = new Promise((resolve, reject) => {
      this.#read = { resolve, reject };
    });
    this.#pullIfNeeded();
    return waiting;
  }

  async #cancel(reason) {
    if (this.#state === "closed") return;
    if (this.#state === "errored") throw this.#error;
    this.#finish();
    await this.#source.cancel(reason);
  }
}
