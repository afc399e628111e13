//! The 2019 language (`--lang 2019`, `src/parser/lang2019.rs`).
//!
//! - `fixtures/lang2019/X.mlir`: programs in 2019 syntax. Run as they are
//!   (the language is detected, with a note on stderr), their stdout must
//!   equal `X.mlir.out`, recorded by `tools/record_lang2019.sh` from LLVM
//!   22's mlir-runner running the modern translation (never from us);
//!   `// NO-ORACLE:` files explain their hand-derived output.
//! - The modern form `print --lang 2019 --generic` prints must be accepted
//!   by mlir-opt 22 and, run through mlir-opt + mlir-runner, print the same
//!   output. Skipped without the toolchain, except under CI (`CI=true`).
//! - `fixtures/spec/LANG2019.tsv` classifies every example block of the
//!   2019 specification (`fixtures/spec/002_*.mlir`): a program that runs,
//!   a fragment that parses and verifies inside a wrapper, or an error (the
//!   document's own inconsistency) with our diagnostic.

use mlir_interp::cli::EntryResult;
use mlir_interp::differential;
use std::path::{Path, PathBuf};
use std::process::Command;
#[path = "common/toolchain.rs"]
mod tools;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn interp(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_mlir-interp")).args(args).output().expect("run mlir-interp")
}

fn programs() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("fixtures/lang2019"))
        .expect("fixtures/lang2019")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    v.sort();
    v
}

const MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";
const RUNNER: &str = "/usr/lib/llvm-22/bin/mlir-runner";

/// Whether the LLVM 22 tools this file compares with are here.
fn toolchain() -> bool {
    tools::toolchain(&[MLIR_OPT, RUNNER])
}

#[test]
fn programs_print_the_recorded_output() {
    let files = programs();
    assert!(files.len() >= 4, "expected the 2019 programs in fixtures/lang2019");
    let mut failures = Vec::new();
    for f in &files {
        let golden = std::fs::read_to_string(format!("{}.out", f.display())).expect("recorded .out");
        let out = interp(&["run", f.to_str().unwrap()]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if !out.status.success() || stdout != golden {
            failures.push(format!(
                "{}: exit {:?}\n{stderr}--- expected\n{golden}--- got\n{stdout}",
                f.display(),
                out.status
            ));
        }
        if !stderr.contains("note: reading the file as the 2019 language") {
            failures.push(format!("{}: no detection note on stderr:\n{stderr}", f.display()));
        }
        let explicit = interp(&["run", "--lang", "2019", f.to_str().unwrap()]);
        if String::from_utf8_lossy(&explicit.stdout) != golden || !explicit.stderr.is_empty() {
            failures.push(format!("{}: --lang 2019 run differs or notes", f.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn modern_form_runs_in_llvm_with_the_same_output() {
    if !toolchain() {
        return;
    }
    let mut failures = Vec::new();
    for f in programs() {
        let text = std::fs::read_to_string(&f).unwrap();
        let golden = std::fs::read_to_string(format!("{}.out", f.display())).unwrap();
        let printed = interp(&["print", "--lang", "2019", "--generic", f.to_str().unwrap()]);
        assert!(printed.status.success(), "{}: print failed", f.display());
        let modern = std::env::temp_dir().join(format!(
            "lang2019-{}-{}",
            std::process::id(),
            f.file_name().unwrap().to_string_lossy()
        ));
        std::fs::write(&modern, &printed.stdout).unwrap();
        let opt = Command::new(MLIR_OPT).arg(&modern).args(["-o", "/dev/null"]).output().unwrap();
        if !opt.status.success() {
            failures.push(format!(
                "{}: mlir-opt rejects the modern form:\n{}",
                f.display(),
                String::from_utf8_lossy(&opt.stderr)
            ));
        } else if !text.contains("// NO-ORACLE:") {
            let tc = differential::Toolchain::default();
            let directive = text.lines().find_map(|l| l.strip_prefix("// PIPELINE:")).map(str::trim);
            let pipeline = directive.unwrap_or(differential::ORACLE_PIPELINE);
            let r = differential::run_reference(
                &tc,
                &modern,
                pipeline,
                "main",
                EntryResult::Void,
                std::time::Duration::from_secs(120),
            );
            match r {
                Ok(o) if o.status == 0 && o.stdout == golden => {}
                Ok(o) => failures.push(format!("{}: mlir-runner prints\n{}{}", f.display(), o.stdout, o.stderr)),
                Err(e) => failures.push(format!("{}: {e}", f.display())),
            }
        }
        let _ = std::fs::remove_file(&modern);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// One row of `fixtures/spec/LANG2019.tsv`.
struct Row {
    name: String,
    outcome: String,
    /// `-` (the text is a module), `types` (each line a type), or the
    /// argument list of the function the fragment becomes the body of.
    args: String,
    /// Definitions the fragment uses but does not make, ` ;; `-separated.
    defs: String,
    /// `program`: run options; `error`: `L:C: error: message`.
    expect: String,
}

fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(root().join("fixtures/spec/LANG2019.tsv")).expect("LANG2019.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            assert!(c.len() >= 6, "LANG2019.tsv: a row needs 6 columns: {l}");
            let row = Row {
                name: c[0].into(),
                outcome: c[1].into(),
                args: c[2].into(),
                defs: c[3].into(),
                expect: c[4].into(),
            };
            assert!(!c[5].trim().is_empty(), "LANG2019.tsv: {} needs a reason", row.name);
            row
        })
        .collect()
}

/// Is `line` (trimmed) an alias definition of the module header?
fn is_alias_def(line: &str) -> bool {
    let t = line.trim_start();
    (t.starts_with('#') || t.starts_with('!')) && t.contains('=') && !t.starts_with("#-}")
}

/// Is the last op of a fragment a terminator (so the wrapper adds no `return`)?
fn ends_in_terminator(body: &[(String, usize)]) -> bool {
    let last = body.iter().rev().map(|(l, _)| l.trim()).find(|l| !l.is_empty() && !l.starts_with("//"));
    last.is_some_and(|l| ["return", "br ", "cond_br", "br_cond"].iter().any(|k| l.starts_with(k)))
}

/// The fragment `text` made a module as `row` says, line by line with the
/// fixture line each came from (0: the wrapper's own). The header aliases
/// stay at top level, the document's `...` elisions are dropped, the rest
/// becomes the body of `func @fragment(args)` (a `return` added if it
/// does not end in a terminator) or, for `types`, its argument types.
fn wrap(text: &str, row: &Row) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for d in row.defs.split(" ;; ").filter(|d| *d != "-") {
        out.push((d.to_string(), 0));
    }
    let mut header = Vec::new();
    let mut body = Vec::new();
    let mut in_alias = false;
    for (i, line) in text.lines().enumerate().skip(1) {
        let n = i + 1;
        let elided = line.trim() == "...";
        let continues = in_alias && !elided && line.starts_with([' ', '\t']) && !line.trim().is_empty();
        if is_alias_def(line) || continues {
            in_alias = true;
            header.push((line.to_string(), n));
            continue;
        }
        in_alias = false;
        if elided {
            continue;
        }
        body.push((line.to_string(), n));
    }
    out.extend(header);
    match row.args.as_str() {
        "-" => out.extend(body),
        "types" => {
            out.push(("func @types(".into(), 0));
            let types: Vec<(String, usize)> = body
                .into_iter()
                .map(|(l, n)| (l.split("//").next().unwrap_or("").trim_end().to_string(), n))
                .filter(|(l, _)| !l.trim().is_empty())
                .collect();
            let count = types.len();
            for (k, (l, n)) in types.into_iter().enumerate() {
                out.push((if k + 1 < count { format!("{l},") } else { l }, n));
            }
            out.push((")".into(), 0));
        }
        args => {
            out.push((format!("func @fragment{args} {{"), 0));
            let term = ends_in_terminator(&body);
            out.extend(body);
            if !term {
                out.push(("return".into(), 0));
            }
            out.push(("}".into(), 0));
        }
    }
    out
}

/// What happens to the wrapped example: `Ok(())` or the first diagnostic
/// as `L:C: error: message` with the fixture's line numbers.
fn outcome(name: &str, lines: &[(String, usize)]) -> Result<(), String> {
    let text: String = lines.iter().map(|(l, _)| format!("{l}\n")).collect();
    let src = mlir_ir::diag::Source::new(name, text.as_str());
    let limits = mlir_ir::Limits::default();
    match mlir_ir::parse_and_verify_lang(&src, &limits, mlir_ir::Lang::Y2019) {
        Ok(_) => Ok(()),
        Err(d) => {
            let (l, c) = src.line_col(d.span.start.min(text.len() as u32));
            let origin = lines.get(l.wrapping_sub(1)).map_or(0, |x| x.1);
            let at = if origin == 0 { "wrapper".to_string() } else { format!("{origin}:{c}") };
            Err(format!("{at}: {}: {}", d.severity, d.message))
        }
    }
}

#[test]
fn every_2019_spec_example_is_classified() {
    let rows = rows();
    let mut fixtures: Vec<String> = std::fs::read_dir(root().join("fixtures/spec"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("002_") && n.ends_with(".mlir"))
        .map(|n| n.trim_end_matches(".mlir").to_string())
        .collect();
    fixtures.sort();
    let named: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(named, fixtures.iter().map(String::as_str).collect::<Vec<_>>(), "one row per 002_* fixture, in order");
    let mut failures = Vec::new();
    let mut counts = std::collections::BTreeMap::new();
    for row in &rows {
        *counts.entry(row.outcome.clone()).or_insert(0) += 1;
        let path = root().join(format!("fixtures/spec/{}.mlir", row.name));
        let text = std::fs::read_to_string(&path).unwrap();
        let wrapped = wrap(&text, row);
        let got = outcome(&row.name, &wrapped);
        let ok = match (row.outcome.as_str(), &got) {
            ("fragment", Ok(())) => true,
            ("error", Err(e)) => *e == row.expect,
            ("program", Ok(())) => {
                let mut args = vec!["run", "--lang", "2019"];
                args.extend(row.expect.split_whitespace());
                args.push(path.to_str().unwrap());
                let r = interp(&args);
                if !r.status.success() {
                    failures.push(format!("{}: run fails: {}", row.name, String::from_utf8_lossy(&r.stderr)));
                }
                true
            }
            _ => false,
        };
        if !ok || std::env::var_os("LANG2019_SHOW").is_some() {
            let shown = match &got {
                Ok(()) => "accepted".to_string(),
                Err(e) => e.clone(),
            };
            failures.push(format!("{}\t{}\tgot: {shown}", row.name, row.outcome));
        }
    }
    println!("2019 spec examples: {counts:?}");
    assert!(failures.is_empty(), "{} example(s) disagree with LANG2019.tsv:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn fragments_print_a_modern_form_mlir_opt_accepts() {
    if !toolchain() {
        return;
    }
    let mut failures = Vec::new();
    for row in rows().iter().filter(|r| r.outcome != "error") {
        let text = std::fs::read_to_string(root().join(format!("fixtures/spec/{}.mlir", row.name))).unwrap();
        let wrapped: String = wrap(&text, row).iter().map(|(l, _)| format!("{l}\n")).collect();
        let src = mlir_ir::diag::Source::new(&row.name, wrapped.as_str());
        let limits = mlir_ir::Limits::default();
        let m = mlir_ir::parse_and_verify_lang(&src, &limits, mlir_ir::Lang::Y2019).expect("classified as valid");
        let modern = std::env::temp_dir().join(format!("lang2019-{}-{}.mlir", std::process::id(), row.name));
        std::fs::write(&modern, mlir_ir::printer::GenericPrinter::new(&m).print()).unwrap();
        let opt = Command::new(MLIR_OPT)
            .arg("--allow-unregistered-dialect")
            .arg(&modern)
            .args(["-o", "/dev/null"])
            .output()
            .unwrap();
        if !opt.status.success() {
            failures.push(format!("{}: {}", row.name, String::from_utf8_lossy(&opt.stderr)));
        }
        let _ = std::fs::remove_file(&modern);
    }
    assert!(failures.is_empty(), "mlir-opt 22 rejects the modern form of:\n{}", failures.join("\n"));
}

/// Runs `mlir-interp CMD.. FILE` on `text` saved as a file named after
/// `tag`: the exit code and stderr.
fn on_text(tag: &str, text: &str, cmd: &[&str]) -> (Option<i32>, String) {
    let path = std::env::temp_dir().join(format!("lang2019-{tag}-{}.mlir", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let out = interp(&[cmd, &[path.to_str().unwrap()]].concat());
    let _ = std::fs::remove_file(&path);
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Undefined behaviour in a 2019 program is reported at the 2019 line
/// (the op it became keeps the span of the text it came from).
#[test]
fn ub_reports_point_at_the_2019_text() {
    let text = "func @main() {\n  %A = alloc() : memref<4xf32>\n  for %i = 0 to 5 {\n    %v = load %A[%i] : memref<4xf32>\n  }\n  return\n}\n";
    let (code, stderr) = on_text("ub", text, &["run", "--lang", "2019"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains(".mlir:4:10: error:") && stderr.contains("load %A[%i] : memref<4xf32>"), "{stderr}");
}

/// `shlis` by the width or more, which mid-2019 MLIR never defined (it
/// had no folder or lowering), is `arith.shli`'s poison, and printing it is
/// reported with the 2019 line that made it.
#[test]
fn shlis_past_the_width_is_poison_at_the_2019_line() {
    let text = "func @main() {\n  %a = constant 1 : i8\n  %n = constant 8 : i8\n  %s = shlis %a, %n : i8\n  vector.print %s : i8\n  return\n}\n";
    let (code, stderr) = on_text("shlis", text, &["run", "--lang", "2019"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains(".mlir:4:8: note: poison created here") && stderr.contains("shlis %a, %n"), "{stderr}");
}

/// A 2019 construct the document gets wrong is a diagnostic at the spot,
/// mlir-opt style (`file:line:col: error:` and a caret line).
#[test]
fn document_mistakes_are_diagnosed_at_the_spot() {
    let text = "func @f(%C: memref<4xf32>, %i: index) {\n  store 0 to %C[%i] : memref<4xf32>\n  return\n}\n";
    let (code, stderr) = on_text("store", text, &["print"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains(".mlir:2:9: error: 2019 'store' stores an SSA value"), "{stderr}");
    assert!(stderr.contains("  store 0 to %C[%i]") && stderr.contains("        ^"), "{stderr}");
}

/// Bad input is a diagnostic, never a panic: every prefix of every 2019
/// program, and every spec example of every document, read as 2019.
#[test]
fn no_input_panics_the_2019_parser() {
    use std::panic::{catch_unwind, AssertUnwindSafe};
    let limits = mlir_ir::Limits::default();
    let check = |name: &str, text: &str| {
        let src = mlir_ir::diag::Source::new(name, text);
        let r = catch_unwind(AssertUnwindSafe(|| {
            let _ = mlir_ir::parse_and_verify_lang(&src, &limits, mlir_ir::Lang::Y2019);
        }));
        assert!(r.is_ok(), "the 2019 parser panicked on {name}:\n{text}");
    };
    let mut n = 0;
    for f in programs() {
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, _) in text.char_indices() {
            check(&f.display().to_string(), &text[..i]);
            n += 1;
        }
    }
    for e in std::fs::read_dir(root().join("fixtures/spec")).unwrap().flatten() {
        if e.path().extension().is_some_and(|x| x == "mlir") {
            check(&e.path().display().to_string(), &std::fs::read_to_string(e.path()).unwrap());
            n += 1;
        }
    }
    assert!(n > 1000, "only {n} inputs");
}

/// Each 2019 op and the op of today it becomes (the table of the book's docs/src/lang2019.md).
const MAPPING: &[(&str, &str)] = &[
    ("for %i = 0 to 4 step 2 {\n}", "affine.for"),
    ("if (d0) : (d0 >= 0) (%x) {\n} else if (d0) : d0 - 1 >= 0 (%x) {\n} else {\n}", "affine.if"),
    ("%r = affine_apply (d0) -> (d0 + 1, d0 floordiv 2) (%x)", "affine.apply"),
    ("%r = constant 42 : i32", "arith.constant"),
    ("%r = constant @f : (index) -> ()", "func.constant"),
    ("call @f(%x) : (index) -> ()", "func.call"),
    ("%g = constant @f : (index) -> ()\n  call_indirect %g(%x) : (index) -> ()", "func.call_indirect"),
    ("%r = addi %a, %a : i32", "arith.addi"),
    ("%r = subi %a, %a : i32", "arith.subi"),
    ("%r = muli %a, %a : i32", "arith.muli"),
    ("%r = divis %a, %a : i32", "arith.divsi"),
    ("%r = diviu %a, %a : i32", "arith.divui"),
    ("%r = remis %a, %a : i32", "arith.remsi"),
    ("%r = remiu %a, %a : i32", "arith.remui"),
    ("%r = addf %y, %y : f32", "arith.addf"),
    ("%r = subf %y, %y : f32", "arith.subf"),
    ("%r = mulf %y, %y : f32", "arith.mulf"),
    ("%r = cmpi \"slt\", %a, %a : i32", "arith.cmpi"),
    ("%r = select %c, %a, %a : i32", "arith.select"),
    // The standard dialect of mid-2019 (tensorflow/mlir's Ops.td at a8d42cce).
    ("%r = and %a, %a : i32", "arith.andi"),
    ("%r = or %a, %a : i32", "arith.ori"),
    ("%r = xor %a, %a : i32", "arith.xori"),
    ("%r = shlis %a, %a : i32", "arith.shli"),
    ("%r = divf %y, %y : f32", "arith.divf"),
    ("%r = remf %y, %y : f32", "arith.remf"),
    ("%r = cmpf \"ord\", %y, %y : f32", "arith.cmpf"),
    ("%r = index_cast %x : index to i32", "arith.index_cast"),
    ("%r = index_cast %a : i32 to index", "arith.index_cast"),
    ("%r = sitofp %a : i32 to f32", "arith.sitofp"),
    ("%r = rank %T : tensor<?xf32>", "tensor.rank"),
    ("%r = \"xor\"(%a, %a) : (i32, i32) -> i32", "arith.xori"),
    ("%r = \"cmpf\"(%y, %y){predicate: 14} : (f32, f32) -> i1", "arith.cmpf"),
    ("%r = \"index_cast\"(%x) : (index) -> i32", "arith.index_cast"),
    ("%r = dim %M, 1 : memref<4x?xf32>", "memref.dim"),
    ("%r = dim %T, 0 : tensor<?xf32>", "tensor.dim"),
    ("%r = alloc(%x) : memref<?xf32>", "memref.alloc"),
    ("%r = alloc memref<?xf32, (d0) -> (d0), hbm> (%x)", "memref.alloc"),
    ("%r = alloc_static(0x1000) : memref<4xf32>", "memref.alloc"),
    ("dealloc %M : memref<4x?xf32>", "memref.dealloc"),
    ("%r = load %M[%x, %x] : memref<4x?xf32>", "memref.load"),
    ("store %y, %M[%x, %x] : memref<4x?xf32>", "memref.store"),
    ("%r = memref_cast %M : memref<4x?xf32> to memref<?x?xf32>", "memref.cast"),
    ("%r = tensor_cast %T : tensor<?xf32> to tensor<4xf32>", "tensor.cast"),
    ("%r = extract_element %T[%x] : tensor<?xf32>", "tensor.extract"),
    ("%r = extract_element %V[%x] : vector<4xf32>", "vector.extract"),
    ("%r = tensor_load %M : memref<4x?xf32>", "bufferization.to_tensor"),
    ("tensor_store %T2, %M : memref<4x?xf32>", "bufferization.materialize_in_destination"),
    ("%r = reshape %M : memref<4x?xf32> (%x, %x) : memref<?x2x?xf32>", "memref.reshape"),
    (
        "%t = alloc() : memref<1xi32>\n  dma_start %M[%x, %x], %M[%x, %x], %x, %t[%x] : memref<4x?xf32>, memref<4x?xf32>, memref<1xi32>",
        "memref.dma_start",
    ),
    ("%t = alloc() : memref<1xi32>\n  dma_wait %t[%x], %x : memref<1xi32>", "memref.dma_wait"),
    ("br ^bb1(%a: i32)\n^bb1(%b: i32):", "cf.br"),
    ("cond_br %c, ^bb1, ^bb1\n^bb1:", "cf.cond_br"),
    ("%r = \"remiu\"(%a, %a) : (i32, i32) -> i32", "arith.remui"),
    ("%r = \"cmpi\"(%a, %a){predicate: 9} : (i32, i32) -> i1", "arith.cmpi"),
    ("br_cond %c, ^bb1, ^bb1\n^bb1:", "cf.cond_br"),
    ("%r = view memref<2x?xf32, (i, j)[s0] -> (i + s0, j)> (%x) [%x] %M : memref<4x?xf32>", "memref.reinterpret_cast"),
];

#[test]
fn each_2019_op_becomes_the_op_of_today_with_its_meaning() {
    let limits = mlir_ir::Limits::default();
    let mut printed_all = Vec::new();
    for (body, modern) in MAPPING {
        let text = format!(
            "func @f(index)\nfunc @g(%x: index, %a: i32, %y: f32, %c: i1, %M: memref<4x?xf32>, %T: tensor<?xf32>, \
             %T2: tensor<4x?xf32>, %V: vector<4xf32>) {{\n  {body}\n  return\n}}\n"
        );
        let src = mlir_ir::diag::Source::new("map.mlir", text.as_str());
        let m = mlir_ir::parse_and_verify_lang(&src, &limits, mlir_ir::Lang::Y2019)
            .unwrap_or_else(|d| panic!("{}\n{text}", d.render(&src)));
        let printed = mlir_ir::printer::GenericPrinter::new(&m).print();
        assert!(printed.contains(&format!("\"{modern}\"")), "{body} should become {modern}:\n{printed}");
        printed_all.push((body, printed));
    }
    if !toolchain() {
        return;
    }
    for (body, printed) in printed_all {
        let path = std::env::temp_dir().join(format!("lang2019-map-{}.mlir", std::process::id()));
        std::fs::write(&path, &printed).unwrap();
        let opt = Command::new(MLIR_OPT).arg(&path).args(["-o", "/dev/null"]).output().unwrap();
        let _ = std::fs::remove_file(&path);
        assert!(
            opt.status.success(),
            "mlir-opt 22 rejects the modern form of {body}:\n{}",
            String::from_utf8_lossy(&opt.stderr)
        );
    }
}

/// `diff` runs a 2019 program here and its modern form in LLVM.
#[test]
fn diff_compares_a_2019_program_with_llvm() {
    if !toolchain() {
        return;
    }
    let f = root().join("fixtures/lang2019/cfg_branches.mlir");
    let out = interp(&["diff", f.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.starts_with("same output: 8 line(s)"), "{stdout}");
}

/// A `view` is "only defined when its index map maps to a range that is
/// contained in the base memref's index space": one that reaches outside
/// fails at the view's line, here and (as an abort) in LLVM; a map that is
/// not linear in the view's indices is a diagnostic at the view's type.
#[test]
fn a_view_outside_its_source_fails_at_the_view() {
    let text = "#w = (i, j)[s0] -> (i + s0, j)\nfunc @main() {\n  %A = alloc() : memref<4x6xf32>\n  %r = constant 3 : index\n  \
                %W = view memref<2x6xf32, #w> () [%r] %A : memref<4x6xf32>\n  dealloc %A : memref<4x6xf32>\n  return\n}\n";
    let path = std::env::temp_dir().join(format!("lang2019-view-{}.mlir", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let out = interp(&["run", path.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(".mlir:5:8: error: assertion failed: 2019 'view': its index map reaches outside"),
        "{stderr}"
    );
    let fits = text.replace("constant 3", "constant 2");
    std::fs::write(&path, &fits).unwrap();
    let ok = interp(&["run", path.to_str().unwrap()]);
    assert_eq!(ok.status.code(), Some(0), "{}", String::from_utf8_lossy(&ok.stderr));
    let floordiv = text.replace("(i + s0, j)", "(i floordiv 2 + s0, j)");
    std::fs::write(&path, &floordiv).unwrap();
    let bad = interp(&["run", path.to_str().unwrap()]);
    let bad_err = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{bad_err}");
    assert!(bad_err.contains(".mlir:5:13: error: a view's index map must be linear in its dimensions"), "{bad_err}");
    if toolchain() {
        std::fs::write(&path, text).unwrap();
        let printed = interp(&["print", "--lang", "2019", "--generic", path.to_str().unwrap()]);
        std::fs::write(&path, &printed.stdout).unwrap();
        let tc = differential::Toolchain::default();
        let r = differential::run_reference(
            &tc,
            &path,
            differential::ORACLE_PIPELINE,
            "main",
            EntryResult::Void,
            std::time::Duration::from_secs(120),
        )
        .expect("mlir-opt lowers the modern form");
        assert_ne!(r.status, 0, "mlir-runner should abort at the view's assertion: {}", r.stdout);
    }
    let _ = std::fs::remove_file(&path);
}
