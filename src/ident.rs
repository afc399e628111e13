//! Interned strings: op names, attribute names and symbols compare by index.

use rustc_hash::FxHashMap;

/// An interned string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ident(pub u32);

/// The string table behind [`Ident`].
#[derive(Default, Clone, Debug)]
pub struct Interner {
    map: FxHashMap<Box<str>, Ident>,
    strs: Vec<Box<str>>,
}

impl Interner {
    /// The id of `s`, adding it if new.
    pub fn intern(&mut self, s: &str) -> Ident {
        if let Some(id) = self.map.get(s) {
            return *id;
        }
        let id = Ident(self.strs.len() as u32);
        self.strs.push(s.into());
        self.map.insert(s.into(), id);
        id
    }

    /// The id of `s` if it was interned.
    pub fn get(&self, s: &str) -> Option<Ident> {
        self.map.get(s).copied()
    }

    /// The string of `id`.
    pub fn str(&self, id: Ident) -> &str {
        &self.strs[id.0 as usize]
    }
}
