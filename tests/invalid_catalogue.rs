//! The catalogue of malformed inputs (`fixtures/invalid/*.mlir`, format in
//! `fixtures/invalid/README.md`): `parse_and_verify` must reject every file,
//! at the line:col of its `// EXPECT:` line (mlir-opt 22's first diagnostic,
//! recorded by `tools/record_invalid.py`), with mlir-opt's message.
//!
//! Where we knowingly differ, a hand-written `// OURS:` line overrides the
//! expectation, preceded by a comment line giving the reason. Put both at the
//! *end* of the file, so that the recorded positions of the lines above stay
//! valid. Forms:
//!
//! ```text
//! // OURS: <message>              same position as EXPECT, our wording
//! // OURS: <line>:<col>: <message> our position and wording
//! // OURS: accept                 we accept the file on purpose
//! ```
//!
//! The test prints a per-file report and fails when fewer files pass than
//! [`MIN_PASSING`], a ratchet: raise it whenever the verifier improves.

mod common;

use mlir_ir::diag::Source;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Files that must pass (rejected at the expected place with the expected
/// message). Ratchet: set it to the current count whenever that grows.
const MIN_PASSING: usize = 638;

/// What a fixture expects.
#[derive(Debug, PartialEq)]
enum Expect {
    /// Rejected at `line:col` with `message`.
    Reject { line: usize, col: usize, message: String },
    /// Accepted on purpose (only through `// OURS: accept`).
    Accept,
}

/// What we did with a fixture.
enum Got {
    Accepted,
    Rejected { line: usize, col: usize, message: String },
    Panicked,
}

/// Decodes the `\xNN` escapes the recorder writes for control characters.
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && b.get(i + 1) == Some(&b'x') && i + 4 <= b.len() {
            if let Ok(v) = u8::from_str_radix(&s[i + 2..i + 4], 16) {
                out.push(v);
                i += 4;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Parses `L:C: message` (mlir-opt's first diagnostic without the file).
fn parse_pos_msg(s: &str) -> Option<(usize, usize, String)> {
    let mut it = s.splitn(3, ':');
    let line = it.next()?.trim().parse().ok()?;
    let col = it.next()?.trim().parse().ok()?;
    let msg = it.next()?.strip_prefix(' ').unwrap_or_default();
    Some((line, col, unescape(msg)))
}

/// The expectation of one fixture: its EXPECT line, overridden by OURS.
fn expectation(text: &str) -> Result<(Expect, bool), String> {
    let mut expect = None;
    let mut ours = None;
    for l in text.lines() {
        if let Some(rest) = l.strip_prefix("// EXPECT:") {
            expect = Some(rest.trim_start().to_owned());
        } else if let Some(rest) = l.strip_prefix("// OURS:") {
            ours = Some(rest.trim_start().to_owned());
        }
    }
    let expect = expect.ok_or("no `// EXPECT:` line")?;
    let (line, col, message) = parse_pos_msg(&expect).ok_or_else(|| format!("malformed EXPECT line {expect:?}"))?;
    let Some(ours) = ours else { return Ok((Expect::Reject { line, col, message }, false)) };
    if ours == "accept" {
        return Ok((Expect::Accept, true));
    }
    if let Some((l, c, m)) = parse_pos_msg(&ours) {
        return Ok((Expect::Reject { line: l, col: c, message: m }, true));
    }
    Ok((Expect::Reject { line, col, message: unescape(&ours) }, true))
}

fn run(name: &str, text: &str) -> Got {
    let src = Source::new(name, text);
    match catch_unwind(AssertUnwindSafe(|| mlir_ir::parse_and_verify(&src).map(|_| ()))) {
        Ok(Ok(())) => Got::Accepted,
        Ok(Err(d)) => {
            let (line, col) = src.line_col(d.span.start.min(text.len() as u32));
            Got::Rejected { line, col, message: d.message }
        }
        Err(_) => Got::Panicked,
    }
}

fn show_expect(e: &Expect) -> String {
    match e {
        Expect::Accept => "accept".to_owned(),
        Expect::Reject { line, col, message } => format!("{line}:{col}: {message:?}"),
    }
}

fn show_got(g: &Got) -> String {
    match g {
        Got::Accepted => "accepted".to_owned(),
        Got::Panicked => "PANIC".to_owned(),
        Got::Rejected { line, col, message } => format!("{line}:{col}: {message:?}"),
    }
}

#[test]
fn invalid_catalogue_matches_mlir_opt() {
    let files = common::fixtures("invalid");
    assert!(files.len() >= 40, "the catalogue needs at least 40 malformed inputs, found {}", files.len());
    let (mut pass, mut pos_only, mut msg_only, mut both, mut accepted, mut panics, mut overridden) =
        (0, 0, 0, 0, 0, 0, 0);
    let mut report = Vec::new();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let text = String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned();
        let (exp, has_ours) = expectation(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        overridden += has_ours as usize;
        let got = run(&name, &text);
        let verdict = match (&exp, &got) {
            (Expect::Accept, Got::Accepted) => "ok",
            (_, Got::Panicked) => {
                panics += 1;
                "PANIC"
            }
            (Expect::Reject { .. }, Got::Accepted) => {
                accepted += 1;
                "ACCEPTED"
            }
            (Expect::Accept, Got::Rejected { .. }) => {
                both += 1;
                "REJECTED"
            }
            (Expect::Reject { line, col, message }, Got::Rejected { line: l, col: c, message: m }) => {
                match ((line, col) == (l, c), message == m) {
                    (true, true) => "ok",
                    (true, false) => {
                        pos_only += 1;
                        "message"
                    }
                    (false, true) => {
                        msg_only += 1;
                        "position"
                    }
                    (false, false) => {
                        both += 1;
                        "both"
                    }
                }
            }
        };
        if verdict == "ok" {
            pass += 1;
        } else {
            report.push(format!(
                "{name}  [{verdict}]\n    expected {}{}\n    got      {}",
                show_expect(&exp),
                if has_ours { "  (OURS)" } else { "" },
                show_got(&got)
            ));
        }
    }
    for r in &report {
        println!("{r}");
    }
    println!(
        "\ninvalid catalogue: {pass}/{} pass (threshold {MIN_PASSING}); failing: {} accepted, {} panicked, \
         {pos_only} right position/wrong message, {msg_only} right message/wrong position, {both} both wrong; \
         {overridden} with an OURS override",
        files.len(),
        accepted,
        panics,
    );
    assert_eq!(panics, 0, "parse_and_verify panicked on {panics} malformed input(s)");
    assert!(pass >= MIN_PASSING, "only {pass} invalid fixtures pass, below the ratchet MIN_PASSING = {MIN_PASSING}");
    if pass > MIN_PASSING {
        println!("note: {pass} pass; raise MIN_PASSING in tests/invalid_catalogue.rs to {pass}");
    }
}

#[test]
fn expectation_lines_parse() {
    let (e, _) = expectation("// x\n// EXPECT: 4:9: expected 1 operand type\\x00 but had 0\n").unwrap();
    assert_eq!(e, Expect::Reject { line: 4, col: 9, message: "expected 1 operand type\0 but had 0".to_owned() });
    let (e, o) = expectation("// EXPECT: 1:2: a: b\nx\n// why\n// OURS: ours: c\n").unwrap();
    assert!(o);
    assert_eq!(e, Expect::Reject { line: 1, col: 2, message: "ours: c".to_owned() });
    let (e, _) = expectation("// EXPECT: 1:2: a\n// OURS: 3:4: b\n").unwrap();
    assert_eq!(e, Expect::Reject { line: 3, col: 4, message: "b".to_owned() });
    let (e, _) = expectation("// EXPECT: 1:2: a\n// OURS: accept\n").unwrap();
    assert_eq!(e, Expect::Accept);
}
