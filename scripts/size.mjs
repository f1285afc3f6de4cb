// Sizes of the built package's wasm modules: gzip -9 of each wasm plus its JS glue, the measure
// of the 100,000 B budget (bench/README.md, "Size budget").
//   node scripts/size.mjs <pkg> --readme <README.md>   (scripts/build.sh) prints them and writes
//       the package README's `<!-- size -->…<!-- /size -->` span: never hand-copied.
//   … --enforce      (scripts/build.sh with ENFORCE_SIZE=1, as the `build` suite of
//       scripts/test.sh runs it) also fails when a module is over its budget or grew past its
//       ceiling.
// The budget holds for `agentwire/lite`, the browser assembler, whatever the compiler. The full
// module (every protocol, the builder, the translator) is three times that and only reported
// against it. The ceilings are the sizes measured when they were last lowered, plus 1%: lower
// one whenever a module shrinks. They hold for the compiler they were measured with (wasm-bindgen
// and binaryen are pinned by the project; rustc is not): with another rustc they are reported only.
import { execFileSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const BUDGET = 100_000;
const MEASURED_WITH = "rustc 1.95.0 ";
const MODULES = [
  { name: "agentwire", dir: ".", ceiling: 379_900, budget: false },
  { name: "agentwire/lite", dir: "lite", ceiling: 99_900, budget: true },
];

const [pkg, ...args] = process.argv.slice(2);
if (!pkg) throw new Error("usage: size.mjs <pkg dir> [--readme FILE] [--enforce]");
const readme = args.includes("--readme") ? args[args.indexOf("--readme") + 1] : null;
const enforce = args.includes("--enforce");

const gzipped = (file) => execFileSync("gzip", ["-9c", file], { maxBuffer: 64 << 20 }).length;
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

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

const rustc = execFileSync("rustc", ["--version"], { encoding: "utf8" }).trim();
const enforced = enforce && `${rustc} `.startsWith(MEASURED_WITH);
if (enforce && !enforced) console.log(`[size] ceilings measured with ${MEASURED_WITH.trim()}, this is ${rustc}: reported only`);
let failed = false;
for (const { name, total, ceiling, budget } of sizes) {
  const overBudget = total > BUDGET;
  const against = overBudget ? `${total - BUDGET} B over the ${BUDGET} B budget` : `within the ${BUDGET} B budget`;
  const over = total > ceiling;
  failed ||= (over && enforced) || (overBudget && budget && enforce);
  console.log(`[size] ${name}: ${total} B (wasm + glue), ${against}${budget ? " (enforced)" : " (reported)"}; ceiling ${ceiling} B: ${over ? "EXCEEDED" : "ok"}`);
}

if (readme) {
  const text = readFileSync(readme, "utf8");
  const span = /<!-- size -->[\s\S]*?<!-- \/size -->/;
  if (!span.test(text)) throw new Error(`${readme}: no <!-- size --> span`);
  const [full, lite] = sizes.map((s) => kib(s.total));
  const next = text.replace(span, `<!-- size -->\`agentwire\` ${full}, \`agentwire/lite\` ${lite} (the wasm module plus its JS glue)<!-- /size -->`);
  if (next !== text) writeFileSync(readme, next);
}
if (failed) {
  console.error("[size] a module is over its budget or grew past its ceiling: find what added the bytes (twiggy), or justify raising it");
  process.exit(1);
}
