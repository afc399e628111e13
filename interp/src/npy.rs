//! NumPy `.npy` files (format versions 1 to 3) as dense values and back.
//! Values are already little-endian lanes (`crate::lane`), so an array of
//! a matching dtype is its bytes: `<f4` is f32, `<c8` `complex<f32>`, `|b1`
//! i1; formats NumPy lacks travel as their raw bits (bf16 as `<u2` or
//! ml_dtypes' 2-byte void, fp8/fp6/fp4 as `|u1` or 1-byte void).
//! `ndarray-npy` was the candidate crate: it reads only its own element
//! types into typed arrays (no f16, bf16 or fp8, no void dtypes), where
//! these values want the bytes as they are.

use crate::dense::Dense;
use crate::float::FloatKind;
use crate::lane::Lane;

/// The dtypes (`descr` strings) that hold `lane` as its raw encoding.
fn descrs(lane: Lane) -> Result<Vec<&'static str>, String> {
    let raw = |n: usize| match n {
        // ml_dtypes saves float8_e5m2 as `<f1`, a descr NumPy itself
        // cannot read; its other small floats as 1-byte voids.
        1 => vec!["|u1", "|V1", "<V1", "<f1", "|f1"],
        2 => vec!["<u2", "|V2", "<V2"],
        _ => vec![],
    };
    Ok(match lane {
        Lane::Int(1) => vec!["|b1"],
        Lane::Int(8) => vec!["|i1", "|u1"],
        Lane::Int(16) => vec!["<i2", "<u2"],
        Lane::Int(32) => vec!["<i4", "<u4"],
        Lane::Int(64) => vec!["<i8", "<u8"],
        Lane::Float(FloatKind::F16) => vec!["<f2"],
        Lane::Float(FloatKind::F32) => vec!["<f4"],
        Lane::Float(FloatKind::F64) => vec!["<f8"],
        Lane::Complex(FloatKind::F32) => vec!["<c8"],
        Lane::Complex(FloatKind::F64) => vec!["<c16"],
        Lane::Float(k) if k.bit_width() <= 16 => raw(lane.bytes()),
        _ => vec![],
    })
    .and_then(|d| if d.is_empty() { Err(format!("no .npy dtype holds {lane:?} elements")) } else { Ok(d) })
}

/// The dtype a value of `lane` is written with: an integer's unsigned
/// one when `unsigned` (a `uiN` value).
fn descr_for(lane: Lane, unsigned: bool) -> Result<&'static str, String> {
    let d = descrs(lane)?;
    Ok(match lane {
        Lane::Int(8 | 16 | 32 | 64) if unsigned => d[1],
        _ => d[0],
    })
}

/// The value of the `.npy` file `bytes` with elements of `lane`; its
/// shape is the file's.
pub fn read(bytes: &[u8], lane: Lane) -> Result<Dense, String> {
    let rest = bytes.strip_prefix(b"\x93NUMPY").ok_or("not a .npy file (no \\x93NUMPY magic)")?;
    let (major, rest) = (rest.first().copied(), rest.get(2..).ok_or("truncated .npy header")?);
    // The header length: 2 bytes in version 1, 4 after.
    let width = match major {
        Some(1) => 2,
        Some(2 | 3) => 4,
        Some(v) => return Err(format!("unsupported .npy version {v}")),
        None => return Err("truncated .npy header".into()),
    };
    let len_bytes = rest.get(..width).ok_or("truncated .npy header")?;
    let len = len_bytes.iter().rev().fold(0usize, |a, b| a << 8 | *b as usize);
    let rest = &rest[width..];
    let header = std::str::from_utf8(rest.get(..len).ok_or("truncated .npy header")?).map_err(|_| "bad .npy header")?;
    let data = &rest[len..];
    let descr = field(header, "descr").ok_or("the .npy header has no descr")?;
    let descr = descr.trim_matches(['\'', '"']);
    let want = descrs(lane)?;
    if !want.contains(&descr) {
        return Err(format!("the .npy dtype '{descr}' does not hold these elements (expected {})", want.join(" or ")));
    }
    let fortran = field(header, "fortran_order").ok_or("the .npy header has no fortran_order")? == "True";
    let shape = shape_of(&field(header, "shape").ok_or("the .npy header has no shape")?)?;
    let n = shape.iter().try_fold(1usize, |a, d| a.checked_mul(*d)).ok_or("the .npy shape overflows")?;
    let size = n.checked_mul(lane.bytes()).ok_or("the .npy shape overflows")?;
    let body = data.get(..size).ok_or_else(|| format!("the .npy data is shorter than its shape {shape:?} needs"))?;
    if lane == Lane::Int(1) && body.iter().any(|b| *b > 1) {
        return Err("a bool .npy element is neither 0 nor 1".into());
    }
    if !fortran {
        return Dense::from_le_bytes(&shape, lane, body.to_vec()).map_err(|e| format!("{e:?}"));
    }
    // Column-major: the reversed shape in row-major order, transposed back.
    let rev: Vec<usize> = shape.iter().rev().copied().collect();
    let perm: Vec<usize> = (0..shape.len()).rev().collect();
    let d = Dense::from_le_bytes(&rev, lane, body.to_vec()).map_err(|e| format!("{e:?}"))?;
    d.transpose(&perm).map_err(|e| format!("{e:?}"))
}

/// The text of `key`'s value in a header dict (`{'descr': '<f4', ...}`).
fn field(header: &str, key: &str) -> Option<String> {
    let at = header.find(&format!("'{key}'"))? + key.len() + 2;
    let rest = header[at..].trim_start().strip_prefix(':')?.trim_start();
    let end = if rest.starts_with('(') { rest.find(')')? + 1 } else { rest.find([',', '}'])? };
    Some(rest[..end].trim().to_string())
}

/// `(2, 3)`, `(4,)` or `()` as dims.
fn shape_of(text: &str) -> Result<Vec<usize>, String> {
    let inner = text.trim().strip_prefix('(').and_then(|r| r.strip_suffix(')')).ok_or("bad .npy shape")?;
    inner
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<usize>().map_err(|_| format!("bad .npy dimension '{s}'")))
        .collect()
}

/// `d` as a version 1.0 `.npy` file, integers with an unsigned dtype
/// when `unsigned` (`|u1` for `ui8`); a value with poison elements has no
/// file form.
pub fn write(d: &Dense, unsigned: bool) -> Result<Vec<u8>, String> {
    if let Some(p) = d.first_poison() {
        return Err(format!("it has poison elements (made by op #{})", p.0 .0));
    }
    let dims: Vec<String> = d.shape().iter().map(|x| x.to_string()).collect();
    let shape = match dims.len() {
        1 => format!("({},)", dims[0]),
        _ => format!("({})", dims.join(", ")),
    };
    // i48 (TOSA's accumulator type) has no dtype; ARM's TOSA reference
    // model writes it as int64, sign-extended, and so is it written here.
    let (descr, body) = if d.lane() == Lane::Int(48) {
        let wide = d.bytes().chunks(6).flat_map(|c| {
            let fill = if c[5] & 0x80 != 0 { 0xff } else { 0 };
            c.iter().copied().chain([fill, fill])
        });
        ("<i8", std::borrow::Cow::Owned(wide.collect()))
    } else {
        (descr_for(d.lane(), unsigned)?, std::borrow::Cow::Borrowed(d.bytes()))
    };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    // Magic, version and length take 10 bytes; the total is a multiple of 64.
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(&body);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scalar::Scalar;

    /// A file as NumPy writes it for `np.array([[1, 2, 3], [4, 5, 6]],
    /// dtype='<i4')` (or its column-major twin, `order`/`shape` given):
    /// magic, version 1.0, header padded with spaces and a newline to a
    /// multiple of 64 bytes, then the little-endian elements 1..6 in file order.
    fn npy_i32(fortran: &str, shape: &str) -> Vec<u8> {
        let mut h = format!("{{'descr': '<i4', 'fortran_order': {fortran}, 'shape': {shape}, }}");
        while (10 + h.len() + 1) % 64 != 0 {
            h.push(' ');
        }
        h.push('\n');
        let mut f = b"\x93NUMPY\x01\x00".to_vec();
        f.extend_from_slice(&(h.len() as u16).to_le_bytes());
        f.extend_from_slice(h.as_bytes());
        for x in 1i32..=6 {
            f.extend_from_slice(&x.to_le_bytes());
        }
        f
    }

    fn numpy_i32() -> Vec<u8> {
        npy_i32("False", "(2, 3)")
    }

    #[test]
    fn reads_and_writes_numpy_layout() {
        let d = read(&numpy_i32(), Lane::Int(32)).unwrap();
        assert_eq!(d.shape(), &[2, 3]);
        assert_eq!(d.get(4), Scalar::Int(crate::scalar::Int::from_i128(32, 5)));
        assert_eq!(write(&d, false).unwrap(), numpy_i32());
    }

    #[test]
    fn i48_is_written_as_sign_extended_int64() {
        let elems = [-2i128, 1 << 40].map(|v| Scalar::Int(crate::scalar::Int::from_i128(48, v)));
        let d = Dense::new(&[2], &elems, Some(Lane::Int(48))).unwrap();
        let f = write(&d, false).unwrap();
        assert!(String::from_utf8_lossy(&f[10..74]).contains("'descr': '<i8'"));
        let body: Vec<i64> = f[f.len() - 16..].chunks(8).map(|c| i64::from_le_bytes(c.try_into().unwrap())).collect();
        assert_eq!(body, [-2, 1 << 40]);
    }

    #[test]
    fn fortran_order_is_transposed() {
        let d = read(&npy_i32("True", "(3, 2)"), Lane::Int(32)).unwrap();
        // Column-major (3, 2) data 1..6: column 0 is 1, 2, 3.
        assert_eq!(d.shape(), &[3, 2]);
        let col0: Vec<_> = [0, 2, 4].iter().map(|i| d.get(*i)).collect();
        assert_eq!(col0, [1, 2, 3].map(|x| Scalar::Int(crate::scalar::Int::from_i128(32, x))));
    }

    #[test]
    fn refusals() {
        assert!(read(b"PK\x03\x04", Lane::Int(32)).unwrap_err().contains("magic"));
        assert!(read(&numpy_i32(), Lane::Float(FloatKind::F32)).unwrap_err().contains("'<i4' does not hold"));
        let whole = numpy_i32();
        let short = &whole[..whole.len() - 8];
        let e = read(short, Lane::Int(32)).unwrap_err();
        assert!(e.contains("shorter"), "{e}");
        assert!(descr_for(Lane::Int(17), false).is_err());
        // Cut inside the magic, the version or the header length: said so.
        for cut in [4, 7, 8, 9, 11] {
            let e = read(&whole[..cut], Lane::Int(32)).unwrap_err();
            assert!(e.contains("magic") || e.contains("truncated"), "{cut}: {e}");
        }
    }
}
