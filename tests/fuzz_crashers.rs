//! Inputs that once failed the fuzz target (`fuzz/fuzz_targets/push.rs`), replayed through the
//! same checks: each must run without a panic and satisfy every property of
//! `assembler_harness::check`. One file per crash in `tests/fuzz-crashers/`, named after what
//! it found.

mod assembler_harness;

use std::path::Path;

#[test]
fn fuzz_crashers() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-crashers");
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    entries.sort();
    let mut failures = Vec::new();
    let mut count = 0;
    for path in entries
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "bin"))
    {
        count += 1;
        let data = std::fs::read(path).unwrap_or_default();
        let Some((config, cuts, stream)) = assembler_harness::decode_fuzz_input(&data) else {
            continue;
        };
        if let Err(problem) = assembler_harness::check(stream, config, &cuts) {
            failures.push(format!("{}: {problem}", path.display()));
        }
    }
    assert!(count > 0, "no crash inputs found in {}", dir.display());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
