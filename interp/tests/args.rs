//! `run --arg`: entry-function arguments from the command line, typed by
//! the signature, driven through the binary as a user would. Expected
//! outputs are derived by hand from the arguments (each test says how).

use std::process::Command;

/// Runs `run FILE -e f ARGS...` on `program`; returns exit code, stdout, stderr.
fn run(name: &str, program: &str, args: &[&str]) -> (i32, String, String) {
    run_with(name, program, &[], args)
}

/// [`run`] with extra options before the `--arg`s.
fn run_with(name: &str, program: &str, opts: &[&str], args: &[&str]) -> (i32, String, String) {
    let dir = std::env::temp_dir().join(format!("mlir-interp-args-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, program).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mlir-interp"));
    cmd.arg("run").arg(&path).args(["-e", "f"]).args(opts);
    for a in args {
        cmd.arg("--arg").arg(a);
    }
    let out = cmd.output().expect("run mlir-interp");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Each scalar kind, printed back by `vector.print`: integers in decimal
/// and hex (0xFF as i8 is -1), i1 from `true`, f32 `inf`, an f16 given as
/// bits (0x3C00 is 1.0, widened to f32 to print), an integer literal for
/// a float (2 means 2.0), index.
#[test]
fn scalars() {
    let p = r#"func.func @f(%a: i32, %b: i8, %c: i1, %d: f32, %e: f16, %g: f64, %i: index) {
  vector.print %a : i32
  vector.print %b : i8
  vector.print %c : i1
  vector.print %d : f32
  %w = arith.extf %e : f16 to f32
  vector.print %w : f32
  vector.print %g : f64
  vector.print %i : index
  return
}
"#;
    let (code, out, err) = run("scalars.mlir", p, &["-7", "0xFF", "true", "inf", "0x3C00", "2", "42"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "-7\n-1\n1\ninf\n1\n2\n42\n");
}

/// Shaped values: a tensor sized by its literal (3x2 from the nesting),
/// a splat vector from a bare scalar, a memref filled from a list, and a
/// complex number. Reads: t[2][1] = 6, dim 0 = 3, m[1] = 2.5, the vector
/// (all -1 as i4... printed signed), re(z) = 1.25.
#[test]
fn shaped_and_complex() {
    let p = r#"func.func @f(%t: tensor<?x2xi32>, %v: vector<3xi4>, %m: memref<3xf64>, %z: complex<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %x = tensor.extract %t[%c2, %c1] : tensor<?x2xi32>
  vector.print %x : i32
  %n = tensor.dim %t, %c0 : tensor<?x2xi32>
  vector.print %n : index
  %y = memref.load %m[%c1] : memref<3xf64>
  vector.print %y : f64
  vector.print %v : vector<3xi4>
  %r = complex.re %z : complex<f32>
  vector.print %r : f32
  return
}
"#;
    let args = ["dense<[[1, 2], [3, 4], [5, 6]]>", "-1", "dense<[1.5, 2.5, 3.5]>", "(1.25, -2)"];
    let (code, out, err) = run("shaped.mlir", p, &args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "6\n3\n2.5\n( -1, -1, -1 )\n1.25\n");
}

/// Mistakes are exit-2 diagnostics at the entry function that name the
/// argument, its type and the problem; never a panic.
#[test]
fn bad_arguments() {
    let p = "func.func @f(%a: i8, %b: tensor<?xf32>, %c: f8E4M3FN) {\n  return\n}\n";
    let cases: [(&[&str], &str); 8] = [
        (&["1"], "takes 3 argument(s) (i8, tensor<?xf32>, f8E4M3FN), 1 given"),
        (&["300", "dense<[1.0]>", "1.0"], "argument #0 of 'f' (%a: i8): '300' as i8: integer constant out of range"),
        (&["1", "2.0", "1.0"], "a dynamic shape needs a nested list literal"),
        (&["1", "dense<[[1.0], [2.0, 3.0]]>", "1.0"], "a dynamic shape needs a nested list literal"),
        (&["1", "dense<[1.0]>", "inf"], "f8E4M3FN has no inf"),
        (&["x", "dense<[1.0]>", "1.0"], "argument #0 of 'f' (%a: i8): 'x' is not an integer"),
        (&["1", "dense<[1.0\n]>", "1.0"], "unexpected character '\\n' in a value"),
        (&["true", "dense<[1.0]>", "1.0"], "argument #0 of 'f' (%a: i8): 'true' is an i1 value; i8 takes an integer"),
    ];
    for (args, want) in cases {
        let (code, out, err) = run("bad.mlir", p, args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty());
        assert!(err.contains("error: bad argument: ") && err.contains(want), "{args:?}: {err}");
        assert!(err.contains("bad.mlir:1:1:"), "{args:?}: the entry function's location: {err}");
    }
}

/// A memref argument belongs to the caller: freeing it is undefined
/// behaviour, and leaving it allocated is no leak.
#[test]
fn memref_arguments_belong_to_the_caller() {
    let p = "func.func @f(%m: memref<2xi32>) {\n  memref.dealloc %m : memref<2xi32>\n  return\n}\n";
    let (code, _, err) = run("free.mlir", p, &["dense<[1, 2]>"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("an argument of the entry function"), "{err}");
    let p = "func.func @f(%m: memref<2xi32>) {\n  return\n}\n";
    let (code, _, err) = run("keep.mlir", p, &["dense<[1, 2]>"]);
    assert_eq!((code, err.as_str()), (0, ""));
}

/// `--print-results` prints every result as `%i = <literal> : <type>`;
/// by hand: 0.1 as f32 is shortest as `0.1`, f16 0x7E00 is a NaN (its
/// bits), i1 prints as `true`, a memref as its contents.
#[test]
fn print_results() {
    let p = r#"func.func @f(%a: i32, %m: memref<3xi8>) -> (i32, f32, i1, memref<3xi8>, vector<2xf16>) {
  %c = arith.constant 0.1 : f32
  %b = arith.constant true
  %v = arith.constant dense<[1.5, 0x7E00]> : vector<2xf16>
  return %a, %c, %b, %m, %v : i32, f32, i1, memref<3xi8>, vector<2xf16>
}
"#;
    let (code, out, err) = run_with("results.mlir", p, &["--print-results"], &["5", "dense<[1, -2, 3]>"]);
    assert_eq!(code, 0, "{err}");
    let want = "%0 = 5 : i32\n%1 = 0.1 : f32\n%2 = true : i1\n%3 = dense<[1, -2, 3]> : memref<3xi8>\n%4 = dense<[1.5, 0x7E00]> : vector<2xf16>\n";
    assert_eq!(out, want);
}

/// Without an option that says how, `run` prints a function's results as
/// `--print-results` does (by hand: 1 as f32 is `1.0`, 2 as f64 `2.0`),
/// and a void function prints nothing; `--out` alone writes files and
/// prints nothing.
#[test]
fn results_print_by_default() {
    let p = "func.func @f(%c: f32, %d: f64) -> (f32, f64) {\n  return %c, %d : f32, f64\n}\n";
    let (code, out, err) = run("default.mlir", p, &["1", "2"]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "%0 = 1.0 : f32\n%1 = 2.0 : f64\n", ""));
    let dir = std::env::temp_dir().join(format!("mlir-interp-default-out-{}", std::process::id()));
    let (code, out, err) = run_with("default.mlir", p, &["--out", dir.to_str().unwrap()], &["1", "2"]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    assert!(dir.join("result1.npy").exists());
    let q = "func.func @f(%c: f32) {\n  return\n}\n";
    let (code, out, err) = run("void.mlir", q, &["1"]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
}

/// Printed results read back as `--arg`s to the same values: through an
/// identity function, the second run prints what the first did (odd
/// floats included: subnormal, -0, NaN bits, bf16, a long f64).
#[test]
fn printed_results_read_back() {
    let p = r#"func.func @f(%a: tensor<2x2xf32>, %b: bf16, %c: f64, %d: vector<3xf8E4M3FN>, %e: complex<f32>, %g: i64) -> (tensor<2x2xf32>, bf16, f64, vector<3xf8E4M3FN>, complex<f32>, i64) {
  return %a, %b, %c, %d, %e, %g : tensor<2x2xf32>, bf16, f64, vector<3xf8E4M3FN>, complex<f32>, i64
}
"#;
    let args = [
        "dense<[[1.0e-45, -0.0], [0x7FC00001, 3.4028235e38]]>",
        "0.1",
        "0.1",
        "dense<[0.3, -448.0, 0x7F]>",
        "(0.1, -0.0)",
        "-9223372036854775808",
    ];
    let (code, first, err) = run_with("back.mlir", p, &["--print-results"], &args);
    assert_eq!(code, 0, "{err}");
    let again: Vec<String> = first
        .lines()
        .map(|l| {
            let lit = l.split_once(" = ").unwrap().1.rsplit_once(" : ").unwrap().0;
            // A complex result prints as its parts in parentheses, which --arg reads.
            lit.to_string()
        })
        .collect();
    let again: Vec<&str> = again.iter().map(String::as_str).collect();
    let (code, second, err) = run_with("back.mlir", p, &["--print-results"], &again);
    assert_eq!(code, 0, "{err}");
    assert_eq!(first, second);
}

/// `--random-args SEED` is deterministic, prints the `--arg`s that repeat
/// the run, and makes valid inputs for every parameter kind (50 seeds,
/// each one read back through `--print-results`).
#[test]
fn random_args_reproduce() {
    let p = r#"func.func @f(%a: i32, %b: f32, %c: tensor<?x2xi8>, %m: memref<3xf16>, %v: vector<2xi1>, %z: complex<f64>, %e: f8E8M0FNU, %i: index, %w: i100) -> (i32, f32, tensor<?x2xi8>, memref<3xf16>, vector<2xi1>, complex<f64>, f8E8M0FNU, index, i100) {
  return %a, %b, %c, %m, %v, %z, %e, %i, %w : i32, f32, tensor<?x2xi8>, memref<3xf16>, vector<2xi1>, complex<f64>, f8E8M0FNU, index, i100
}
"#;
    let mut outputs = std::collections::BTreeSet::new();
    for seed in 0..50 {
        let s = seed.to_string();
        let (code, out, err) = run_with("random.mlir", p, &["--print-results", "--random-args", &s], &[]);
        assert_eq!(code, 0, "seed {seed}: {err}");
        let (_, out2, err2) = run_with("random.mlir", p, &["--print-results", "--random-args", &s], &[]);
        assert_eq!((&out, &err), (&out2, &err2), "seed {seed} is not deterministic");
        // The printed options, given back by hand, repeat the run.
        let line = err.lines().find(|l| l.starts_with("mlir-interp: --random-args")).expect("printed args");
        let args: Vec<&str> = line.split("--arg '").skip(1).map(|a| a.trim_end().trim_end_matches('\'')).collect();
        assert_eq!(args.len(), 9, "{line}");
        let (code, again, err) = run_with("random.mlir", p, &["--print-results"], &args);
        assert_eq!((code, again.as_str()), (0, out.as_str()), "seed {seed}: {err}");
        outputs.insert(out);
    }
    assert!(outputs.len() > 40, "seeds should give different inputs");
}

/// A `.npy` file as NumPy writes it: magic, version 1.0, the header dict
/// padded with spaces and a newline to a multiple of 64 bytes, the data.
fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
    let mut h = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    while (10 + h.len() + 1) % 64 != 0 {
        h.push(' ');
    }
    h.push('\n');
    let mut f = b"\x93NUMPY\x01\x00".to_vec();
    f.extend_from_slice(&(h.len() as u16).to_le_bytes());
    f.extend_from_slice(h.as_bytes());
    f.extend_from_slice(data);
    f
}

/// `--arg @file.npy` reads tensors and memrefs (bf16 as raw `<u2` bits,
/// a dynamic dim sized by the file); `--out DIR` writes every result back
/// as `.npy` (a scalar as a 0-d array). By hand: the f32 file comes back
/// byte for byte; the bf16 bits 0x3F80 (1.0) and 0xC000 (-2.0) too; the
/// i32 7 is `<i4` with shape `()`.
#[test]
fn npy_in_and_out() {
    let dir = std::env::temp_dir().join(format!("mlir-interp-npy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let floats: Vec<u8> = [1.5f32, -2.0, 0.25, 8.0].iter().flat_map(|x| x.to_le_bytes()).collect();
    let t = npy("<f4", "(2, 2)", &floats);
    let b = npy("<u2", "(2,)", &[0x80, 0x3F, 0x00, 0xC0]);
    std::fs::write(dir.join("t.npy"), &t).unwrap();
    std::fs::write(dir.join("b.npy"), &b).unwrap();
    let p = r#"func.func @f(%t: tensor<?x2xf32>, %m: memref<2xbf16>) -> (tensor<?x2xf32>, memref<2xbf16>, i32) {
  %c = arith.constant 7 : i32
  return %t, %m, %c : tensor<?x2xf32>, memref<2xbf16>, i32
}
"#;
    let (ta, ba, out) = (dir.join("t.npy"), dir.join("b.npy"), dir.join("out"));
    let args = [format!("@{}", ta.display()), format!("@{}", ba.display())];
    let outs = ["--out", out.to_str().unwrap(), "--print-results"];
    let (code, printed, err) = run_with("npy.mlir", p, &outs, &[&args[0], &args[1]]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(printed, "%0 = dense<[[1.5, -2.0], [0.25, 8.0]]> : tensor<?x2xf32>\n%1 = dense<[1.0, -2.0]> : memref<2xbf16>\n%2 = 7 : i32\n");
    assert_eq!(std::fs::read(out.join("result0.npy")).unwrap(), t);
    assert_eq!(std::fs::read(out.join("result1.npy")).unwrap(), b);
    assert_eq!(std::fs::read(out.join("result2.npy")).unwrap(), npy("<i4", "()", &7i32.to_le_bytes()));
    // A file of the wrong dtype or shape is a bad argument naming both.
    let q = "func.func @f(%t: tensor<3xf32>) {\n  return\n}\n";
    let (code, _, err) = run_with("npy_bad.mlir", q, &[], &[&args[0]]);
    assert_eq!(code, 2);
    assert!(err.contains("has shape [2, 2]"), "{err}");
    let q = "func.func @f(%t: tensor<?x?xi32>) {\n  return\n}\n";
    let (code, _, err) = run_with("npy_bad2.mlir", q, &[], &[&args[0]]);
    assert_eq!(code, 2);
    assert!(err.contains("the .npy dtype '<f4' does not hold these elements (expected <i4 or <u4)"), "{err}");
}

/// An empty result keeps its element type in `--out`: a zero-element
/// `tensor<0x2xi16>` is an `<i2` array of shape (0, 2), and tosa's
/// `!tosa.shape<0>` an `<i8` (index) array of shape (0,), as ARM's TOSA
/// reference model writes it.
#[test]
fn empty_results_keep_their_dtype() {
    let p = r#"func.func @f() -> (tensor<0x2xi16>, !tosa.shape<0>) {
  %t = arith.constant dense<> : tensor<0x2xi16>
  %s = tosa.const_shape {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
  return %t, %s : tensor<0x2xi16>, !tosa.shape<0>
}
"#;
    let out = std::env::temp_dir().join(format!("mlir-interp-npy-empty-{}", std::process::id()));
    let (code, _, err) = run_with("npy_empty.mlir", p, &["--out", out.to_str().unwrap()], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(out.join("result0.npy")).unwrap(), npy("<i2", "(0, 2)", &[]));
    assert_eq!(std::fs::read(out.join("result1.npy")).unwrap(), npy("<i8", "(0,)", &[]));
}

/// Empty values: `dense<[]>` sizes the outer dynamic dim 0 and takes the
/// static dims below it from the type (`memref<?x3xi32>` is 0x3), and
/// `dense<>` makes every dynamic dim 0. Each run prints the two dim-0 sizes
/// and the memref's static dim 1 (3).
#[test]
fn empty_dynamic_dims() {
    let p = r#"func.func @f(%t: tensor<?xf32>, %m: memref<?x3xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %t, %c0 : tensor<?xf32>
  %k = memref.dim %m, %c0 : memref<?x3xi32>
  %w = memref.dim %m, %c1 : memref<?x3xi32>
  vector.print %n : index
  vector.print %k : index
  vector.print %w : index
  return
}
"#;
    let (code, out, err) = run("empty.mlir", p, &["dense<[]>", "dense<[]>"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "0\n0\n3\n");
    let (code, out, err) = run("empty.mlir", p, &["dense<>", "dense<>"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "0\n0\n3\n");
    // A dynamic dim below an empty list cannot be sized.
    let q = "func.func @f(%m: memref<?x?xi32>) {\n  return\n}\n";
    let (code, _, err) = run("empty2.mlir", q, &["dense<[]>"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("an empty literal cannot size the dynamic dims below it"), "{err}");
}

/// Memref arguments keep their type's layout: strided<[1, 2]> puts
/// a[1][0] = 4 at physical element 1 (1*1 + 0*2); dynamic strides are
/// row-major (offset 0, strides [2, 1]); strided<[-1], offset: 2> puts
/// c[i] at 2 - i, so physical elements 1 and 0 hold c[1] = 8 and c[2] = 9.
#[test]
fn memref_layouts() {
    let p = r#"func.func @f(%a: memref<2x3xi32, strided<[1, 2]>>, %b: memref<2x2xf32, strided<[?, ?], offset: ?>>, %c: memref<3xi8, strided<[-1], offset: 2>>) {
  %c1 = arith.constant 1 : index
  %flat = memref.reinterpret_cast %a to offset: [0], sizes: [6], strides: [1] : memref<2x3xi32, strided<[1, 2]>> to memref<6xi32>
  %p = memref.load %flat[%c1] : memref<6xi32>
  vector.print %p : i32
  %base, %off, %s:2, %st:2 = memref.extract_strided_metadata %b : memref<2x2xf32, strided<[?, ?], offset: ?>> -> memref<f32>, index, index, index, index, index
  vector.print %off : index
  vector.print %st#0 : index
  vector.print %st#1 : index
  %cb, %coff, %cs, %cst = memref.extract_strided_metadata %c : memref<3xi8, strided<[-1], offset: 2>> -> memref<i8>, index, index, index
  %cflat = memref.reinterpret_cast %c to offset: [0], sizes: [3], strides: [1] : memref<3xi8, strided<[-1], offset: 2>> to memref<3xi8>
  %q = memref.load %cflat[%c1] : memref<3xi8>
  vector.print %q : i8
  %c0 = arith.constant 0 : index
  %r = memref.load %cflat[%c0] : memref<3xi8>
  vector.print %r : i8
  return
}
"#;
    let (code, out, err) =
        run("layouts.mlir", p, &["dense<[[1,2,3],[4,5,6]]>", "dense<[[1.5,2.5],[3.5,4.5]]>", "dense<[7,8,9]>"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "4\n0\n2\n1\n8\n9\n");
    // A static offset too small for the negative strides cannot be built.
    let q = "func.func @f(%c: memref<3xi8, strided<[-1], offset: 1>>) {\n  return\n}\n";
    let (code, _, err) = run("layouts2.mlir", q, &["dense<[7,8,9]>"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("offset 1 with these negative strides reaches below the buffer's start"), "{err}");
}

/// What MLIR spells differently, and what the printer and generator make,
/// all read back: floats as `1e5` (100000.0), `.5`, `-nan` (f32 NaN with
/// the sign bit: 0xFFC00000); hex dense bytes (0x3F800000 is 1.0,
/// 0x40000000 is 2.0, little-endian); a memref of vectors as an array with
/// the vector's dims inside; unranked tensors and memrefs shaped by the
/// literal. A bad spelling names the parameter by its SSA name and type.
#[test]
fn other_spellings_and_types() {
    let p = r#"func.func @f(%a: f32, %b: f32, %c: f32, %h: tensor<2xf32>, %m: memref<2xvector<2xi8>>, %t: tensor<*xf32>, %u: memref<*xi32>) -> (f32, f32, f32, tensor<2xf32>, memref<2xvector<2xi8>>, tensor<*xf32>, memref<*xi32>) {
  return %a, %b, %c, %h, %m, %t, %u : f32, f32, f32, tensor<2xf32>, memref<2xvector<2xi8>>, tensor<*xf32>, memref<*xi32>
}
"#;
    let args = [
        "1e5",
        ".5",
        "-nan",
        r#"dense<"0x0000803F00000040">"#,
        "dense<[[1, 2], [3, -4]]>",
        "dense<[[1.5], [2.0]]>",
        "dense<[7, 8, 9]>",
    ];
    let (code, out, err) = run("spell.mlir", p, &args);
    assert_eq!(code, 0, "{err}");
    let want = "%0 = 100000.0 : f32\n%1 = 0.5 : f32\n%2 = 0xFFC00000 : f32\n%3 = dense<[1.0, 2.0]> : tensor<2xf32>\n\
                %4 = dense<[[1, 2], [3, -4]]> : memref<2xvector<2xi8>>\n%5 = dense<[[1.5], [2.0]]> : tensor<*xf32>\n\
                %6 = dense<[7, 8, 9]> : memref<*xi32>\n";
    assert_eq!(out, want);
    let bad = |i: usize, text: &str| {
        let mut a = args;
        a[i] = text;
        let (code, _, err) = run("spell.mlir", p, &a);
        assert_eq!(code, 2, "{text}: {err}");
        err
    };
    let err = bad(2, "1e5x");
    assert!(err.contains("argument #2 of 'f' (%c: f32): '1e5x' is not a float"), "{err}");
    assert!(!err.contains("custom op"), "{err}");
    let err = bad(5, "1.0");
    assert!(err.contains("(%t: tensor<*xf32>): an unranked parameter takes its shape"), "{err}");
    // MLIR itself refuses integer literals among float elements.
    let err = bad(3, "dense<[1.5, 2]>");
    assert!(err.contains("unexpected decimal integer literal for a floating point value"), "{err}");
    // A type the interpreter has no values of is named, not misparsed.
    let q = "func.func @f(%z: complex<i32>) {\n  return\n}\n";
    let (code, _, err) = run("cint.mlir", q, &["(1, 2)"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("(%z: complex<i32>): complex<i32> values are not supported"), "{err}");
}

/// `--random-args` prints only arguments it can use: memrefs of vectors
/// and unranked values get literals that run (and replay), and a type no
/// literal can give fails without printing any option.
#[test]
fn random_args_are_always_usable() {
    let p = r#"func.func @f(%m: memref<2xvector<2xi8>>, %t: tensor<*xf32>, %u: memref<*xi32>) -> (memref<2xvector<2xi8>>, tensor<*xf32>, memref<*xi32>) {
  return %m, %t, %u : memref<2xvector<2xi8>>, tensor<*xf32>, memref<*xi32>
}
"#;
    for seed in 0..10 {
        let s = seed.to_string();
        let (code, out, err) = run_with("rand2.mlir", p, &["--random-args", &s], &[]);
        assert_eq!(code, 0, "seed {seed}: {err}");
        let line = err.lines().find(|l| l.starts_with("mlir-interp: --random-args")).expect("printed args");
        let args: Vec<&str> = line.split("--arg '").skip(1).map(|a| a.trim_end().trim_end_matches('\'')).collect();
        let (code, again, err) = run_with("rand2.mlir", p, &[], &args);
        assert_eq!((code, again.as_str()), (0, out.as_str()), "seed {seed}: {err}");
    }
    let q = "func.func @f(%z: complex<i32>) {\n  return\n}\n";
    let (code, _, err) = run_with("rand3.mlir", q, &["--random-args", "1"], &[]);
    assert_eq!(code, 2, "{err}");
    assert!(!err.contains("--random-args 1:"), "no option printed: {err}");
    assert!(err.contains("complex<i32> values are not supported"), "{err}");
}

/// Half and fp8 files as NumPy and ml_dtypes write them, read by hand:
/// f16 `<f2` 0x3C00 is 1.0 and 0xC100 is -2.5; f8E4M3FN bytes 0x38 are
/// 1.0, 0xC4 is -3.0 (sign, exponent 8 - 7 = 1, mantissa 1.5) and 0x7E is
/// 448.0 (the largest), as `|u1` or as a one-byte void `|V1`. `--out`
/// writes the f16 file back byte for byte and the fp8 one as `|u1`.
#[test]
fn npy_half_and_fp8() {
    let dir = std::env::temp_dir().join(format!("mlir-interp-npy8-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let h = npy("<f2", "(2,)", &[0x00, 0x3C, 0x00, 0xC1]);
    let u = npy("|u1", "(3,)", &[0x38, 0xC4, 0x7E]);
    let v = npy("|V1", "(3,)", &[0x38, 0xC4, 0x7E]);
    for (name, bytes) in [("h.npy", &h), ("u.npy", &u), ("v.npy", &v)] {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    let p = r#"func.func @f(%h: tensor<2xf16>, %m: memref<3xf8E4M3FN>) -> (tensor<2xf16>, memref<3xf8E4M3FN>) {
  return %h, %m : tensor<2xf16>, memref<3xf8E4M3FN>
}
"#;
    let at = |n: &str| format!("@{}", dir.join(n).display());
    let out = dir.join("out");
    let (code, printed, err) =
        run_with("npy8.mlir", p, &["--out", out.to_str().unwrap(), "--print-results"], &[&at("h.npy"), &at("u.npy")]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        printed,
        "%0 = dense<[1.0, -2.5]> : tensor<2xf16>\n%1 = dense<[1.0, -3.0, 448.0]> : memref<3xf8E4M3FN>\n"
    );
    assert_eq!(std::fs::read(out.join("result0.npy")).unwrap(), h);
    assert_eq!(std::fs::read(out.join("result1.npy")).unwrap(), u);
    let (code, again, err) = run_with("npy8.mlir", p, &["--print-results"], &[&at("h.npy"), &at("v.npy")]);
    assert_eq!((code, again), (0, printed), "{err}");
}

/// The descrs ml_dtypes 0.6 writes with `np.save`: `<f1` for
/// float8_e5m2 (NumPy itself cannot read that one back) and `<V2` for
/// bfloat16. By hand: e5m2 0x3C is 1.0 (exponent 15 - 15), 0xFB is
/// -57344.0 (-(2^15 * 1.75), the largest), 0x7C is inf (MLIR spells it in
/// hex); bf16 0x3F80 is 1.0 and 0xC000 is -2.0. A file cut inside its
/// header is a bad argument (exit 2), not a crash.
#[test]
fn npy_as_ml_dtypes_writes_it() {
    let dir = std::env::temp_dir().join(format!("mlir-interp-npyml-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("e5m2.npy"), npy("<f1", "(3,)", &[0x3C, 0xFB, 0x7C])).unwrap();
    std::fs::write(dir.join("bf16.npy"), npy("<V2", "(2,)", &[0x80, 0x3F, 0x00, 0xC0])).unwrap();
    std::fs::write(dir.join("cut.npy"), b"\x93NUMPY\x01\x00").unwrap();
    let p = r#"func.func @f(%a: tensor<3xf8E5M2>, %b: memref<?xbf16>) -> (tensor<3xf8E5M2>, memref<?xbf16>) {
  return %a, %b : tensor<3xf8E5M2>, memref<?xbf16>
}
"#;
    let at = |n: &str| format!("@{}", dir.join(n).display());
    let (code, out, err) = run("npyml.mlir", p, &[&at("e5m2.npy"), &at("bf16.npy")]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "%0 = dense<[1.0, -57344.0, 0x7C]> : tensor<3xf8E5M2>\n%1 = dense<[1.0, -2.0]> : memref<?xbf16>\n");
    let (code, _, err) = run("npyml.mlir", p, &[&at("cut.npy"), &at("bf16.npy")]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("argument #0 of 'f' (%a: tensor<3xf8E5M2>)") && err.contains("truncated .npy header"),
        "{err}"
    );
}

/// Unsigned integers print as MLIR prints them (mlir-opt 22 prints
/// `dense<[255, 0]> : tensor<2xui8>`, not -1), so they read back as
/// `--arg`s (a negative literal is refused for `uiN`), and `--out` writes
/// them with NumPy's unsigned dtype (`|u1`) while `si8` stays `|i1`.
#[test]
fn unsigned_results() {
    let dir = std::env::temp_dir().join(format!("mlir-interp-uns-{}", std::process::id()));
    let p = r#"func.func @f(%a: ui8, %t: tensor<2xui16>, %s: tensor<2xsi8>) -> (ui8, tensor<2xui16>, tensor<2xsi8>) {
  return %a, %t, %s : ui8, tensor<2xui16>, tensor<2xsi8>
}
"#;
    let (code, out, err) = run("uns.mlir", p, &["255", "dense<[65535, 1]>", "dense<[-1, 2]>"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "%0 = 255 : ui8\n%1 = dense<[65535, 1]> : tensor<2xui16>\n%2 = dense<[-1, 2]> : tensor<2xsi8>\n");
    let o = dir.join("out");
    let (code, _, err) =
        run_with("uns.mlir", p, &["--out", o.to_str().unwrap()], &["255", "dense<[65535, 1]>", "dense<[-1, 2]>"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(o.join("result0.npy")).unwrap(), npy("|u1", "()", &[0xFF]));
    assert_eq!(std::fs::read(o.join("result1.npy")).unwrap(), npy("<u2", "(2,)", &[0xFF, 0xFF, 1, 0]));
    assert_eq!(std::fs::read(o.join("result2.npy")).unwrap(), npy("|i1", "(2,)", &[0xFF, 2]));
}

/// An `--out` directory that cannot be made (under a plain file) is a
/// usage error, exit 2, saying so; not a resource limit.
#[test]
fn unwritable_out_directory() {
    let dir = std::env::temp_dir().join(format!("mlir-interp-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("afile");
    std::fs::write(&file, "").unwrap();
    let target = file.join("x");
    let p = "func.func @f(%a: i32) -> i32 {\n  return %a : i32\n}\n";
    let (code, out, err) = run_with("out.mlir", p, &["--out", target.to_str().unwrap()], &["3"]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains(&format!("error: cannot create the --out directory '{}'", target.display())), "{err}");
    assert!(!err.contains("resource limit"), "{err}");
}

/// A result with elements never written has no `.npy` form: a usage
/// error (exit 2), not a resource limit, shown at the op that allocated
/// the memory and naming the element.
#[test]
fn out_of_a_memref_with_unwritten_elements() {
    let dir = std::env::temp_dir().join(format!("mlir-interp-out-poison-{}", std::process::id()));
    let p = "func.func @f() -> memref<3xi32> {
  %m = memref.alloc() : memref<3xi32>
  %c = arith.constant 1 : i32
  %i = arith.constant 0 : index
  memref.store %c, %m[%i] : memref<3xi32>
  return %m : memref<3xi32>
}
";
    let (code, _, err) = run_with("poison_out.mlir", p, &["--out", dir.to_str().unwrap()], &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("poison_out.mlir:2:8: error: --out cannot write result #0 as .npy: its element [1] is poison (memory this op allocated and nothing wrote)"), "{err}");
    assert!(!err.contains("resource limit") && !err.contains("op #"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
