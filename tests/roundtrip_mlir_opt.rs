//! Our generic printer against the reference: for every fixture mlir-opt 22
//! accepts (accepted `fixtures/spec` examples, `fixtures/roundtrip/*.mlir`,
//! `fixtures/exec/**/*.mlir`, `fixtures/linalg_generic/*.mlir`),
//!
//! ```text
//! mlir-interp print --generic F | mlir-opt --mlir-print-op-generic --allow-unregistered-dialect
//! ```
//!
//! must print exactly what `mlir-opt --mlir-print-op-generic
//! --allow-unregistered-dialect F` prints, up to trailing whitespace. Our
//! side calls the library (`parse_and_verify` + `print_generic`, what the
//! CLI's `print --generic` runs) so the test does not depend on the binary.
//!
//! Without `/usr/lib/llvm-22/bin/mlir-opt` (or `$MLIR_OPT`) the test prints
//! "skipped: mlir-opt not found" and passes, except under `CI=true`, where
//! it fails. Every `fixtures/roundtrip` file must be accepted by mlir-opt.
//!
//! Every compared fixture must match, except the known gaps listed in
//! [`KNOWN_FAILING`] with their reason; the report lists each mismatch (we
//! reject it, mlir-opt rejects our output, or the first differing line).

mod common;

use mlir_ir::diag::Source;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Fixtures that do not round-trip yet, each with the gap it shows. They are
/// reported but do not fail the test; remove an entry once it passes (the
/// test says so).
const KNOWN_FAILING: &[(&str, &str)] = &[];

const OPT_ARGS: &[&str] = &["--mlir-print-op-generic", "--allow-unregistered-dialect"];

/// The outcome for one fixture.
enum Outcome {
    /// Our round trip prints what mlir-opt prints.
    Same,
    /// mlir-opt itself rejects the fixture: not compared.
    NotAccepted(String),
    /// We reject (or panic on) input mlir-opt accepts.
    OursRejects(String),
    /// mlir-opt cannot read back what we printed.
    OurOutputRejected(String),
    /// Both read fine but print differently: first differing line.
    Differs { line: usize, expected: String, got: String },
}

/// Accepted spec examples, then roundtrip fixtures, then exec fixtures.
fn inputs() -> Vec<PathBuf> {
    let tsv = std::fs::read_to_string(common::root().join("fixtures/spec/EXPECTED.tsv")).unwrap_or_default();
    let mut out: Vec<PathBuf> = tsv
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .filter(|(_, rest)| rest.starts_with("accept"))
        .map(|(name, _)| common::root().join("fixtures/spec").join(name))
        .collect();
    out.extend(common::fixtures("roundtrip"));
    out.extend(common::fixtures_recursive("exec"));
    out.extend(common::fixtures("linalg_generic"));
    out
}

fn check(opt: &Path, f: &Path) -> Outcome {
    let path = f.to_string_lossy().into_owned();
    let mut args: Vec<&str> = OPT_ARGS.to_vec();
    args.push(&path);
    let reference = common::run_mlir_opt(opt, &args, None);
    if !reference.ok {
        return Outcome::NotAccepted(common::first_line(&reference.stderr).to_owned());
    }
    let text = String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned();
    let src = Source::new(common::rel(f), text);
    let printed = match catch_unwind(AssertUnwindSafe(|| {
        mlir_ir::parse_and_verify(&src).map(|m| mlir_ir::printer::print_generic(&m))
    })) {
        Ok(Ok(p)) => p,
        Ok(Err(d)) => return Outcome::OursRejects(common::first_line(&d.render(&src)).to_owned()),
        Err(_) => return Outcome::OursRejects("PANIC".to_owned()),
    };
    let back = common::run_mlir_opt(opt, OPT_ARGS, Some(&printed));
    if !back.ok {
        return Outcome::OurOutputRejected(common::first_line(&back.stderr).to_owned());
    }
    let (want, got) = (common::trim_trailing(&reference.stdout), common::trim_trailing(&back.stdout));
    if want == got {
        return Outcome::Same;
    }
    let (w, g): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    let i = (0..w.len().max(g.len())).find(|&i| w.get(i) != g.get(i)).unwrap_or(0);
    Outcome::Differs {
        line: i + 1,
        expected: w.get(i).unwrap_or(&"<end of output>").to_string(),
        got: g.get(i).unwrap_or(&"<end of output>").to_string(),
    }
}

/// Runs `check` on every input, spread over the available cores.
fn check_all(opt: &Path, files: &[PathBuf]) -> Vec<Outcome> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Outcome>>> = Mutex::new((0..files.len()).map(|_| None).collect());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).min(8);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(f) = files.get(i) else { break };
                let o = check(opt, f);
                results.lock().unwrap()[i] = Some(o);
            });
        }
    });
    results.into_inner().unwrap().into_iter().map(|o| o.expect("every input checked")).collect()
}

#[test]
fn generic_print_round_trips_through_mlir_opt() {
    let Some(opt) = common::mlir_opt() else { return };
    let files = inputs();
    assert!(!files.is_empty(), "no fixtures to round-trip");
    let outcomes = check_all(&opt, &files);
    let (mut same, mut compared, mut known) = (0, 0, 0);
    let mut bad_fixtures = Vec::new();
    for (f, o) in files.iter().zip(&outcomes) {
        let name = common::rel(f);
        let gap = KNOWN_FAILING.iter().find(|(n, _)| *n == name).map(|(_, why)| *why);
        let report = match o {
            Outcome::NotAccepted(e) => {
                println!("{name}  [not accepted by mlir-opt; not compared]\n    {e}");
                if name.starts_with("fixtures/roundtrip") || name.starts_with("fixtures/spec") {
                    bad_fixtures.push(name);
                }
                continue;
            }
            Outcome::Same => {
                compared += 1;
                same += 1;
                if gap.is_some() {
                    println!("{name}  [now matches: remove it from KNOWN_FAILING]");
                }
                continue;
            }
            Outcome::OursRejects(e) => format!("[we reject]\n    {e}"),
            Outcome::OurOutputRejected(e) => format!("[mlir-opt rejects our generic output]\n    {e}"),
            Outcome::Differs { line, expected, got } => {
                format!("[differs at output line {line}]\n    mlir-opt: {expected}\n    ours:     {got}")
            }
        };
        compared += 1;
        match gap {
            Some(why) => {
                known += 1;
                println!("{name}  (known gap: {why}) {report}");
            }
            None => println!("{name}  {report}"),
        }
    }
    println!("\nround trip through mlir-opt: {same}/{compared} fixtures match ({known} known gaps)");
    assert!(bad_fixtures.is_empty(), "fixtures that must be valid are rejected by mlir-opt: {bad_fixtures:?}");
    assert_eq!(
        same + known,
        compared,
        "{} fixture(s) do not round-trip through mlir-opt; see the report above",
        compared - same - known
    );
}

#[test]
fn roundtrip_fixtures_exist() {
    // Cheap guard that needs no mlir-opt: the fixture set has not vanished.
    let n = common::fixtures("roundtrip").len();
    assert!(n >= 25, "expected at least 25 fixtures/roundtrip files, found {n}");
}
