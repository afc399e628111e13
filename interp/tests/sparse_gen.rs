//! The sparsifier's oracle, as a property: for `gen --kind sparse`
//! programs (random encodings, widths and data; elementwise kernels,
//! SpMV, SpMM, reductions, semiring ops, conversions), the source run
//! directly here prints what the sparsified program prints, with LLVM 22's
//! sparse runtime library and without it (`passcheck --passes
//! 'sparsifier{enable-runtime-library=...}'`). A pipeline mlir-opt cannot
//! finish (LLVM 22 fails to lower some conversions between overhead
//! widths) is not a verdict; most seeds must give one. Skipped without
//! mlir-22-tools, except under CI.

#[path = "common/gen_check.rs"]
mod gen_check;
#[path = "common/toolchain.rs"]
mod tools;

/// Seeds the test samples (60 were checked offline, both modes).
const SEEDS: std::ops::Range<u64> = 0..16;

/// Direct and sparsified runs agree on every sampled seed that mlir-opt
/// can lower, in both runtime modes.
#[test]
fn direct_runs_print_what_sparsified_runs_print() {
    if !tools::toolchain(&[tools::MLIR_OPT]) {
        return;
    }
    let dir = std::env::temp_dir().join(format!("mlir-interp-sparse-gen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let (mut same, mut failures) = (0, Vec::new());
    for seed in SEEDS {
        let f = gen_check::generated("sparse", 12, seed, &dir, tools::MLIR_OPT).unwrap_or_else(|why| panic!("{why}"));
        for runtime in [true, false] {
            let passes = format!("sparsifier{{enable-runtime-library={runtime}}}");
            match gen_check::passcheck(&f, &passes) {
                (Some(0), _) => same += 1,
                (Some(2), _) => {}
                (code, out) => failures.push(format!(
                    "seed {seed} (gen --kind sparse --size 12 --seed {seed}), {passes}: exits {code:?}\n{out}"
                )),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let runs = 2 * (SEEDS.end - SEEDS.start) as usize;
    assert!(same * 4 >= runs * 3, "only {same} of {runs} runs gave a verdict");
}
