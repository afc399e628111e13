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

/// True when element bytes `a` and `b` of float dtype `descr` are both NaN
/// (`theirs` is the reference model's dtype: its `<V2` beside our `<u2` is
/// bf16, which NumPy lacks).
fn both_nan(descr: &str, theirs: &str, a: &[u8], b: &[u8]) -> bool {
    let bf16 = descr == "<u2" && matches!(theirs, "<V2" | "|V2");
    let nan = |x: &[u8]| match descr {
        "<u2" if bf16 => {
            let v = u16::from_le_bytes([x[0], x[1]]);
            v & 0x7f80 == 0x7f80 && v & 0x7f != 0
        }
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

/// The dims of a shape tuple's text (`(16, 48)`, `(64,)`).
fn dims(shape: &str) -> Option<Vec<usize>> {
    shape.trim_matches(['(', ')']).split(',').map(str::trim).filter(|d| !d.is_empty()).map(|d| d.parse().ok()).collect()
}

/// `theirs` unpacked to one byte per element where the reference model
/// packed sub-byte floats into bytes and we did not: fp4 two to a byte
/// (low nibble first), fp6 four to three bytes (a little-endian 24-bit
/// group, first element in the low bits). Recognised by the shapes: one
/// byte dtypes, the same dims but a last one 1/2 or 3/4 of ours.
fn unpacked(ours: &Npy, theirs: &Npy) -> Option<Npy> {
    let byte = |d: &str| matches!(d, "|u1" | "|V1" | "<V1");
    let (o, t) = (dims(&ours.shape)?, dims(&theirs.shape)?);
    let (ol, tl) = (*o.last()?, *t.last()?);
    if !byte(&ours.descr) || !byte(&theirs.descr) || o.len() != t.len() || o[..o.len() - 1] != t[..t.len() - 1] {
        return None;
    }
    let data: Vec<u8> = if tl * 2 == ol {
        theirs.data.iter().flat_map(|b| [b & 0xF, b >> 4]).collect()
    } else if tl * 4 == ol * 3 {
        let group = |g: &[u8]| u32::from(g[0]) | u32::from(g[1]) << 8 | u32::from(g[2]) << 16;
        theirs.data.chunks_exact(3).flat_map(|g| (0..4).map(move |k| (group(g) >> (6 * k) & 0x3F) as u8)).collect()
    } else {
        return None;
    };
    Some(Npy { descr: ours.descr.clone(), shape: ours.shape.clone(), data })
}

/// `compare`, where f32 elements may differ by at most `tol`.
pub fn compare_within(ours: &Npy, theirs: &Npy, tol: f32) -> Result<(), String> {
    if let Some(t) = unpacked(ours, theirs) {
        return compare_within(ours, &t, tol);
    }
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
        if a != b && !both_nan(&ours.descr, &theirs.descr, a, b) && !close() {
            return Err(format!("element {k}: bytes {a:02x?} here, {b:02x?} in the reference"));
        }
    }
    Ok(())
}
