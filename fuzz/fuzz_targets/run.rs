//! The engine on every module the parser accepts, with fuel, a memory
//! budget and a call-depth limit: a run ends with a result or an error
//! (UB, unsupported, limit), never a panic, an abort or a hang. The engine
//! trusts verified IR, so an internal error (verified IR breaking one of
//! its invariants: a verifier gap) is a crash here too.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mlir_interp::error::ErrorKind;
use mlir_interp::exec::{Config, Engine};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let src = mlir_ir::diag::Source::new("fuzz.mlir", text.to_string());
    let Ok(m) = mlir_ir::parse_and_verify(&src) else { return };
    let cfg = Config {
        max_steps: Some(200_000),
        max_memory: 256 << 20,
        max_call_depth: 200,
        timeout: Some(std::time::Duration::from_secs(5)),
        ..Config::default()
    };
    let _ = mlir_interp::cli::on_engine_thread(&cfg.clone(), || {
        let internal = |r: Result<_, mlir_interp::error::Error>| {
            if let Err(err) = r {
                assert!(!matches!(err.kind, ErrorKind::Internal(_)), "{}", err.render(&m, &src));
            }
        };
        let mut e = match Engine::load(&m, cfg, Box::new(std::io::sink())) {
            Ok(e) => e,
            Err(err) => return internal(Err(err)),
        };
        for entry in ["main", "entry"] {
            internal(e.run_entry(entry).map(drop));
        }
    });
});
