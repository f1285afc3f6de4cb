// TAP-style reporting for the runtime runners, so every suite prints `ok`/`not ok` lines and the
// same `# pass N` / `# fail N` summary as `node --test`.

/** Prints `results` ({name, ok, error?}[]) and returns the number of failures. */
export function report(runtime, results) {
  let failed = 0;
  results.forEach(({ name, ok, error }, i) => {
    console.log(`${ok ? "ok" : "not ok"} ${i + 1} - [${runtime}] ${name}`);
    if (!ok) {
      failed++;
      console.log(`  # ${String(error).split("\n").join("\n  # ")}`);
    }
  });
  console.log(`1..${results.length}\n# pass ${results.length - failed}\n# fail ${failed}`);
  console.log(failed === 0 && results.length > 0
    ? `[${runtime}] PASS: ${results.length} tests`
    : `[${runtime}] FAIL: ${failed} of ${results.length} tests failed`);
  return failed;
}

/** Runs the shared cases against `api`, catching each failure. */
export async function runCases(cases, api, assert) {
  const results = [];
  for (const [name, run] of Object.entries(cases)) {
    try {
      await run(api, assert);
      results.push({ name, ok: true });
    } catch (e) {
      results.push({ name, ok: false, error: e && e.stack ? e.stack : String(e) });
    }
  }
  return results;
}

/**
 * The results of a runner and its `check(name, fn)`: runs `fn`, recording whether it threw (with
 * `progress`, each outcome is also printed to stderr as it comes).
 */
export function checks({ progress = false } = {}) {
  const results = [];
  async function check(name, fn) {
    try {
      await fn();
      results.push({ name, ok: true });
    } catch (e) {
      results.push({ name, ok: false, error: e?.stack ?? String(e) });
    }
    if (progress) console.error(`# ${results.at(-1).ok ? "ok" : "FAILED"}: ${name}`);
  }
  return { results, check };
}
