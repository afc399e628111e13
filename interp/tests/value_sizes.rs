//! Values stay their encoded size (issue 41, item 4), measured by what
//! `run --stats` reports rather than by time: printing a large vector
//! streams its text (peak RSS near the value's bytes), and a loop that
//! inserts into the tensor it carries updates it in place (the bytes of
//! tensors copied for updates stay one tensor's, not one per iteration).

use std::process::Command;

/// Runs `text` with `run --stats`: stdout, and the `--stats` line.
fn run_stats(name: &str, text: &str) -> (String, String) {
    let dir = std::env::temp_dir().join(format!("mlir-interp-sizes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write module");
    let out = Command::new(env!("CARGO_BIN_EXE_mlir-interp"))
        .args(["run", "--stats"])
        .arg(&p)
        .output()
        .expect("run mlir-interp");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{name}: exit {:?}\n{err}", out.status.code());
    let line = err.lines().find(|l| l.starts_with("mlir-interp:")).unwrap_or_else(|| panic!("no stats: {err}"));
    (String::from_utf8_lossy(&out.stdout).into_owned(), line.to_string())
}

/// The number after `key` in a `--stats` line (`values copied 0.4 MiB`).
fn stat(line: &str, key: &str) -> f64 {
    let rest = line.split(key).nth(1).unwrap_or_else(|| panic!("no '{key}' in: {line}"));
    rest.split_whitespace().next().and_then(|x| x.parse().ok()).unwrap_or_else(|| panic!("bad '{key}' in: {line}"))
}

/// 10^5 inserts into a `tensor<100000xi32>` (400 KB) carried by a loop:
/// one copy of the constant it starts from, not one per insert (40 GB).
/// The program's output is computed here the same way (mlir-runner,
/// after one-shot-bufferize, prints the same: 711637377 and 1).
#[test]
fn a_tensor_with_one_owner_is_updated_in_place() {
    let text = r#"
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %n = arith.constant 100000 : index
  %one = arith.constant 1 : i32
  %t0 = arith.constant dense<0> : tensor<100000xi32>
  %t = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %t0) -> (tensor<100000xi32>) {
    %k = arith.muli %i, %c7 : index
    %j = arith.remui %k, %n : index
    %old = tensor.extract %acc[%j] : tensor<100000xi32>
    %ii = arith.index_cast %i : index to i32
    %w = arith.addi %old, %ii : i32
    %u = tensor.insert %w into %acc[%j] : tensor<100000xi32>
    scf.yield %u : tensor<100000xi32>
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %one) -> (i32) {
    %x = tensor.extract %t[%i] : tensor<100000xi32>
    %y = arith.xori %a, %x : i32
    %z = arith.addi %y, %x : i32
    scf.yield %z : i32
  }
  vector.print %s : i32
  %e = tensor.extract %t[%c7] : tensor<100000xi32>
  vector.print %e : i32
  return
}
"#;
    let n = 100_000usize;
    let mut t = vec![0i32; n];
    for i in 0..n {
        let j = i * 7 % n;
        t[j] = t[j].wrapping_add(i as i32);
    }
    let s = t.iter().fold(1i32, |a, x| (a ^ x).wrapping_add(*x));
    let (out, line) = run_stats("inserts.mlir", text);
    assert_eq!(out, format!("{s}\n{}\n", t[7]));
    let copied = stat(&line, "values copied ");
    assert!(copied <= 0.5, "{copied} MiB of tensors copied for 10^5 inserts into 0.38 MiB: {line}");
}

/// `vector.print` of a 16 MB vector: the text (20 MB) goes out as it is
/// formatted, and no array of scalars is built: peak RSS stays under
/// twice the value plus 20 MiB (before: 195 MiB).
#[test]
fn printing_a_large_vector_streams() {
    let n = 4_000_000;
    let text = format!(
        "func.func @main() {{
  %f = arith.constant 1.5 : f32
  %v = vector.broadcast %f : f32 to vector<{n}xf32>
  vector.print %v : vector<{n}xf32>
  return
}}
"
    );
    let (out, line) = run_stats("print.mlir", &text);
    let want = format!("( {} )\n", vec!["1.5"; n].join(", "));
    assert!(out == want, "the printed vector differs ({} bytes, {} expected)", out.len(), want.len());
    let value = (4 * n) as f64 / (1024.0 * 1024.0);
    let rss = stat(&line, "peak RSS ");
    assert!(rss <= 2.0 * value + 20.0, "peak RSS {rss} MiB printing a {value:.1} MiB vector: {line}");
}
