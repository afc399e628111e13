//! tosa fixtures against ARM's TOSA reference model: every
//! `fixtures/tosa/X.mlir` runs through the built `mlir-interp` (`run --out`)
//! and each result must equal `X.mlir.ref/result_N.npy`, which
//! `tools/record_tosa.sh` recorded from the reference model (never from us).
//! Shapes, dtypes and bytes must match; a float NaN matches any NaN, as the
//! reference model's compliance check allows (the spec fixes no payload).
//! The fixtures hold operators the spec defines exactly (integer ones, and
//! float ones rounded once to nearest even); a fixture of operators whose
//! error the spec bounds instead (fft2d) says `// TOLERANCE: X`, and its
//! f32 results may differ by at most X.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A parsed `.npy`: its dtype, shape and data bytes.
#[derive(Debug)]
struct Npy {
    descr: String,
    shape: String,
    data: Vec<u8>,
}

fn field(header: &str, key: &str) -> String {
    let at = header.find(&format!("'{key}'")).unwrap_or_else(|| panic!("no {key} in {header}"));
    let rest = header[at + key.len() + 2..].trim_start().trim_start_matches(':').trim_start();
    let end = if rest.starts_with('(') { rest.find(')').map(|i| i + 1) } else { rest.find(',') };
    rest[..end.unwrap_or(rest.len())].trim_matches(['\'', ' ']).to_owned()
}

fn read_npy(p: &Path) -> Npy {
    let b = std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    assert!(b.starts_with(b"\x93NUMPY"), "{} is not .npy", p.display());
    let (hl, start) = if b[6] == 1 {
        (u16::from_le_bytes([b[8], b[9]]) as usize, 10)
    } else {
        (u32::from_le_bytes([b[8], b[9], b[10], b[11]]) as usize, 12)
    };
    let header = String::from_utf8_lossy(&b[start..start + hl]).into_owned();
    Npy { descr: field(&header, "descr"), shape: field(&header, "shape"), data: b[start + hl..].to_vec() }
}

/// True when element bytes `a` and `b` of float dtype `descr` are both NaN.
fn both_nan(descr: &str, a: &[u8], b: &[u8]) -> bool {
    let nan = |x: &[u8]| match descr {
        "<f2" => {
            let v = u16::from_le_bytes([x[0], x[1]]);
            v & 0x7c00 == 0x7c00 && v & 0x3ff != 0
        }
        "<f4" => f32::from_le_bytes([x[0], x[1], x[2], x[3]]).is_nan(),
        "<f8" => f64::from_le_bytes(x.try_into().unwrap_or([0; 8])).is_nan(),
        _ => false,
    };
    nan(a) && nan(b)
}

/// True when dtypes `ours` and `theirs` hold the same encoding: equal, or
/// the raw bits of a format NumPy lacks (bf16, fp8), which we write as
/// `<u2`/`|u1` and the reference model as a void (`<V2`, `<V1`).
fn same_dtype(ours: &str, theirs: &str) -> bool {
    ours == theirs
        || (ours == "<u2" && matches!(theirs, "<V2" | "|V2"))
        || (ours == "|u1" && matches!(theirs, "<V1" | "|V1"))
}

fn compare(ours: &Npy, theirs: &Npy) -> Result<(), String> {
    compare_within(ours, theirs, 0.0)
}

/// `compare`, where f32 elements may differ by at most `tol`.
fn compare_within(ours: &Npy, theirs: &Npy, tol: f32) -> Result<(), String> {
    if !same_dtype(&ours.descr, &theirs.descr) || ours.shape != theirs.shape {
        return Err(format!(
            "dtype/shape {} {} here, {} {} in the reference",
            ours.descr, ours.shape, theirs.descr, theirs.shape
        ));
    }
    let size: usize = ours.descr.trim_start_matches(['<', '|', '>']).get(1..).and_then(|n| n.parse().ok()).unwrap_or(1);
    if ours.data.len() != theirs.data.len() {
        return Err(format!("{} data bytes here, {} in the reference", ours.data.len(), theirs.data.len()));
    }
    for (k, (a, b)) in ours.data.chunks(size).zip(theirs.data.chunks(size)).enumerate() {
        let close = || {
            let f = |x: &[u8]| f32::from_le_bytes([x[0], x[1], x[2], x[3]]);
            ours.descr == "<f4" && tol > 0.0 && (f(a) - f(b)).abs() <= tol
        };
        if a != b && !both_nan(&ours.descr, a, b) && !close() {
            return Err(format!("element {k}: bytes {a:02x?} here, {b:02x?} in the reference"));
        }
    }
    Ok(())
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
        let mut n = 0;
        while refs.join(format!("result_{n}.npy")).exists() {
            let theirs = read_npy(&refs.join(format!("result_{n}.npy")));
            let ours = read_npy(&out.join(format!("result{n}.npy")));
            if let Err(msg) = compare_within(&ours, &theirs, tol) {
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
    // A tolerance admits what is within it, and only f32 values.
    assert!(compare_within(&a, &b, 0.5).is_ok());
    assert!(compare_within(&a, &b, 0.25).is_err());
    let j = Npy { descr: "<i4".into(), shape: "(1,)".into(), data: 2i32.to_le_bytes().to_vec() };
    assert!(compare_within(&i, &j, 5.0).is_err());
}
