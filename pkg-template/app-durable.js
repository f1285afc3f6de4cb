// The Cloudflare adapter of AgentApp's durable runs: with `runs.durableObject`, each run lives
// (and its agent runs) in a Durable Object named by its store key. The front instance
// authorizes, chooses the run's id and forwards the run's requests; the object answers them
// with an AgentApp of its own over a DurableObjectRunStore. A session's one running run is held
// by an object of its own (durable.js's SessionHolder).
import {
  DurableObjectRunStore, RUN_PATH, SessionHolder, SESSION_PATH, STATUS_PATH, TASK_PATH, TASKS_PATH, TaskIndex, forgetTasks, objectRun, runStatus, taskPage,
} from "./durable.js";
import { MAX_TURNS } from "./app-tasks.js";
import { OwnerKey, principalKey, scoped } from "./app-principal.js";
import { RunCaps } from "./app-caps.js";

/** The header a front instance tells a run's object the run's id and owner with. */
const INTERNAL_HEADER = "x-agentwire-internal";

/** What a front instance told the object (`{runId, owner}`), or `null` for none. */
export function internalOf(request) {
  const raw = request.headers.get(INTERNAL_HEADER);
  if (raw === null) return null;
  try {
    const { runId, owner } = JSON.parse(decodeURIComponent(raw));
    return { runId: typeof runId === "string" ? runId : undefined, owner: new OwnerKey(typeof owner === "string" ? owner : null) };
  } catch {
    return null;
  }
}

/**
 * Sends a run's request to its object: `id` is the run's id (chosen here for a start),
 * `principal` what authorize returned, `body` the bytes already read (a start) or undefined.
 * @param {{ idFromName(name: string): unknown, get(id: unknown): { fetch(url: string, init: object): Promise<Response> } }} namespace
 * @param {Request} request
 * @param {{ id: string, principal: unknown, body?: Uint8Array }} run
 */
export function forward(namespace, request, { id, principal, body }) {
  const owner = principalKey(principal);
  const headers = new Headers(request.headers);
  headers.set(INTERNAL_HEADER, encodeURIComponent(JSON.stringify({ runId: id, owner })));
  // The object is named by the run's store key (the caller's own: see app-principal.js).
  return namespace.get(namespace.idFromName(scoped(owner, id))).fetch(request.url, { method: request.method, headers, body });
}

/**
 * ListTasks' way into Durable Objects (app-task-list.js): a page of a principal's tasks (its
 * tasks object), a task's latest turn (the task's object, named by its store key), and
 * forgetting the tasks whose objects no longer keep them.
 */
export function objectTasks(namespace) {
  return {
    page: (principal, query) => taskPage(namespace, principal, query),
    latest: (principal, taskId) => objectRun(namespace, scoped(principal, taskId), TASK_PATH),
    forget: (principal, seqs) => forgetTasks(namespace, principal, seqs),
  };
}

/** The most held places a full cap asks the objects about, per start (subrequests are counted). */
const MAX_STATUS_CHECKS = 16;

/**
 * The caps on running runs a front instance keeps for the starts it forwards (each run counts
 * only itself in its object). A place is released when the run's answer ends; but workerd may
 * drop a front request whose client left without ending, canceling or failing the answer it
 * returned, so its release never runs. So a full cap first asks the objects of the oldest places
 * it holds (those whose answer started: their run exists) whether their runs still go, and frees
 * the places of those that do not.
 */
export class ForwardedCaps {
  #caps;
  /** The places held, oldest first: `{owner, key, answered, release}`. */
  #held = new Set();

  constructor(limits) {
    this.#caps = new RunCaps(limits);
  }

  /**
   * A place for run `key` of `owner` (`namespace`: where its object lives): `{release, answered}`
   * (set `answered` once the object answered). Throws TOO_MANY_RUNS when the runs still go.
   */
  async take(owner, key, namespace) {
    let release = this.#tryTake(owner);
    if (!release) {
      await this.#reclaim(owner, namespace);
      release = this.#tryTake(owner) ?? this.#caps.take(owner);
    }
    const place = { owner, key, answered: false, release: null };
    place.release = () => {
      this.#held.delete(place);
      release();
    };
    this.#held.add(place);
    return place;
  }

  /** A place's release, or null when a cap is full. */
  #tryTake(owner) {
    try {
      return this.#caps.take(owner);
    } catch (e) {
      if (e?.code === "TOO_MANY_RUNS") return null;
      throw e;
    }
  }

  /** Frees the places (`owner`'s first, then anyone's) whose runs no longer go, as their objects say. */
  async #reclaim(owner, namespace) {
    const answered = [...this.#held].filter((p) => p.answered);
    const own = answered.filter((p) => p.owner === owner);
    const checked = [...own, ...answered.filter((p) => p.owner !== owner)].slice(0, MAX_STATUS_CHECKS);
    await Promise.all(checked.map(async (place) => {
      try {
        if (await runStatus(namespace, place.key) !== "running") place.release();
      } catch {
        // Not known: the place stays held.
      }
    }));
  }
}

/**
 * The Durable Object class of an app's runs: `makeApp(store)` makes the AgentApp inside an
 * object (its runs logged in `store`); `namespaceOf(env)` is `runs.durableObject`; `storeOptions`
 * the store's caps and retention.
 */
export function durableObjectClass({ makeApp, namespaceOf, storeOptions }) {
  return class AgentRunsObject {
    #state;
    #env;
    #app = null;
    #store = null;
    #session = null;
    #tasks = null;

    constructor(state, env) {
      this.#state = state;
      this.#env = env;
    }

    #runs() {
      if (!this.#app) {
        this.#store = new DurableObjectRunStore(this.#state.storage, { namespace: namespaceOf(this.#env), ...storeOptions });
        this.#app = makeApp(this.#store);
      }
      return this.#app;
    }

    /** Requests from the app's `fetch` (a run's routes) and from other objects of the app. */
    async fetch(request) {
      const { pathname, searchParams } = new URL(request.url);
      if (pathname === SESSION_PATH) {
        return this.#sessionHolder().fetch(request);
      }
      const app = this.#runs();
      if (pathname === STATUS_PATH) {
        const run = await this.#store.get(searchParams.get("id") ?? "");
        return Response.json({ status: run?.status ?? null });
      }
      if (pathname === TASKS_PATH) {
        this.#tasks ??= new TaskIndex(this.#state.storage);
        return this.#tasks.fetch(request);
      }
      if (pathname === RUN_PATH) {
        // Another object asks for a run of this one (its state and log), by its store key.
        return this.#runAnswer(searchParams.get("id") ?? "");
      }
      if (pathname === TASK_PATH) {
        // The front asks for a task's latest turn (ListTasks), by the task's store key: its
        // turns are this object's runs `<key>`, `<key>#2`, … without gaps.
        const key = searchParams.get("id") ?? "";
        let latest = null;
        for (let n = 1; n <= MAX_TURNS + 1 && (await this.#store.get(n === 1 ? key : `${key}#${n}`)); n++) latest = n === 1 ? key : `${key}#${n}`;
        return latest === null ? new Response(null, { status: 404 }) : this.#runAnswer(latest);
      }
      return app.fetch(request, this.#env, { waitUntil: (p) => this.#state.waitUntil?.(p) });
    }

    #sessionHolder() {
      this.#session ??= new SessionHolder(this.#state.storage, namespaceOf(this.#env), storeOptions?.retentionMs);
      return this.#session;
    }

    /** Run `id` of this object as another object or the front reads it: its state, a newline, its log; 404 for none. */
    async #runAnswer(id) {
      const run = await this.#store.get(id);
      if (!run) return new Response(null, { status: 404 });
      const head = new TextEncoder().encode(`${JSON.stringify(run)}\n`);
      const log = await this.#store.log(id);
      const body = new Uint8Array(head.length + log.length);
      body.set(head);
      body.set(log, head.length);
      return new Response(body);
    }

    /** Deletes the runs past retention; a session's object forgets the runs no longer kept. */
    async alarm() {
      this.#runs();
      await this.#store.expire();
      await this.#sessionHolder().expire();
    }
  };
}

/** `response` as it is, calling `release` once its body ended, failed or was canceled. */
export function releasingAtEnd(response, release) {
  if (!response.body) {
    release();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream({
    async pull(c) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          c.close();
        } else {
          c.enqueue(value);
        }
      } catch (e) {
        release();
        c.error(e);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
