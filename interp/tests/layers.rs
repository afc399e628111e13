//! The engine's module graph is layered, as the architecture asks: no
//! import cycle among the modules of `interp/src`, and no dialect file
//! importing another dialect. Edges are what a module names: `crate::a::b`
//! paths, `super::x`, and the `mod` items it declares (a child naming its
//! own ancestors is not an edge: it is part of them).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Module path (`exec`, `dialects::arith`, `exec::run`) of every source file.
fn modules(root: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p.strip_prefix(root).unwrap().with_extension("");
                let mut parts: Vec<String> = rel.iter().map(|c| c.to_string_lossy().into_owned()).collect();
                if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                    parts.pop();
                }
                out.insert(parts.join("::"), std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    out
}

/// The source without comments and without a trailing test module.
fn code(src: &str) -> String {
    let src = src.split("#[cfg(test)]\nmod tests").next().unwrap_or(src);
    src.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// Identifier-path segments following `prefix` at each occurrence.
fn paths_after<'a>(src: &'a str, prefix: &str) -> Vec<Vec<&'a str>> {
    let mut out = Vec::new();
    let mut rest = src;
    while let Some(i) = rest.find(prefix) {
        let before = rest[..i].chars().last();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(rest.len());
        out.push(rest[..end].split("::").filter(|s| !s.is_empty()).collect());
    }
    out
}

/// The longest module that `segs` starts with.
fn resolve(mods: &BTreeMap<String, String>, segs: &[&str]) -> Option<String> {
    (1..=segs.len()).rev().map(|n| segs[..n].join("::")).find(|m| mods.contains_key(m))
}

fn graph(mods: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let mut g = BTreeMap::new();
    for (m, src) in mods {
        let src = code(src);
        let mut edges = BTreeSet::new();
        let inside = |t: &str| m == t || m.starts_with(&format!("{t}::")) || t.is_empty();
        for segs in paths_after(&src, "crate::") {
            if let Some(t) = resolve(mods, &segs).filter(|t| !inside(t)) {
                edges.insert(t);
            }
        }
        let parent: Vec<&str> = m.split("::").collect::<Vec<_>>().split_last().map_or(vec![], |(_, p)| p.to_vec());
        for segs in paths_after(&src, "super::") {
            let full: Vec<&str> = parent.iter().copied().chain(segs.iter().copied()).collect();
            if let Some(t) = resolve(mods, &full).filter(|t| !inside(t)) {
                edges.insert(t);
            }
        }
        for line in src.lines() {
            let l = line.trim().trim_start_matches("pub ").trim_start_matches("pub(crate) ");
            if let Some(name) = l.strip_prefix("mod ").and_then(|r| r.strip_suffix(';')) {
                let child = if m.is_empty() { name.to_string() } else { format!("{m}::{name}") };
                if mods.contains_key(&child) {
                    edges.insert(child);
                }
            }
        }
        g.insert(m.clone(), edges);
    }
    g
}

/// A cycle through `start`, if any (depth-first search).
fn cycle(g: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        g: &BTreeMap<String, BTreeSet<String>>,
        v: &str,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(v.to_string(), 1);
        path.push(v.to_string());
        for w in &g[v] {
            match state.get(w).copied().unwrap_or(0) {
                1 => {
                    let i = path.iter().position(|p| p == w).unwrap();
                    let mut c = path[i..].to_vec();
                    c.push(w.clone());
                    return Some(c);
                }
                0 => {
                    if let Some(c) = visit(g, w, state, path) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(v.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for v in g.keys() {
        if state.get(v).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(g, v, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

fn engine_graph() -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    graph(&modules(&root))
}

#[test]
fn the_engine_has_no_import_cycle() {
    let g = engine_graph();
    assert!(g.len() > 30, "only {} modules found", g.len());
    assert!(g["exec"].contains("code"), "the scanner must see exec's imports: {:?}", g["exec"]);
    if let Some(c) = cycle(&g) {
        panic!("import cycle: {}", c.join(" -> "));
    }
}

#[test]
fn no_dialect_imports_another() {
    let g = engine_graph();
    let bad: Vec<String> = g
        .iter()
        .filter(|(m, _)| m.starts_with("dialects::"))
        .flat_map(|(m, es)| {
            // A dialect split into files (`dialects::llvm::mem`) is one dialect.
            let own = |t: &str| t.split("::").nth(1) == m.split("::").nth(1);
            es.iter().filter(move |t| t.starts_with("dialects::") && !own(t)).map(move |t| format!("{m} -> {t}"))
        })
        .collect();
    assert!(bad.is_empty(), "{bad:?}");
}

#[test]
fn the_scanner_finds_a_cycle() {
    let mut mods = BTreeMap::new();
    mods.insert("a".to_string(), "use crate::b::X;".to_string());
    mods.insert("b".to_string(), "fn f() { super::a::g() }".to_string());
    mods.insert("c".to_string(), "// use crate::a;\nmod d;".to_string());
    mods.insert("c::d".to_string(), "use crate::c::Y;".to_string());
    let g = graph(&mods);
    assert_eq!(g["c"], BTreeSet::from(["c::d".to_string()]));
    assert!(g["c::d"].is_empty(), "a child naming its parent is not an edge");
    assert_eq!(cycle(&g).map(|c| c.len()), Some(3));
}
