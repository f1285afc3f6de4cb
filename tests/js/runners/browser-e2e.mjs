// Real-browser end-to-end test of StreamAssembler: headless Chromium fetch()es Agent API streams
// that a Node server on 127.0.0.1 writes with adversarial chunking (1-byte writes, CRLF line
// endings, a multi-byte character split across two writes, small delays between writes). The
// page imports the package's `browser` entry, feeds `res.body` through a StreamAssembler (a manual
// reader loop with push(), and StreamAssembler.read()), and renders the assembled text into the
// DOM as text. The server holds each stream's last events until the page reports that it has
// rendered part of the text, so the test proves updates reach the DOM before the stream ends.
// Usage: node tests/js/runners/browser-e2e.mjs <project>
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { mkdtempSync, rmSync } from "node:fs";
import { extname, join, normalize, relative } from "node:path";
import { tmpdir } from "node:os";
import { chromium } from "playwright-core";
import { resolveEntry } from "./resolve.mjs";
import { report } from "./tap.mjs";

const project = process.argv[2];
if (!project) throw new Error("usage: browser-e2e.mjs <project dir>");
const entry = resolveEntry(project, "agentwire", ["browser", "import", "default"]);
const entryUrl = `/${relative(project, entry)}`;

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

// --- The streams -------------------------------------------------------------------------------

const MSG = "msg_6f1c2a9e-5b7d-4c3e-9a21-0d8e4f7b1c55";
const RESP = "resp_e2e";
const DELTAS = ["Hel", "lo, ", "wörld", " — 中文 ", "👩‍💻", " ok", "!\n<b>not html</b>"];
const TEXT = DELTAS.join("");

/** The events of one run, in the reference's wire shape: [head, tail]; the tail is held back. */
function events() {
  let seq = 0;
  const response = (status) => JSON.stringify({
    sequence_number: seq++, object: "response", status, error: null, id: RESP, created_at: 1795335162,
    completed_at: status === "completed" ? 1795335163 : null, output: null, usage: null, session_id: "s1",
  });
  const message = (status, content) => JSON.stringify({
    sequence_number: seq++, object: "message", status, error: null, id: MSG, type: "message",
    role: "assistant", content, code: null, message: null, usage: null, metadata: {},
  });
  const part = (status, delta, text) => ({
    sequence_number: seq++, object: "content", status, error: null, type: "text", index: 0, delta,
    msg_id: MSG, text,
  });
  const head = [response("created"), response("in_progress"), message("in_progress", null),
    ...DELTAS.slice(0, -2).map((t) => JSON.stringify(part("in_progress", true, t)))];
  const completedPart = part("completed", null, TEXT);
  const tail = [...DELTAS.slice(-2).map((t) => JSON.stringify(part("in_progress", true, t))),
    JSON.stringify(completedPart), message("completed", [completedPart]), response("completed")];
  return [head, tail];
}

/** How each stream is framed and written: `frame(json)` → wire text; `write(res, bytes)`. */
const STREAMS = {
  // Every byte its own write, with a pause now and then so they leave as separate packets; the
  // first dozen multi-byte characters are cut after their lead byte by a longer pause, so that a
  // busy browser, which reads what arrived in one go, still gets chunks that end inside one.
  "one-byte": {
    frame: (json) => `data: ${json}\n\n`,
    async write(res, bytes) {
      let cuts = 12;
      for (let i = 0; i < bytes.length; i++) {
        res.write(bytes.subarray(i, i + 1));
        if (cuts > 0 && bytes[i] >= 0xc0) {
          cuts--;
          await sleep(25);
        } else if (i % 16 === 0) {
          await sleep(1);
        }
      }
    },
  },
  // CRLF line endings (sse-starlette's default), an `event:` line, 7-byte writes.
  crlf: {
    frame: (json) => `event: message\r\ndata: ${json}\r\n\r\n`,
    async write(res, bytes) {
      for (let i = 0; i < bytes.length; i += 7) {
        res.write(bytes.subarray(i, i + 7));
        await sleep(1);
      }
    },
  },
  // Writes cut inside every multi-byte character (between its first byte and the rest), with
  // a pause at each cut so the browser reads the halves as separate chunks.
  "split-utf8": {
    frame: (json) => `data: ${json}\n\n`,
    async write(res, bytes) {
      let start = 0;
      for (let i = 0; i < bytes.length; i++) {
        if (bytes[i] >= 0xc0) {
          res.write(bytes.subarray(start, i + 1));
          await sleep(5);
          start = i + 1;
        }
      }
      res.write(bytes.subarray(start));
    },
  },
};
const MODES = ["push", "read"];

// --- The page ----------------------------------------------------------------------------------

const PAGE = `<!doctype html><meta charset="utf-8"><title>agentwire e2e</title><link rel="icon" href="data:,">
<script type="importmap">${JSON.stringify({ imports: { agentwire: entryUrl } })}</script>
<body>
<script type="module">
  import { StreamAssembler } from "agentwire";
  const streams = ${JSON.stringify(Object.keys(STREAMS))};
  const modes = ${JSON.stringify(MODES)};

  // One view per (stream, mode): the text goes into the DOM as text nodes, never as HTML.
  function view(stream, mode) {
    const section = document.createElement("section");
    section.id = stream + "-" + mode;
    const text = document.createElement("pre");
    text.className = "text";
    const outcome = document.createElement("p");
    outcome.className = "outcome";
    section.append(text, outcome);
    document.body.append(section);
    let reported = false;
    let renders = 0;
    return {
      render(updates) {
        for (const u of updates) {
          if (u.type === "text") {
            if (u.replace) text.textContent = "";
            text.append(document.createTextNode(u.delta));
          } else if (u.type === "response") {
            outcome.textContent = u.outcome;
          }
        }
        renders++;
        if (!reported && text.textContent.length > 0) {
          reported = true;
          // Tell the server what is on screen; it holds the end of the stream until then.
          fetch("/rendered?stream=" + stream + "&mode=" + mode, { method: "POST", body: text.textContent });
        }
      },
      get renders() { return renders; },
    };
  }

  // Whether a chunk ends in the middle of a UTF-8 sequence.
  function endsInsideCharacter(bytes) {
    for (let back = 1; back <= 4 && back <= bytes.length; back++) {
      const b = bytes[bytes.length - back];
      if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
      return need > back;
    }
    return false;
  }

  async function viaPush(stream, v, stats) {
    const res = await fetch("/stream/" + stream + "?mode=push");
    const reader = res.body.getReader();
    const asm = new StreamAssembler();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        stats.chunks++;
        stats.smallest = Math.min(stats.smallest, value.byteLength);
        if (endsInsideCharacter(value)) stats.splitChars++;
        v.render(asm.push(value));
      }
      v.render(asm.finish());
      return { outcome: asm.outcome, snapshotText: asm.snapshot().output[0]?.content?.[0]?.text ?? null };
    } finally {
      asm.free();
    }
  }

  async function viaRead(stream, v, stats) {
    const res = await fetch("/stream/" + stream + "?mode=read");
    let outcome = null;
    for await (const updates of StreamAssembler.read(res)) {
      stats.batches++;
      v.render(updates);
      for (const u of updates) if (u.type === "response") outcome = u.outcome;
    }
    return { outcome, snapshotText: null };
  }

  // One stream at a time: each holds a connection open until its /rendered report goes out,
  // and Chromium allows six connections per host.
  const results = {};
  for (const stream of streams) for (const mode of modes) await (async () => {
    const v = view(stream, mode);
    const stats = { chunks: 0, smallest: Infinity, batches: 0, splitChars: 0 };
    try {
      const r = await (mode === "push" ? viaPush : viaRead)(stream, v, stats);
      results[stream + "/" + mode] = { ...r, ...stats, renders: v.renders };
    } catch (e) {
      results[stream + "/" + mode] = { error: String(e && e.stack || e) };
    }
  })();
  window.__results = results;
</script>`;

// --- The server --------------------------------------------------------------------------------

const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
  ".json": "application/json", ".html": "text/html" };
const log = {}; // per "stream/mode": what the server saw, in order
const waiters = new Map(); // "stream/mode" → resolve() of the held tail
const rendered = new Map(); // "stream/mode" → the text the page reported

function heldUntilRendered(key) {
  if (rendered.has(key)) return Promise.resolve();
  return new Promise((ok) => waiters.set(key, ok));
}

async function serveStream(stream, mode, res) {
  const key = `${stream}/${mode}`;
  const spec = STREAMS[stream];
  const [head, tail] = events();
  const encoder = new TextEncoder();
  res.socket.setNoDelay(true);
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store" });
  res.flushHeaders();
  (log[key] ??= []).push("head");
  await spec.write(res, encoder.encode(head.map(spec.frame).join("")));
  (log[key]).push("head written");
  // Hold the end of the stream until the page shows part of the text (or give up after 20 s,
  // which the checks below report as a failure).
  const released = await Promise.race([heldUntilRendered(key).then(() => true), sleep(20_000).then(() => false)]);
  log[key].push(released ? "partial render reported" : "timed out waiting for a partial render");
  await spec.write(res, encoder.encode(tail.map(spec.frame).join("")));
  log[key].push("tail written");
  res.end();
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url, "http://x");
  const path = url.pathname;
  if (path === "/") {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
    return;
  }
  if (path.startsWith("/stream/")) {
    const stream = decodeURIComponent(path.slice("/stream/".length));
    if (!STREAMS[stream]) return res.writeHead(404).end();
    await serveStream(stream, url.searchParams.get("mode"), res).catch(() => res.destroy());
    return;
  }
  if (path === "/rendered" && req.method === "POST") {
    let body = "";
    req.setEncoding("utf8");
    for await (const piece of req) body += piece;
    const key = `${url.searchParams.get("stream")}/${url.searchParams.get("mode")}`;
    rendered.set(key, body);
    waiters.get(key)?.();
    res.writeHead(204).end();
    return;
  }
  const file = normalize(join(project, decodeURIComponent(path)));
  if (!file.startsWith(project)) return res.writeHead(403).end();
  try {
    const body = await readFile(file);
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const origin = `http://127.0.0.1:${server.address().port}`;

// --- The run and the checks ----------------------------------------------------------------------

const profile = mkdtempSync(join(tmpdir(), "agentwire-chromium-"));
const results = [];
const check = (name, ok, error) => results.push({ name, ok: Boolean(ok), error });
let context;
try {
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    timeout: 60_000,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.stack ?? String(e)));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  await page.goto(origin, { timeout: 30_000 });
  try {
    await page.waitForFunction(() => window.__results !== undefined, null, { timeout: 90_000 });
  } catch (e) {
    throw new Error(`the page did not finish: ${errors.join("\n") || e.message}`);
  }
  const pageResults = await page.evaluate(() => window.__results);
  for (const stream of Object.keys(STREAMS)) {
    for (const mode of MODES) {
      const key = `${stream}/${mode}`;
      const r = pageResults[key] ?? { error: "no result" };
      const label = `${stream} via ${mode === "push" ? "push() in a reader loop" : "StreamAssembler.read()"}`;
      check(`${label}: ran without error`, !r.error, r.error);
      const shown = await page.textContent(`#${stream}-${mode} .text`);
      check(`${label}: the DOM shows the assembled text`, shown === TEXT,
        `rendered ${JSON.stringify(shown)}, expected ${JSON.stringify(TEXT)}`);
      const outcome = await page.textContent(`#${stream}-${mode} .outcome`);
      check(`${label}: the DOM shows outcome "completed"`, outcome === "completed" && (r.outcome ?? "completed") === "completed",
        `DOM ${JSON.stringify(outcome)}, assembler ${JSON.stringify(r.outcome)}`);
      const markup = await page.$$eval(`#${stream}-${mode} .text *`, (nodes) => nodes.length);
      check(`${label}: the text is rendered as text, not markup`, markup === 0, `${markup} elements inside the text`);
      const partial = rendered.get(key);
      const order = log[key] ?? [];
      check(`${label}: text was on screen before the server finished writing`,
        partial !== undefined && partial.length > 0 && partial.length < TEXT.length && TEXT.startsWith(partial)
          && order.indexOf("partial render reported") >= 0
          && order.indexOf("partial render reported") < order.indexOf("tail written"),
        `page reported ${JSON.stringify(partial)}; server log ${JSON.stringify(order)}`);
      if (mode === "push") {
        check(`${label}: the snapshot holds the same text`, r.snapshotText === TEXT, `snapshot ${JSON.stringify(r.snapshotText)}`);
        check(`${label}: the body arrived in many chunks (${r.chunks}, smallest ${r.smallest} B)`, r.chunks > 10,
          `only ${r.chunks} chunks: the adversarial writes were coalesced`);
        if (stream !== "crlf") {
          check(`${label}: chunks ended inside a multi-byte character (${r.splitChars} times)`, r.splitChars > 0,
            "no chunk ended inside a character: the split was not exercised");
        }
      } else {
        check(`${label}: updates came in several batches (${r.batches})`, r.batches > 2, `${r.batches} batches`);
      }
    }
  }
  check("no page errors", errors.length === 0, errors.join("\n"));
} catch (e) {
  check("the page runs", false, e?.stack ?? String(e));
} finally {
  await context?.close();
  server.close();
  server.closeAllConnections?.();
  rmSync(profile, { recursive: true, force: true });
}
process.exitCode = report("browser-e2e", results) === 0 ? 0 : 1;
