//! The `mlir-interp` binary.

use clap::Parser;

fn main() {
    mlir_interp::cli::install_panic_hook();
    let cli = mlir_interp::cli::Cli::try_parse().unwrap_or_else(|e| {
        let code = if e.use_stderr() { mlir_interp::cli::EXIT_INPUT } else { 0 };
        let _ = e.print();
        std::process::exit(code);
    });
    std::process::exit(mlir_interp::cli::main_with(cli));
}
