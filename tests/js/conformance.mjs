// Where the protocols' own conformance suites are: outside the project, in
// `<repo root>/../shared/conformance/<name>` (`AGENTWIRE_CONFORMANCE` names another directory
// holding them). They are read from there, never copied into the project. The one place the JS
// tests name that directory.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** The directory holding the suites, or a message saying why there is none. */
function base() {
  if (process.env.AGENTWIRE_CONFORMANCE) return { dir: resolve(process.env.AGENTWIRE_CONFORMANCE) };
  if (process.env.AGENTWIRE_ROOT) return { dir: resolve(process.env.AGENTWIRE_ROOT, "..", "shared", "conformance") };
  return { missing: "neither AGENTWIRE_CONFORMANCE nor AGENTWIRE_ROOT is set (scripts/test.sh sets AGENTWIRE_ROOT)" };
}

/**
 * The path of conformance suite `name` (`ag-ui`, `openresponses`, …), checked to exist; throws
 * an error saying where it was looked for and how to point at it otherwise.
 */
export function conformanceDir(name) {
  const { dir, missing } = base();
  if (missing) throw new Error(`conformance suite ${name}: ${missing}`);
  const path = join(dir, name);
  if (!existsSync(path)) {
    throw new Error(`conformance suite ${name} not found at ${path}: the suites live in <repo root>/../shared/conformance (set AGENTWIRE_CONFORMANCE to their directory)`);
  }
  return path;
}

/** Directory `sub` of suite `name` as a URL ending in `/`, for `new URL(file, dir)`. */
export function conformanceUrl(name, sub = ".") {
  return pathToFileURL(`${join(conformanceDir(name), sub)}/`);
}
