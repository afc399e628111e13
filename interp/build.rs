//! Compiles `src/float/wide.c`, the bridge to glibc's f80 (`long double`)
//! and f128 (`_Float128`) math functions, on x86-64 Linux with glibc, and
//! sets `cfg(wide_libm)` there; elsewhere those functions are reported as
//! unsupported at run time.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(wide_libm)");
    println!("cargo:rerun-if-changed=src/float/wide.c");
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    let glibc_x86 = var("CARGO_CFG_TARGET_ARCH") == "x86_64"
        && var("CARGO_CFG_TARGET_OS") == "linux"
        && var("CARGO_CFG_TARGET_ENV") == "gnu";
    if glibc_x86 {
        cc::Build::new().file("src/float/wide.c").warnings(true).compile("mlir_interp_wide");
        println!("cargo:rustc-link-lib=m");
        println!("cargo:rustc-cfg=wide_libm");
    }
}
