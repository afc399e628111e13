//! `--float-policy`: the conversions with no defined result (NaN/inf into
//! f4/f6, zero or negatives into f8E8M0FNU) stop the run under `strict`
//! (the default; `fixtures/ub/float_*.mlir` check the messages) and take
//! ml_dtypes' values under `saturate`. mlir-runner has no reference for
//! these (APFloat crashes), so the expected values are ml_dtypes 0.6's:
//! `np.array([nan, -nan, inf, -inf], np.float32).astype(float4_e2m1fn)` is
//! `[0x8, 0x0, 0x7, 0xF]`, and zero, negatives and NaN into
//! `float8_e8m0fnu` are `0xFF`.

use std::process::Command;

const PROGRAM: &str = r#"func.func @main() {
  %x = arith.constant dense<[0x7FC00000, 0xFFC00000, 0x7F800000, 0xFF800000, 7.0, 0.2]> : vector<6xf32>
  %t = arith.truncf %x : vector<6xf32> to vector<6xf4E2M1FN>
  %b = arith.bitcast %t : vector<6xf4E2M1FN> to vector<6xi4>
  %w = arith.extui %b : vector<6xi4> to vector<6xi8>
  vector.print %w : vector<6xi8>
  %y = arith.constant dense<[0.0, -2.0, 4.0]> : vector<3xf32>
  %e = arith.truncf %y : vector<3xf32> to vector<3xf8E8M0FNU>
  %eb = arith.bitcast %e : vector<3xf8E8M0FNU> to vector<3xi8>
  %ew = arith.extui %eb : vector<3xi8> to vector<3xi16>
  vector.print %ew : vector<3xi16>
  %z = arith.constant 0 : i8
  %s = arith.sitofp %z : i8 to f8E8M0FNU
  %sb = arith.bitcast %s : f8E8M0FNU to i8
  %sw = arith.extui %sb : i8 to i16
  vector.print %sw : i16
  %c = arith.constant -0.5 : f8E8M0FNU
  %cb = arith.bitcast %c : f8E8M0FNU to i8
  %cw = arith.extui %cb : i8 to i16
  vector.print %cw : i16
  %l = arith.constant -1.0 : f4E2M1FN
  %g = math.log %l : f4E2M1FN
  %gb = arith.bitcast %g : f4E2M1FN to i4
  %gw = arith.extui %gb : i4 to i8
  vector.print %gw : i8
  return
}
"#;

fn run(policy: Option<&str>) -> std::process::Output {
    // One directory per call: the tests run in parallel threads of one process.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("mlir-interp-policy-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("p.mlir");
    std::fs::write(&file, PROGRAM).expect("write program");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mlir-interp"));
    cmd.arg("run");
    if let Some(p) = policy {
        cmd.args(["--float-policy", p]);
    }
    let out = cmd.arg(&file).output().expect("run mlir-interp");
    let _ = std::fs::remove_dir_all(&dir);
    out
}

#[test]
fn float_policy_strict_reports() {
    for policy in [None, Some("strict")] {
        let out = run(policy);
        assert_eq!(out.status.code(), Some(1), "{policy:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("no defined result: nan has no encoding in f4E2M1FN"), "{err}");
    }
}

#[test]
fn float_policy_saturate_maps_like_ml_dtypes() {
    let out = run(Some("saturate"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    // f4: +NaN -> -0 (8), -NaN -> +0, inf -> 6 (7), -inf -> -6 (15), 7 -> 6
    // (ordinary saturation), 0.2 -> 0; E8M0: 0 and -2 -> NaN (255), 4 ->
    // 129; the literal -0.5 -> NaN; log(-1) in f4 is NaN -> -0.
    let want = "( 8, 0, 7, 15, 7, 0 )\n( 255, 255, 129 )\n255\n255\n8\n";
    assert_eq!(String::from_utf8_lossy(&out.stdout), want);
}

#[test]
fn float_policy_rejects_unknown_values() {
    let out = run(Some("wrap"));
    assert_eq!(out.status.code(), Some(2));
}
