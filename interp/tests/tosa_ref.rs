//! tosa fixtures against ARM's TOSA reference model: every
//! `fixtures/tosa/X.mlir` runs through the built `mlir-interp` (`run --out`)
//! and each result must equal `X.mlir.ref/result_N.npy`, which
//! `tools/record_tosa.sh` recorded from the reference model (never from us).
//! Shapes, dtypes and bytes must match; a float NaN matches any NaN, as the
//! reference model's compliance check allows (the spec fixes no payload).
//! The fixtures hold operators the spec defines exactly (integer ones, and
//! float ones rounded once to nearest even); a fixture of operators whose
//! error the spec bounds instead (fft2d) says `// TOLERANCE: X`, and its
//! f32 results may differ by at most X. A fixture of the elementwise
//! operators the spec bounds (exp, log, sin, ...) says `// BOUND: R =
//! op(I[, J])` for each such result R computed from results I (and J): each
//! element of R, ours and the reference model's alike, must meet the
//! operator's Precision Requirements against the fp64 value
//! (`common/tosa_bound.rs`), and equal the reference model's where an input
//! is an infinity, a NaN or a zero (the spec's behaviour tables fix those).

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "common/npy.rs"]
mod npy;
use npy::{compare, compare_within, read_npy, Npy};

#[path = "common/tosa_bound.rs"]
mod bound;
use bound::{bounds, check_bound};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn tosa_fixtures_match_the_reference_model() {
    let dir = root().join("fixtures/tosa");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixtures/tosa")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no tosa fixtures");
    let mut failures = Vec::new();
    for f in &files {
        let refs = PathBuf::from(format!("{}.ref", f.display()));
        let out = tempdir(f);
        let run = Command::new(env!("CARGO_BIN_EXE_mlir-interp"))
            .arg("run")
            .arg(f)
            .arg("--out")
            .arg(&out)
            .output()
            .expect("run mlir-interp");
        if !run.status.success() {
            failures.push(format!(
                "{}: exit {:?}: {}",
                f.display(),
                run.status.code(),
                String::from_utf8_lossy(&run.stderr)
            ));
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let tol = text
            .lines()
            .find_map(|l| l.strip_prefix("// TOLERANCE:"))
            .map_or(0.0, |t| t.trim().parse::<f32>().unwrap_or_else(|_| panic!("{}: bad TOLERANCE line", f.display())));
        let bounded = bounds(&text);
        let mut n = 0;
        while refs.join(format!("result_{n}.npy")).exists() {
            let theirs = read_npy(&refs.join(format!("result_{n}.npy")));
            let ours = read_npy(&out.join(format!("result{n}.npy")));
            let verdict = match bounded.iter().find(|b| b.r == n) {
                Some(b) => {
                    let ins: Vec<Npy> = b.args.iter().map(|a| read_npy(&out.join(format!("result{a}.npy")))).collect();
                    check_bound(b, &ours, &theirs, &ins)
                }
                None => compare_within(&ours, &theirs, tol),
            };
            if let Err(msg) = verdict {
                failures.push(format!("{} result {n}: {msg}", f.display()));
            }
            n += 1;
        }
        if n == 0 {
            failures.push(format!(
                "{}: no recorded results in {} (run tools/record_tosa.sh)",
                f.display(),
                refs.display()
            ));
        }
        let _ = std::fs::remove_dir_all(&out);
    }
    assert!(
        failures.is_empty(),
        "{} of {} tosa fixtures differ:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

fn tempdir(f: &Path) -> PathBuf {
    let name = f.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let d = std::env::temp_dir().join(format!("tosa_ref_{}_{name}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

#[test]
fn the_comparison_can_fail() {
    let a = Npy { descr: "<f4".into(), shape: "(1,)".into(), data: 1.0f32.to_le_bytes().to_vec() };
    let b = Npy { descr: "<f4".into(), shape: "(1,)".into(), data: 1.5f32.to_le_bytes().to_vec() };
    assert!(compare(&a, &b).is_err());
    let n1 = Npy { descr: "<f4".into(), shape: "(1,)".into(), data: f32::NAN.to_le_bytes().to_vec() };
    let n2 = Npy { descr: "<f4".into(), shape: "(1,)".into(), data: (-f32::NAN).to_le_bytes().to_vec() };
    assert!(compare(&n1, &n2).is_ok());
    let i = Npy { descr: "<i4".into(), shape: "(1,)".into(), data: 1i32.to_le_bytes().to_vec() };
    assert!(compare(&a, &i).is_err());
    // bf16 (ours `<u2`, the reference model's `<V2`): any NaN for any NaN,
    // but infinities of both signs differ.
    let bf = |d: &str, v: u16| Npy { descr: d.into(), shape: "(1,)".into(), data: v.to_le_bytes().to_vec() };
    assert!(compare(&bf("<u2", 0x7FC0), &bf("<V2", 0xFFC0)).is_ok());
    assert!(compare(&bf("<u2", 0x7F80), &bf("<V2", 0xFF80)).is_err());
    // A tolerance admits what is within it, and only f32 values.
    assert!(compare_within(&a, &b, 0.5).is_ok());
    assert!(compare_within(&a, &b, 0.25).is_err());
    let j = Npy { descr: "<i4".into(), shape: "(1,)".into(), data: 2i32.to_le_bytes().to_vec() };
    assert!(compare_within(&i, &j, 5.0).is_err());
    // The reference model packs fp4 two to a byte and fp6 four to three.
    let ours = Npy { descr: "|u1".into(), shape: "(1, 4)".into(), data: vec![0x1, 0x2, 0x3, 0xF] };
    let fp4 = Npy { descr: "|V1".into(), shape: "(1, 2)".into(), data: vec![0x21, 0xF3] };
    assert!(compare(&ours, &fp4).is_ok());
    let fp4_bad = Npy { descr: "|V1".into(), shape: "(1, 2)".into(), data: vec![0x12, 0xF3] };
    assert!(compare(&ours, &fp4_bad).is_err());
    let ours = Npy { descr: "|u1".into(), shape: "(1, 4)".into(), data: vec![0x1, 0x2, 0x3, 0x3F] };
    let w: u32 = 0x1 | 0x2 << 6 | 0x3 << 12 | 0x3F << 18;
    let fp6 = Npy { descr: "|V1".into(), shape: "(1, 3)".into(), data: w.to_le_bytes()[..3].to_vec() };
    assert!(compare(&ours, &fp6).is_ok());
}

/// mlir-opt lets `tosa.cast_from_block_scaled` produce any element type;
/// the specification's tables give f32 and bf16 only, so another is bad
/// input when it runs (exit 2), not a result to invent.
#[test]
fn block_scaled_types_the_spec_does_not_list_are_bad_input() {
    let text = r#"func.func @main() -> tensor<1x32xf16> {
  %a = "tosa.const"() <{values = dense<0x2> : tensor<1x32xf4E2M1FN>}> : () -> tensor<1x32xf4E2M1FN>
  %s = "tosa.const"() <{values = dense<0x7F> : tensor<1x1xf8E8M0FNU>}> : () -> tensor<1x1xf8E8M0FNU>
  %r = tosa.cast_from_block_scaled %a, %s {block_size = BLOCK_SIZE_32} : (tensor<1x32xf4E2M1FN>, tensor<1x1xf8E8M0FNU>) -> tensor<1x32xf16>
  return %r : tensor<1x32xf16>
}
"#;
    let f = std::env::temp_dir().join(format!("tosa_mx_bad_{}.mlir", std::process::id()));
    std::fs::write(&f, text).expect("write");
    let run = Command::new(env!("CARGO_BIN_EXE_mlir-interp")).arg("run").arg(&f).output().expect("run mlir-interp");
    let _ = std::fs::remove_file(&f);
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains("result #0 holds f16; the specification allows f32, bf16"), "{err}");
}

/// The spec's precision check admits a correctly rounded result and
/// rejects one well outside the bound.
#[test]
fn the_bound_can_fail() {
    use bound::{within, Fmt};
    let e = f64::from(1f32.exp());
    assert!(within(Fmt::F32, "exp", 1.0, 0.0, e));
    assert!(!within(Fmt::F32, "exp", 1.0, 0.0, e * (1.0 + 1e-5)));
    // rsqrt has two ulps: 1/sqrt(2) in f16 is 0.70703125 (ulp 2^-11).
    assert!(within(Fmt::F16, "rsqrt", 2.0, 0.0, 0.70703125 + 2f64.powi(-11)));
    assert!(!within(Fmt::F16, "rsqrt", 2.0, 0.0, 0.70703125 + 4.0 * 2f64.powi(-11)));
    // pow(x, 0) is exactly 1, pow(0, y > 0) exactly 0.
    assert!(within(Fmt::F32, "pow", 3.0, 0.0, 1.0));
    assert!(!within(Fmt::F32, "pow", 3.0, 0.0, 1.0 + f64::from(f32::EPSILON)));
    assert!(within(Fmt::BF16, "pow", 0.0, 2.0, 0.0));
    let lines = bounds("// BOUND: 3 = pow(1, 2)\n// BOUND: 4 = exp(0)\n");
    assert_eq!((lines[0].r, lines[0].op.as_str(), lines[0].args.clone()), (3, "pow", vec![1, 2]));
    assert_eq!((lines[1].r, lines[1].args.clone()), (4, vec![0]));
}
