//! Parses, verifies and prints a file in generic form using only the IR
//! crate (handy while the engine crate is being changed).

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: mlir_print FILE");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot open input file '{path}': {e}");
            std::process::exit(2);
        }
    };
    let src = mlir_ir::Source::new(path, text);
    match mlir_ir::parse_and_verify(&src) {
        Ok(m) => print!("{}", mlir_ir::printer::print_generic(&m)),
        Err(d) => {
            eprint!("{}", d.render(&src));
            std::process::exit(2);
        }
    }
}
