//! Verified IR never reaches an engine invariant. Each program of
//! `fixtures/mutants/` (mlir-opt's generic form of an execution fixture,
//! every inherent attribute in a `<{...}>` property dictionary) is mutated
//! one property at a time: the property dropped, or replaced by an attribute
//! of each other kind. A mutant the parser and verifier accept must run to
//! an end that is not an internal error (output, undefined behaviour, a
//! limit, an unsupported op); a rejected one must be rejected by a
//! diagnostic. Found by this campaign (run against mlir-opt 22): property
//! conversion, required attributes, `operandSegmentSizes` totals and the
//! checks of affine.for, affine.parallel, scf.forall, llvm.call and the
//! globals, which before let ~4,000 such mutants reach an internal error.

use mlir_interp::{ErrorClass, Interpreter, Program};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// What replaces a property: one attribute of each kind the properties of
/// the programs take, so each is wrong for most of them.
const REPLACEMENTS: [&str; 7] =
    ["\"zz\"", "7 : i64", "[]", "[[0, 1], 5]", "unit", "array<i64>", "affine_map<(d0) -> (d0)>"];

/// The byte ranges of the insides of the `<{...}>` dictionaries of `text`.
fn property_dicts(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(k) = text[at..].find("<{") {
        let start = at + k + 2;
        let (mut depth, mut i, mut quoted) = (1usize, start, false);
        while i < b.len() && depth > 0 {
            match b[i] {
                b'\\' if quoted => i += 1,
                b'"' => quoted = !quoted,
                b'{' if !quoted => depth += 1,
                b'}' if !quoted => depth -= 1,
                _ => {}
            }
            i += 1;
        }
        out.push((start, i - 1));
        at = i;
    }
    out
}

/// The entries of a dictionary's inside, split at its top-level commas.
fn entries(s: &str) -> Vec<&str> {
    let (mut out, mut depth, mut quoted, mut from) = (Vec::new(), 0i32, false, 0);
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' if quoted => i += 1,
            b'"' => quoted = !quoted,
            b'[' | b'{' | b'(' | b'<' if !quoted => depth += 1,
            // `->` inside a map or a function type closes nothing.
            b'>' if !quoted && i > 0 && b[i - 1] == b'-' => {}
            b']' | b'}' | b')' | b'>' if !quoted => depth -= 1,
            b',' if !quoted && depth == 0 => {
                out.push(s[from..i].trim());
                from = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if !s[from..].trim().is_empty() {
        out.push(s[from..].trim());
    }
    out
}

/// Every mutant of `text`: (what changed, the mutated program).
fn mutants(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (a, b) in property_dicts(text) {
        let es = entries(&text[a..b]);
        for (n, e) in es.iter().enumerate() {
            let Some((name, _)) = e.split_once(" = ") else { continue };
            let with = |replacement: Option<&str>| {
                let mut v: Vec<String> = es.iter().map(|x| x.to_string()).collect();
                match replacement {
                    Some(r) => v[n] = format!("{name} = {r}"),
                    None => {
                        v.remove(n);
                    }
                }
                format!("{}{}{}", &text[..a], v.join(", "), &text[b..])
            };
            out.push((format!("{name} dropped at byte {a}"), with(None)));
            for r in REPLACEMENTS {
                out.push((format!("{name} = {r} at byte {a}"), with(Some(r))));
            }
        }
    }
    out
}

/// How a mutant ended, if it broke the invariant (`None`: it did not).
fn broken(text: &str) -> Option<String> {
    let run = || -> Option<String> {
        let p = Program::parse("mutant.mlir", text).ok()?;
        let mut cfg = Interpreter::default_config();
        cfg.max_steps = Some(200_000);
        cfg.max_memory = 64 << 20;
        let mut i = Interpreter::with_config(&p, cfg).ok()?;
        i.print_to(Box::new(std::io::sink()));
        match i.call("main", vec![]) {
            Err(e) if e.class == ErrorClass::Internal => Some(e.diagnostic),
            _ => None,
        }
    };
    match catch_unwind(AssertUnwindSafe(run)) {
        Ok(r) => r,
        Err(p) => Some(format!(
            "panicked: {}",
            p.downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default()
        )),
    }
}

#[test]
fn no_mutant_reaches_an_engine_invariant() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/mutants");
    let mut files: Vec<_> = std::fs::read_dir(&dir).expect("fixtures/mutants").map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 20, "fixtures/mutants holds {} programs", files.len());
    let (mut total, mut failures) = (0, Vec::new());
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        // The unmutated program runs (to its printed output).
        assert_eq!(broken(&text), None, "{}", f.display());
        for (what, m) in mutants(&text) {
            total += 1;
            if let Some(how) = broken(&m) {
                failures.push(format!("{}: {what}: {how}", f.display()));
            }
        }
    }
    assert!(total > 3000, "only {total} mutants");
    assert!(failures.is_empty(), "{} of {total} mutants broke an invariant:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn mutants_cover_each_property() {
    let text = r#""arith.cmpi"(%a, %b) <{predicate = 2 : i64}> : (i32, i32) -> i1 "x"() <{m = affine_map<(d0) -> (d0, 1)>, n = [1, [2]]}> : () -> ()"#;
    let ms = mutants(text);
    assert_eq!(ms.len(), 3 * (1 + REPLACEMENTS.len()));
    assert!(ms.iter().any(|(_, m)| m.contains("<{}>")));
    assert!(ms.iter().any(|(_, m)| m.contains(r#"<{m = "zz", n = [1, [2]]}>"#)));
    assert!(ms.iter().any(|(_, m)| m.contains("<{m = affine_map<(d0) -> (d0, 1)>, n = unit}>")));
}
