//! The semantics layer: pure functions on decoded values (integer and float
//! op semantics), below values' plumbing, memory and the engine. Dialect
//! files read operands, call one of these, and write results; code two
//! dialects share lives here, never in a dialect file.

pub mod atomic;
pub mod fp;
pub mod int;
pub mod word;
