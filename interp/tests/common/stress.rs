//! Generators of very large modules (shared by `tests/stress.rs`, which
//! checks they run cleanly, and `tools/bench_stress.rs`, which times them).
//! Each returns the module text and what it prints.

/// 10^6 ops in one block: a chain of adds.
pub fn ops_in_one_block(n: usize) -> (String, String) {
    let mut s = String::with_capacity(n * 40);
    s.push_str("func.func @main() {\n  %c1 = arith.constant 1 : i64\n  %v0 = arith.constant 0 : i64\n");
    for i in 1..=n {
        s.push_str(&format!("  %v{i} = arith.addi %v{}, %c1 : i64\n", i - 1));
    }
    s.push_str(&format!("  vector.print %v{n} : i64\n  return\n}}\n"));
    (s, format!("{n}\n"))
}

/// `n` functions, each called once from `main`, which sums their results.
pub fn many_functions(n: usize) -> (String, String) {
    let mut s = String::with_capacity(n * 120);
    for i in 0..n {
        s.push_str(&format!("func.func @f{i}() -> i64 {{\n  %c = arith.constant {i} : i64\n  return %c : i64\n}}\n"));
    }
    s.push_str("func.func @main() {\n  %a0 = arith.constant 0 : i64\n");
    for i in 0..n {
        s.push_str(&format!(
            "  %r{i} = func.call @f{i}() : () -> i64\n  %a{} = arith.addi %a{i}, %r{i} : i64\n",
            i + 1
        ));
    }
    s.push_str(&format!("  vector.print %a{n} : i64\n  return\n}}\n"));
    let sum = (n as u64) * (n as u64 - 1) / 2;
    (s, format!("{sum}\n"))
}

/// `n` blocks in one function, each passing a counter to the next.
pub fn many_blocks(n: usize) -> (String, String) {
    let mut s = String::with_capacity(n * 80);
    s.push_str(
        "func.func @main() {\n  %c1 = arith.constant 1 : i64\n  %z = arith.constant 0 : i64\n  cf.br ^bb0(%z : i64)\n",
    );
    for i in 0..n {
        s.push_str(&format!("^bb{i}(%x{i}: i64):\n  %y{i} = arith.addi %x{i}, %c1 : i64\n"));
        if i + 1 < n {
            s.push_str(&format!("  cf.br ^bb{}(%y{i} : i64)\n", i + 1));
        } else {
            s.push_str(&format!("  vector.print %y{i} : i64\n  return\n"));
        }
    }
    s.push_str("}\n");
    (s, format!("{n}\n"))
}

/// Regions nested `n` deep: `scf.execute_region`s, each yielding the value
/// of the one inside it plus one.
pub fn nested_regions(n: usize) -> (String, String) {
    let mut s = String::with_capacity(n * 120);
    s.push_str("func.func @main() {\n  %c1 = arith.constant 1 : i64\n");
    for i in 0..n {
        s.push_str(&format!("%r{i} = scf.execute_region -> i64 {{\n"));
    }
    s.push_str("%z = arith.constant 0 : i64\nscf.yield %z : i64\n");
    for i in (0..n).rev() {
        s.push_str(&format!("}}\n%s{i} = arith.addi %r{i}, %c1 : i64\n"));
        if i > 0 {
            s.push_str(&format!("scf.yield %s{i} : i64\n"));
        }
    }
    s.push_str("  vector.print %s0 : i64\n  return\n}\n");
    (s, format!("{n}\n"))
}

/// Every stress module at the sizes the reliability issue asks for.
pub fn all() -> Vec<(&'static str, String, String)> {
    let mut v = Vec::new();
    let (t, o) = ops_in_one_block(1_000_000);
    v.push(("10^6 ops in one block", t, o));
    let (t, o) = many_functions(100_000);
    v.push(("10^5 functions", t, o));
    let (t, o) = many_blocks(100_000);
    v.push(("10^5 blocks", t, o));
    let (t, o) = nested_regions(10_000);
    v.push(("regions nested 10^4 deep", t, o));
    v
}
