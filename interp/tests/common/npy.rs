//! `.npy` results compared the way ARM's reference model's compliance
//! check allows: same dtype, shape and bytes, any NaN equal to any NaN
//! (the spec fixes no payload), and f32 within a tolerance where the spec
//! bounds an operator's error instead of fixing it.

use std::path::Path;

/// A parsed `.npy`: its dtype, shape and data bytes.
#[derive(Debug)]
pub struct Npy {
    /// The dtype, as `descr` spells it (`<f4`, `|u1`, `<V2`).
    pub descr: String,
    /// The shape tuple's text.
    pub shape: String,
    /// The element bytes.
    pub data: Vec<u8>,
}

fn field(header: &str, key: &str) -> String {
    let at = header.find(&format!("'{key}'")).unwrap_or_else(|| panic!("no {key} in {header}"));
    let rest = header[at + key.len() + 2..].trim_start().trim_start_matches(':').trim_start();
    let end = if rest.starts_with('(') { rest.find(')').map(|i| i + 1) } else { rest.find(',') };
    rest[..end.unwrap_or(rest.len())].trim_matches(['\'', ' ']).to_owned()
}

/// Reads the `.npy` file at `p`; panics when it is not one.
pub fn read_npy(p: &Path) -> Npy {
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

/// `compare_within` with no tolerance.
pub fn compare(ours: &Npy, theirs: &Npy) -> Result<(), String> {
    compare_within(ours, theirs, 0.0)
}

/// `compare`, where f32 elements may differ by at most `tol`.
pub fn compare_within(ours: &Npy, theirs: &Npy, tol: f32) -> Result<(), String> {
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
