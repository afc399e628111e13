//! The sparse runtime's state in the engine (`Engine::sparse`): its own
//! module, so that the engine names only it and not the runtime library,
//! which names the engine.

use super::{Mt19937, Reader, Tensor, Writer};
use crate::memory::{Buffer, Ptr};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::rc::Rc;

/// The runtime's objects, by the address of their handle (a one-byte
/// engine allocation kept alive here until the object is deleted).
#[derive(Default)]
pub struct Runtime {
    pub(super) tensors: FxHashMap<u64, Box<Tensor>>,
    pub(super) readers: FxHashMap<u64, Box<Reader>>,
    pub(super) writers: FxHashMap<u64, Box<Writer>>,
    pub(super) rngs: FxHashMap<u64, Box<Mt19937>>,
    pub(super) handles: FxHashMap<u64, Rc<RefCell<Buffer>>>,
    /// Freed handles and arrays, kept so that a stale address still
    /// resolves to its (freed) allocation.
    pub(super) dead: Vec<Rc<RefCell<Buffer>>>,
    /// What deleted each dead handle, by address (for the message).
    pub(super) freed_by: FxHashMap<u64, &'static str>,
    /// The C strings `getTensorFilename` returned, by id.
    pub(super) filenames: FxHashMap<u64, Ptr>,
}
