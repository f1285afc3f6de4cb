//! Inputs that once failed a fuzz target (`fuzz/fuzz_targets/`), replayed through the same
//! checks. One file per crash in `tests/fuzz-crashers/`, named after what it found:
//! `<target>-<what>.bin` for the targets of `tests/fuzz_harness` (`partial_json`, `patch`,
//! `render`, `builder`, `translate`), replayed through that target's `check`; any other name is
//! an input of the `push` target, replayed through `assembler_harness::check`. Each must run
//! without a panic and satisfy every property.

mod fuzz_harness;

use std::path::Path;

use fuzz_harness::assembler_harness;

/// The target whose input `name` is, by its prefix.
fn target_of(name: &str) -> &'static str {
    fuzz_harness::TARGETS
        .iter()
        .copied()
        .find(|t| {
            name.strip_prefix(t)
                .is_some_and(|rest| rest.starts_with('-'))
        })
        .unwrap_or("push")
}

fn replay(target: &str, data: &[u8]) -> Result<(), String> {
    if let Some(result) = fuzz_harness::check(target, data) {
        return result;
    }
    let Some((config, cuts, stream)) = assembler_harness::decode_fuzz_input(data) else {
        return Err("not an input of the push target (it does not decode)".to_owned());
    };
    assembler_harness::check(stream, config, &cuts).map(drop)
}

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
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_owned();
        let target = target_of(&name);
        // The fuzz targets run on the main thread (8 MiB of stack); inputs nested thousands of
        // levels deep need as much in a debug build.
        let result = std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || replay(target, &data))
            .map_err(|e| e.to_string())
            .and_then(|h| h.join().unwrap_or_else(|_| Err("panicked".to_owned())));
        if let Err(problem) = result {
            failures.push(format!("{} ({target}): {problem}", path.display()));
        }
    }
    assert!(count > 0, "no crash inputs found in {}", dir.display());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn crash_files_name_their_target() {
    assert_eq!(target_of("partial_json-x.bin"), "partial_json");
    assert_eq!(target_of("patch-copy.bin"), "patch");
    assert_eq!(target_of("patchy.bin"), "push");
    assert_eq!(target_of("agui-args-fold.bin"), "push");
}
