// The subset of node:assert/strict that cases.mjs uses, for runtimes without node:assert
// (browsers). deepStrictEqual also requires the same key order, which is stricter than Node's.
function fail(message, actual, expected) {
  const detail = actual === undefined && expected === undefined ? ""
    : `\n  actual:   ${show(actual)}\n  expected: ${show(expected)}`;
  throw new Error(`${message}${detail}`);
}
function show(value) {
  try { return JSON.stringify(value); } catch { return String(value); }
}
function same(a, b) {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && same(a[k], b[k]));
}
export default {
  ok(value, message = "expected a truthy value") { if (!value) fail(message); },
  strictEqual(actual, expected, message = "values differ") {
    if (!Object.is(actual, expected)) fail(message, actual, expected);
  },
  notStrictEqual(actual, expected, message = "values are identical") {
    if (Object.is(actual, expected)) fail(message, actual, expected);
  },
  match(actual, regexp, message = "value does not match") {
    if (typeof actual !== "string" || !regexp.test(actual)) fail(message, actual, String(regexp));
  },
  deepStrictEqual(actual, expected, message = "values differ") {
    if (!same(actual, expected)) fail(message, actual, expected);
  },
};
