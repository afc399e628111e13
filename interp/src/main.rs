//! The `mlir-interp` binary.

use clap::Parser;

fn main() {
    // Rust ignores SIGPIPE, so output into a closed pipe (`run ... | head`)
    // became a write error reported at the printing op, or an internal
    // error; a command-line tool (and mlir-runner, which this stands in
    // for) ends quietly instead.
    #[cfg(unix)]
    // SAFETY: restoring a signal's default action before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    mlir_interp::cli::install_panic_hook();
    // Lets the test suite check how an internal error is reported.
    if std::env::var_os("MLIR_INTERP_TEST_INTERNAL_ERROR").is_some() {
        panic!("deliberate internal error (MLIR_INTERP_TEST_INTERNAL_ERROR is set)");
    }
    // mlir-runner's command line is LLVM-style (`-entry-point-result=void`
    // is one option), which clap would misread: it is taken over first.
    let argv: Vec<String> = std::env::args().collect();
    if let Some(args) = mlir_interp::cli::filecheck_args(&argv) {
        std::process::exit(mlir_interp::filecheck::main(&args, &mut std::io::stdin().lock(), &mut std::io::stderr()));
    }
    if let Some((prog, args)) = mlir_interp::cli::runner_args(&argv) {
        std::process::exit(mlir_interp::cli::runner_on_big_stack(prog, args));
    }
    let cli = mlir_interp::cli::Cli::try_parse().unwrap_or_else(|e| {
        let code = if e.use_stderr() { mlir_interp::cli::EXIT_INPUT } else { 0 };
        let _ = e.print();
        std::process::exit(code);
    });
    std::process::exit(mlir_interp::cli::main_on_big_stack(cli));
}
