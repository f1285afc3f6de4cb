// Sizes of the built package's wasm modules: gzip -9 of each wasm plus its JS glue, the measure
// of the 100,000 B budget (bench/README.md, "Size budget"). Every size a README quotes is written
// here from this measure, between `<!-- size -->` and `<!-- /size -->`, never by hand.
//   node scripts/size.mjs <pkg> [options]
//   --readme FILE          write the measured sizes into FILE's span (the package README, in
//                          the built pkg/: `agentwire` 361.0 KiB, …)
//   --check FILE           fail unless FILE's span holds exactly what --readme would write there
//                          (the packed package's README, checked by tests/js/readme-size.test.mjs)
//   --project-readme FILE  the repository README: its span holds the sizes in whole KiB and the
//                          compiler they were measured with (`agentwire` ~361 KiB, …; whole KiB
//                          so that not every change of the Rust code changes the README). Written
//                          when the compiler is the one the ceilings were measured with (any
//                          other compiler's sizes are reported only); with --enforce, checked
//                          instead: FILE as committed (git HEAD; FILE itself outside a git work
//                          tree) must hold the measured sizes, and FILE is updated for the commit.
//   --enforce              (scripts/build.sh with ENFORCE_SIZE=1, as the `build` suite of
//                          scripts/test.sh runs it) also fails when a module is over its budget
//                          or grew past its ceiling.
// The budget holds for `agentwire/lite`, the browser assembler, whatever the compiler. The full
// module (every protocol, the builder, the translator) is three times that and only reported
// against it. The ceilings are the sizes measured when they were last lowered, plus 1%: lower
// one whenever a module shrinks. They hold for the compiler they were measured with (wasm-bindgen
// and binaryen are pinned by the project; rustc is not): with another rustc they are reported only.
import { execFileSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

const BUDGET = 100_000;
const MEASURED_WITH = "rustc 1.95.0 ";
const MODULES = [
  { name: "agentwire", dir: ".", ceiling: 431_500, budget: false },
  { name: "agentwire/lite", dir: "lite", ceiling: 99_900, budget: true },
  { name: "agentwire/client", dir: "client", ceiling: 229_600, budget: false },
];
const SPAN = /<!-- size -->([\s\S]*?)<!-- \/size -->/;

const [pkg, ...args] = process.argv.slice(2);
const USAGE = "usage: size.mjs <pkg dir> [--readme FILE] [--check FILE] [--project-readme FILE] [--enforce]";
if (!pkg || pkg.startsWith("--")) fail(USAGE);
const files = { "--readme": [], "--check": [], "--project-readme": [] };
let enforce = false;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--enforce") enforce = true;
  else if (args[i] in files && i + 1 < args.length) files[args[i]].push(args[++i]);
  else fail(`${args[i]}: unknown or incomplete option\n${USAGE}`);
}

/** Prints `message` and exits with status 1. */
function fail(message) {
  console.error(`[size] ${message}`);
  process.exit(1);
}

const gzipped = (file) => execFileSync("gzip", ["-9c", file], { maxBuffer: 64 << 20 }).length;

const sizes = MODULES.map((module) => {
  let total = 0;
  for (const file of ["agentwire_bg.wasm", "agentwire.js"]) {
    const path = join(pkg, module.dir, file);
    const gz = gzipped(path);
    total += gz;
    console.log(`[size] ${join(module.dir, file).padEnd(24)} ${String(statSync(path).size).padStart(8)} B raw ${String(gz).padStart(8)} B gzip -9`);
  }
  return { ...module, total };
});
const [full, lite, client] = sizes.map((s) => s.total);

/** The package README's span: sizes to a tenth of a KiB. */
const packageText = `\`agentwire\` ${(full / 1024).toFixed(1)} KiB, \`agentwire/client\` ${(client / 1024).toFixed(1)} KiB, \`agentwire/lite\` ${(lite / 1024).toFixed(1)} KiB (the wasm module plus its JS glue)`;

const rustc = execFileSync("rustc", ["--version"], { encoding: "utf8" }).trim();
const referenceCompiler = `${rustc} `.startsWith(MEASURED_WITH);
/** The repository README's span: whole KiB, and the compiler. */
const projectText = `\`agentwire\` ~${Math.round(full / 1024)} KiB, \`agentwire/client\` ~${Math.round(client / 1024)} KiB, \`agentwire/lite\` ~${Math.round(lite / 1024)} KiB (gzip -9 of the wasm module plus its JS glue, built with ${MEASURED_WITH.trim()})`;

const enforced = enforce && referenceCompiler;
if (enforce && !enforced) console.log(`[size] ceilings measured with ${MEASURED_WITH.trim()}, this is ${rustc}: reported only`);
let failed = false;
let readmeFailed = false;
for (const { name, total, ceiling, budget } of sizes) {
  const overBudget = total > BUDGET;
  const against = overBudget ? `${total - BUDGET} B over the ${BUDGET} B budget` : `within the ${BUDGET} B budget`;
  const over = total > ceiling;
  failed ||= (over && enforced) || (overBudget && budget && enforce);
  console.log(`[size] ${name}: ${total} B (wasm + glue), ${against}${budget ? " (enforced)" : " (reported)"}; ceiling ${ceiling} B: ${over ? "EXCEEDED" : "ok"}`);
}

/** The text of `text`'s size span, or an error naming `file` when it has none. */
function spanOf(text, file) {
  const match = SPAN.exec(text);
  if (!match) fail(`${file}: no <!-- size --> span`);
  return match[1];
}
/** Writes `value` into `file`'s span (only when it changed); true when it did. */
function write(file, value) {
  const text = readFileSync(file, "utf8");
  spanOf(text, file);
  const next = text.replace(SPAN, () => `<!-- size -->${value}<!-- /size -->`);
  if (next === text) return false;
  writeFileSync(file, next);
  return true;
}
/** `file` as committed, or as it is when it is not tracked by git. */
function committed(file) {
  try {
    return execFileSync("git", ["show", `HEAD:./${basename(file)}`], { cwd: dirname(file), encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return readFileSync(file, "utf8");
  }
}

for (const file of files["--readme"]) write(file, packageText);
for (const file of files["--check"]) {
  const quoted = spanOf(readFileSync(file, "utf8"), file);
  if (quoted !== packageText) fail(`${file} says ${JSON.stringify(quoted)}; the modules measure ${JSON.stringify(packageText)}`);
  console.log(`[size] ${file}: the sizes it quotes are the measured ones`);
}
for (const file of files["--project-readme"]) {
  if (!referenceCompiler) {
    console.log(`[size] ${file}: sizes quoted for ${MEASURED_WITH.trim()}, this is ${rustc}: left as it is`);
    continue;
  }
  const quoted = spanOf(enforce ? committed(file) : readFileSync(file, "utf8"), file);
  const updated = write(file, projectText);
  if (enforce && quoted !== projectText) {
    console.error(`[size] ${file} (as committed) says ${JSON.stringify(quoted)}; the modules measure ${JSON.stringify(projectText)}`);
    console.error(`[size] ${file} now quotes the measured sizes${updated ? "" : " (already in the work tree)"}: commit it`);
    readmeFailed = true;
  } else if (updated) {
    console.log(`[size] ${file}: the quoted sizes are updated to the measured ones (commit it)`);
  }
}
if (failed) console.error("[size] a module is over its budget or grew past its ceiling: find what added the bytes (twiggy), or justify raising it");
if (failed || readmeFailed) process.exit(1);
