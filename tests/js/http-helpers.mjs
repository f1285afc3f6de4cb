// What the Node AgentApp tests share: an app on node:http at 127.0.0.1, a JSON POST, and a
// reader that cuts its connection at random bytes and resumes.
import { createServer } from "node:http";

/** Serves `app` on a free port of 127.0.0.1: `{server, base}`. */
export async function listen(app) {
  const server = createServer(app.nodeListener);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, base: `http://127.0.0.1:${server.address().port}` };
}

/** POSTs `body` (JSON, or a string as it is) to `url`. */
export function post(url, body, headers = {}) {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
}

/**
 * Reads the answer `first` into `asm`, cutting the connection 1 to 3 times at random bytes
 * (`next` is a seeded generator) and resuming each time from `resume(asm)` (a fetch with the
 * cursor); resolves once the answer ended, `asm` finished.
 */
export async function readWithCuts(first, asm, next, resume) {
  let reader = first.body.getReader();
  let cuts = 1 + (next() % 3);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (cuts > 0 && next() % 3 === 0) {
      // Cut inside this chunk, at a random byte: the rest of it is lost with the connection.
      asm.push(value.subarray(0, next() % (value.length + 1)));
      await reader.cancel();
      asm.connectionLost();
      cuts--;
      const resumed = await resume(asm);
      if (resumed.status !== 200) throw new Error(`the resume answered ${resumed.status}: ${await resumed.text()}`);
      reader = resumed.body.getReader();
      continue;
    }
    asm.push(value);
  }
  asm.finish();
}
