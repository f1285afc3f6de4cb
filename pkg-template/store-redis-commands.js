// What RedisRunStore (redis.js) sends Redis through: one command with a deadline, and its Lua
// scripts by SHA (loaded on first use, again after the server forgot them). Every failure is
// STORE_UNAVAILABLE: a client error, an error reply (e.g. OOM) or no answer in time.
import { SCRIPTS } from "./store-redis-scripts.js";
import { LOG_SCRIPTS } from "./store-redis-log.js";
import { storeUnavailable } from "./store-options.js";

const NAME = "RedisRunStore";
const ALL_SCRIPTS = { ...SCRIPTS, ...LOG_SCRIPTS };

export class RedisCommands {
  #client;
  #prefix;
  #timeoutMs;
  #shas = new Map();

  /** Commands to `client` (its `sendCommand`), scripts under `prefix`, each answered within `timeoutMs`. */
  constructor(client, prefix, timeoutMs) {
    this.#client = client;
    this.#prefix = prefix;
    this.#timeoutMs = timeoutMs;
  }

  /** Runs a script by its SHA, loading it first (again after the server forgot it, e.g. restarted). */
  async script(name, args) {
    const argv = [this.#prefix, ...args.map((a) => (a instanceof Uint8Array ? a : String(a)))];
    let sha = this.#shas.get(name);
    for (let attempt = 0; ; attempt++) {
      if (!sha) {
        sha = await this.#load(name);
        this.#shas.set(name, sha);
      }
      try {
        return await this.command(["EVALSHA", sha, "0", ...argv]);
      } catch (e) {
        if (attempt > 0 || !String(e?.cause?.message).startsWith("NOSCRIPT")) throw e;
        sha = null;
      }
    }
  }

  /** Loads a script; a server before Redis 7 (no `#!lua` flags) gets it without its flags line. */
  async #load(name) {
    const source = ALL_SCRIPTS[name];
    try {
      return await this.command(["SCRIPT", "LOAD", source]);
    } catch (e) {
      if (!source.startsWith("#!") || e?.cause === undefined || /OOM|LOADING|BUSY/.test(String(e.cause?.message))) throw e;
      return this.command(["SCRIPT", "LOAD", source.slice(source.indexOf("\n") + 1)]);
    }
  }

  /**
   * Sends one command, with a deadline: the reply, or STORE_UNAVAILABLE when the client fails,
   * Redis answers an error (e.g. OOM), or no answer comes within the timeout (the command is
   * then withdrawn from the client's offline queue, if it waits there).
   */
  command(args) {
    const abort = new AbortController();
    const sent = Promise.resolve().then(() => this.#client.sendCommand(args, { abortSignal: abort.signal }));
    return this.deadline(sent, `Redis ${args[0]}`, abort).catch((e) => {
      throw e?.code === "STORE_UNAVAILABLE" ? e : storeUnavailable(NAME, `Redis ${args[0]} failed`, e);
    });
  }

  /** `promise`, or STORE_UNAVAILABLE after the timeout (aborting `abort`). */
  deadline(promise, what, abort = undefined) {
    const ms = this.#timeoutMs;
    let timer;
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => {
        abort?.abort();
        reject(storeUnavailable(NAME, `${what}: no answer within ${ms} ms`));
      }, ms);
    });
    return Promise.race([promise, late]).finally(() => clearTimeout(timer));
  }
}
