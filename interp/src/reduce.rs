//! `mlir-interp reduce FILE`: shrinks a program while a property holds —
//! a miscompile under `--passes` still shows (`passcheck`'s verdict), or a
//! `--test CMD` still exits 0 — keeping every candidate valid (it parses
//! and verifies here) and free of undefined behaviour on the checked inputs
//! (a miscompile verdict needs a defined source; for `--test` the entry is
//! run here first and a candidate with UB is not interesting).
//!
//! Edits work on the text, one op per line as MLIR prints and people write
//! it, with the parsed module saying where each op, block and value is:
//! delete an op (with its regions), replace an op's single result by a
//! constant of its type (so its operands can go next), turn a conditional
//! branch into a branch to either successor, delete a block nothing
//! branches to, shrink a constant towards 0. Rounds repeat until none
//! succeeds; the result is a local minimum: no single edit keeps the
//! property.

use crate::passcheck::{self, End, Observation};
use mlir_ir::diag::Source;
use mlir_ir::ir::{BlockId, OpId};
use mlir_ir::Module;

/// What must keep holding while the program shrinks.
pub enum Property {
    /// `passcheck` still finds a miscompile on one of these inputs.
    Miscompile {
        /// The passcheck options (pipeline, optimizer, entry, ...).
        opts: passcheck::Options,
        /// The input sets to check.
        inputs: Vec<Vec<String>>,
    },
    /// `sh -c 'CMD "$1"' reduce FILE` exits 0, on programs whose `entry`
    /// runs here without undefined behaviour on `args`.
    Test {
        /// The interestingness command.
        cmd: String,
        /// The entry function run for the UB check.
        entry: String,
        /// Its arguments.
        args: Vec<String>,
        /// The engine configuration of the UB check.
        cfg: crate::exec::Config,
        /// How long the command may take.
        timeout: std::time::Duration,
    },
}

impl Property {
    /// Whether `text` has the property (and is valid and UB-free).
    pub fn holds(&self, text: &str) -> bool {
        match self {
            Property::Miscompile { opts, inputs } => passcheck::miscompiles(opts, text, inputs).unwrap_or(false),
            Property::Test { cmd, entry, args, cfg, timeout } => {
                let defined =
                    passcheck::observe_all("<candidate>", text, entry, std::slice::from_ref(args), cfg, false)
                        .is_ok_and(|obs| obs.iter().all(defined_run));
                defined && test_passes(cmd, text, *timeout)
            }
        }
    }
}

/// The run finished (or aborted) without undefined behaviour.
fn defined_run(o: &Observation) -> bool {
    matches!(o.end, End::Returned(_) | End::Aborted(_))
}

/// Runs the interestingness command on `text` (written to a file).
fn test_passes(cmd: &str, text: &str, timeout: std::time::Duration) -> bool {
    let Ok(f) = passcheck::TempFile::with(text, "reduce") else { return false };
    let mut c = std::process::Command::new("sh");
    c.arg("-c").arg(format!("{cmd} \"$1\"")).arg("reduce").arg(&f.0);
    matches!(crate::differential::run_bounded(c, timeout), Ok((Some(0), _, _)))
}

/// `text` headed by the entry and the input it miscompiles on, as the
/// `// ENTRY:` and `// ARGS:` lines passcheck reads when its command line
/// names none, so the reduced program re-checks alone; lines of that kind
/// the text already has give way.
pub fn with_input(text: &str, entry: &str, args: &[String]) -> String {
    let mut head = String::new();
    if entry != "main" {
        head.push_str(&format!("// ENTRY: {entry}\n"));
    }
    if !args.is_empty() {
        head.push_str(&format!("// ARGS: {}\n", passcheck::shown(args)));
    }
    let own = |l: &&str| !(l.starts_with("// ENTRY:") || l.starts_with("// ARGS:"));
    head + &text.lines().filter(own).map(|l| format!("{l}\n")).collect::<String>()
}

/// Progress and the outcome of a reduction.
#[derive(Debug, Default)]
pub struct Stats {
    /// Candidates tried.
    pub tried: usize,
    /// Candidates kept.
    pub kept: usize,
}

/// Shrinks `text` while `prop` holds (it must hold for `text`), trying at
/// most `limit` candidates; `log` gets one line per kept edit.
pub fn reduce(text: &str, prop: &Property, limit: usize, log: &mut dyn FnMut(&str)) -> (String, Stats) {
    let mut cur = text.to_string();
    let mut stats = Stats::default();
    loop {
        let before = cur.clone();
        for pass in [
            Edit::DeleteOp,
            Edit::Constant,
            Edit::Bypass,
            Edit::Branch,
            Edit::DeleteBlock,
            Edit::Signature,
            Edit::Shape,
            Edit::Shrink,
        ] {
            // Candidates are recomputed after every kept edit: positions move.
            let mut k = 0;
            loop {
                let cands = candidates(&cur, pass);
                let Some(c) = cands.get(k) else { break };
                if stats.tried >= limit {
                    log(&format!("stopped after {limit} candidates (the limit)"));
                    return (cur, stats);
                }
                stats.tried += 1;
                if prop.holds(&c.text) {
                    stats.kept += 1;
                    log(&format!("{} ({} lines)", c.what, c.text.lines().count()));
                    cur = c.text.clone();
                    // The same index now names the next candidate.
                } else {
                    k += 1;
                }
            }
        }
        if cur == before {
            return (cur, stats);
        }
    }
}

/// The kinds of edits, tried in this order each round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Edit {
    DeleteOp,
    Constant,
    Bypass,
    Branch,
    DeleteBlock,
    Signature,
    Shape,
    Shrink,
}

/// One edited program.
struct Candidate {
    text: String,
    what: String,
}

/// The module and the line structure of `text`, or `None` if it does not
/// verify.
struct Parsed {
    m: Module,
    src: Source,
    lines: Vec<String>,
}

impl Parsed {
    fn of(text: &str) -> Option<Parsed> {
        let src = Source::new("<reduce>", text);
        let m = mlir_ir::parse_and_verify_with(&src, &crate::driver::limits()).ok()?;
        Some(Parsed { m, src, lines: text.lines().map(str::to_string).collect() })
    }

    /// 0-based line of byte offset `at`.
    fn line(&self, at: u32) -> usize {
        self.src.line_col(at).0 - 1
    }

    /// The lines of `op`: from its first line to the line before the next
    /// op of its block; `None` for the last op of a block (a terminator, or
    /// the module's last op) and ops sharing a line with another.
    fn op_lines(&self, op: OpId) -> Option<(usize, usize)> {
        let block = self.m.op(op).parent?;
        let ops = &self.m.block(block).ops;
        let i = ops.iter().position(|o| *o == op)?;
        let next = *ops.get(i + 1)?;
        let (a, b) = (self.line(self.m.op(op).span.start), self.line(self.m.op(next).span.start));
        (a < b).then_some((a, b))
    }

    /// The text without lines `a..b`, with `insert` in their place.
    fn splice(&self, a: usize, b: usize, insert: Option<String>) -> String {
        let mut out: Vec<&str> = self.lines[..a].iter().map(String::as_str).collect();
        if let Some(l) = insert.as_deref() {
            out.push(l);
        }
        out.extend(self.lines[b..].iter().map(String::as_str));
        out.join("\n") + "\n"
    }

    /// Whether any op uses a result of `op` or of an op nested in it from
    /// outside it.
    fn results_used(&self, op: OpId) -> bool {
        let inside = |mut o: OpId| loop {
            if o == op {
                return true;
            }
            match self.m.parent_op(o) {
                Some(p) => o = p,
                None => return false,
            }
        };
        (0..self.m.ops.len()).any(|u| {
            let u = OpId(u as u32);
            !inside(u) && self.m.operands(u).iter().any(|v| self.m.results(op).any(|r| r == *v))
        })
    }
}

/// Every candidate of kind `e` for `text`, last ops first (deleting a
/// late op can free earlier ones).
fn candidates(text: &str, e: Edit) -> Vec<Candidate> {
    let Some(p) = Parsed::of(text) else { return Vec::new() };
    let mut out = Vec::new();
    let ops = (0..p.m.ops.len() as u32).rev().map(OpId);
    match e {
        Edit::DeleteOp => {
            for op in ops {
                let Some((a, b)) = p.op_lines(op) else { continue };
                if !p.results_used(op) && !is_symbol_used(&p, op) {
                    out.push(Candidate {
                        text: p.splice(a, b, None),
                        what: format!("deleted '{}' at line {}", p.m.op_name(op), a + 1),
                    });
                }
            }
        }
        Edit::Constant => {
            for op in ops {
                out.extend(as_constants(&p, op));
            }
        }
        Edit::Bypass => {
            for op in ops {
                out.extend(bypass(&p, op));
            }
        }
        Edit::Branch => {
            for op in ops {
                out.extend(unconditional(&p, op));
            }
        }
        Edit::DeleteBlock => {
            for b in (1..p.m.blocks.len() as u32).rev().map(BlockId) {
                if let Some(c) = delete_block(&p, b) {
                    out.push(c);
                }
            }
        }
        Edit::Signature => {
            for op in ops {
                out.extend(drop_params(&p, op));
                out.extend(drop_results(&p, op));
            }
        }
        Edit::Shape => out.extend(halve_shapes(text)),
        Edit::Shrink => {
            for op in ops {
                out.extend(shrink(&p, op));
            }
        }
    }
    out
}

/// A function still called or referenced by name is kept.
fn is_symbol_used(p: &Parsed, op: OpId) -> bool {
    let Some(name) = p.m.attr(op, "sym_name") else { return false };
    let sym = match p.m.ctx.attr_kind(name) {
        mlir_ir::attrs::Attribute::String { value, .. } => format!("@{}", String::from_utf8_lossy(value)),
        _ => return true,
    };
    let (a, _) = p.op_lines(op).unwrap_or((0, 0));
    p.lines.iter().enumerate().any(|(i, l)| i != a && mentions(l, &sym))
}

/// Whether `line` mentions `sym` as a whole token.
fn mentions(line: &str, sym: &str) -> bool {
    line.match_indices(sym).any(|(i, _)| {
        let after = line[i + sym.len()..].chars().next();
        !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '.')
    })
}

/// `%x = arith.constant 0 : T` (and `1`, for when 0 would divide by zero)
/// in place of a single-line, single-result op whose result is an integer,
/// index, float or a vector of them.
fn as_constants(p: &Parsed, op: OpId) -> Vec<Candidate> {
    let name = p.m.op_name(op);
    if name == "arith.constant" || p.m.results(op).len() != 1 || !p.m.regions(op).is_empty() {
        return Vec::new();
    }
    let Some((a, b)) = p.op_lines(op) else { return Vec::new() };
    let Some((lhs, _)) = p.lines[a].split_once(" = ") else { return Vec::new() };
    if b != a + 1 || lhs.contains(':') || lhs.contains(',') {
        return Vec::new();
    }
    let t = p.m.type_of(p.m.result(op, 0));
    let ty = mlir_ir::printer::type_to_string(&p.m.ctx, t);
    let lits = [literal(&p.m, t, "0", "0.0"), literal(&p.m, t, "1", "1.0")];
    lits.into_iter()
        .flatten()
        .map(|lit| Candidate {
            text: p.splice(a, b, Some(format!("{lhs} = arith.constant {lit} : {ty}"))),
            what: format!("replaced '{name}' at line {} by the constant {lit}", a + 1),
        })
        .collect()
}

/// The program without a single-line, single-result op, its uses reading
/// one of its operands of the same type instead (what the miscompile needs
/// is often a chain's first op, which neither deleting nor constants reach).
/// The operand dominates the op, so it dominates the op's uses too.
fn bypass(p: &Parsed, op: OpId) -> Vec<Candidate> {
    if p.m.results(op).len() != 1 || !p.m.regions(op).is_empty() {
        return Vec::new();
    }
    let Some((a, b)) = p.op_lines(op) else { return Vec::new() };
    let Some((lhs, _)) = p.lines[a].split_once(" = ") else { return Vec::new() };
    let result = lhs.trim();
    if b != a + 1 || result.contains(':') || result.contains(',') {
        return Vec::new();
    }
    let t = p.m.type_of(p.m.result(op, 0));
    let mut seen: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for &v in p.m.operands(op) {
        let name = crate::names::value_name(&p.src, &p.m, v);
        if p.m.type_of(v) != t || !name.starts_with('%') || seen.contains(&name) {
            continue;
        }
        let lines: Vec<String> =
            p.lines.iter().enumerate().filter(|(i, _)| *i != a).map(|(_, l)| replace_token(l, result, &name)).collect();
        out.push(Candidate {
            text: lines.join("\n") + "\n",
            what: format!("replaced '{}' at line {} by its operand {name}", p.m.op_name(op), a + 1),
        });
        seen.push(name);
    }
    out
}

/// `int` or `float` as an `arith.constant` attribute of type `t` (a
/// splat for vectors); `None` for types without one.
fn literal(m: &Module, t: mlir_ir::types::TypeId, int: &str, float: &str) -> Option<String> {
    use mlir_ir::types::TypeKind;
    match m.ctx.type_kind(t) {
        TypeKind::Integer { signedness: mlir_ir::types::Signedness::Signless, .. } | TypeKind::Index => {
            Some(int.into())
        }
        TypeKind::Float(_) => Some(float.into()),
        TypeKind::Vector { elem, .. } => Some(format!("dense<{}>", literal(m, *elem, int, float)?)),
        _ => None,
    }
}

/// `cf.cond_br %c, ^a(...), ^b(...)` as `cf.br` to each successor.
fn unconditional(p: &Parsed, op: OpId) -> Vec<Candidate> {
    if p.m.op_name(op) != "cf.cond_br" {
        return Vec::new();
    }
    let a = p.line(p.m.op(op).span.start);
    let line = &p.lines[a];
    let Some(at) = line.find("cf.cond_br") else { return Vec::new() };
    let rest = &line[at + "cf.cond_br".len()..];
    // The condition, then the two successors with their operands.
    let parts = split_top_commas(rest);
    if parts.len() != 3 {
        return Vec::new();
    }
    let indent = &line[..at];
    (1..3)
        .map(|k| Candidate {
            text: p.splice(a, a + 1, Some(format!("{indent}cf.br {}", parts[k].trim()))),
            what: format!("made the branch at line {} unconditional", a + 1),
        })
        .collect()
}

/// `s` split at commas outside parentheses and brackets.
fn split_top_commas(s: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0i32, 0, Vec::new());
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '<' | '{' => depth += 1,
            ')' | ']' | '>' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// Deletes a non-entry block no branch names: from its label to its
/// terminator.
fn delete_block(p: &Parsed, b: BlockId) -> Option<Candidate> {
    let region = p.m.block(b).parent?;
    if p.m.region(region).blocks.first() == Some(&b) {
        return None;
    }
    let used = (0..p.m.ops.len()).any(|o| p.m.successors(OpId(o as u32)).contains(&b));
    if used {
        return None;
    }
    let first = p.line(p.m.block(b).span.start);
    let last = p.line(p.m.op(*p.m.block(b).ops.last()?).span.start);
    Some(Candidate {
        text: p.splice(first, last + 1, None),
        what: format!("deleted the unreachable block at line {}", first + 1),
    })
}

/// The function `op` defines: its `@name` and the line of its signature.
fn function(p: &Parsed, op: OpId) -> Option<(String, usize)> {
    if p.m.op_name(op) != "func.func" || p.m.regions(op).is_empty() {
        return None;
    }
    let sym = match p.m.ctx.attr_kind(p.m.attr(op, "sym_name")?) {
        mlir_ir::attrs::Attribute::String { value, .. } => format!("@{}", String::from_utf8_lossy(value)),
        _ => return None,
    };
    let line = p.line(p.m.op(op).span.start);
    p.lines[line].contains(&format!("{sym}(")).then_some((sym, line))
}

/// The byte range of the parenthesized group that starts at `open` (an
/// index of `(` in `s`), without the parentheses.
fn group(s: &str, open: usize) -> Option<(usize, usize)> {
    let mut depth = 0;
    for (i, c) in s[open..].char_indices() {
        match c {
            '(' | '[' | '<' | '{' => depth += 1,
            ')' | ']' | '>' | '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some((open + 1, open + i));
                }
            }
            _ => {}
        }
    }
    None
}

/// `s` with item `k` of the comma-separated group `(a, b)` at `open` removed.
fn drop_item(s: &str, open: usize, k: usize) -> Option<String> {
    let (a, b) = group(s, open)?;
    let mut items: Vec<&str> =
        split_top_commas(&s[a..b]).into_iter().map(str::trim).filter(|x| !x.is_empty()).collect();
    if k >= items.len() {
        return None;
    }
    items.remove(k);
    Some(format!("{}{}{}", &s[..a], items.join(", "), &s[b..]))
}

/// The lines that call `sym` (`call @f(` / `func.call @f(`).
fn call_lines(p: &Parsed, sym: &str) -> Vec<usize> {
    let pat = format!("call {sym}(");
    (0..p.lines.len()).filter(|&i| p.lines[i].contains(&pat)).collect()
}

/// Drops an unused parameter of a function and the matching operand of
/// every call.
fn drop_params(p: &Parsed, op: OpId) -> Vec<Candidate> {
    let Some((sym, sig)) = function(p, op) else { return Vec::new() };
    // A declaration (`func.func private @printMemrefI32(...)`) has no body,
    // so no parameter it could drop.
    let Some(&body) = p.m.regions(op).first() else { return Vec::new() };
    let Some(&entry) = p.m.region(body).blocks.first() else { return Vec::new() };
    let used = |v| (0..p.m.ops.len()).any(|u| p.m.operands(OpId(u as u32)).contains(&v));
    let calls = call_lines(p, &sym);
    let mut out = Vec::new();
    for (k, arg) in p.m.args(entry).enumerate() {
        if used(arg) {
            continue;
        }
        let mut lines = p.lines.clone();
        let mut edit = || -> Option<()> {
            let open = lines[sig].find(&format!("{sym}("))? + sym.len();
            lines[sig] = drop_item(&lines[sig], open, k)?;
            for &c in &calls {
                let open = lines[c].find(&format!("{sym}("))? + sym.len();
                let l = drop_item(&lines[c], open, k)?;
                // The callee's input types: the group after ` : `.
                let colon = l.rfind(" : (")? + 3;
                lines[c] = drop_item(&l, colon, k)?;
            }
            Some(())
        };
        if edit().is_some() {
            out.push(Candidate { text: lines.join("\n") + "\n", what: format!("dropped parameter {k} of {sym}") });
        }
    }
    out
}

/// Drops a result of a function that no call uses: from its signature, its
/// returns, and its calls (renumbering `%r#j`).
fn drop_results(p: &Parsed, op: OpId) -> Vec<Candidate> {
    let Some((sym, sig)) = function(p, op) else { return Vec::new() };
    let calls: Vec<OpId> = (0..p.m.ops.len() as u32)
        .map(OpId)
        .filter(|&c| {
            p.m.op_name(c) == "func.call" && p.lines[p.line(p.m.op(c).span.start)].contains(&format!("call {sym}("))
        })
        .collect();
    let used = |v| (0..p.m.ops.len()).any(|u| p.m.operands(OpId(u as u32)).contains(&v));
    let returns: Vec<usize> = (0..p.m.ops.len() as u32)
        .map(OpId)
        .filter(|&r| p.m.op_name(r) == "func.return" && p.m.parent_op(r) == Some(op))
        .map(|r| p.line(p.m.op(r).span.start))
        .collect();
    let n = calls.first().map_or(0, |c| p.m.results(*c).len());
    let mut out = Vec::new();
    for k in 0..n {
        if calls.iter().any(|c| used(p.m.result(*c, k))) {
            continue;
        }
        let mut lines = p.lines.clone();
        let mut edit = || -> Option<()> {
            lines[sig] = drop_result_type(&lines[sig], k, n)?;
            for &r in &returns {
                lines[r] = drop_return_operand(&lines[r], k, n)?;
            }
            for c in &calls {
                let line = p.line(p.m.op(*c).span.start);
                let (lhs, rhs) = lines[line].split_once(" = ")?;
                let rhs = drop_result_type(rhs, k, n)?;
                let indent: String = lhs.chars().take_while(|c| c.is_whitespace()).collect();
                let name = lhs.trim().split(':').next()?.to_string();
                lines[line] = match n - 1 {
                    0 => format!("{indent}{}", rhs.trim_start()),
                    1 if n == 2 => format!("{indent}{name}:1 = {rhs}"),
                    m => format!("{indent}{name}:{m} = {rhs}"),
                };
                // Uses of later results move down by one.
                for l in lines.iter_mut() {
                    for j in k + 1..n {
                        *l = replace_token(l, &format!("{name}#{j}"), &format!("{name}#{}", j - 1));
                    }
                }
            }
            Some(())
        };
        if edit().is_some() {
            out.push(Candidate { text: lines.join("\n") + "\n", what: format!("dropped result {k} of {sym}") });
        }
    }
    out
}

/// `... -> (A, B)` (or `-> A`, ending the line or before ` {`) without
/// result type `k` of `n`.
fn drop_result_type(line: &str, k: usize, n: usize) -> Option<String> {
    let arrow = line.rfind("-> ")?;
    let after = arrow + 3;
    if line[after..].starts_with('(') {
        let (a, b) = group(line, after)?;
        let mut items: Vec<&str> = split_top_commas(&line[a..b]).into_iter().map(str::trim).collect();
        if items.len() != n || k >= n {
            return None;
        }
        items.remove(k);
        let tail = &line[b + 1..];
        return Some(match items.len() {
            0 if tail.trim_start().starts_with('{') => format!("{}{}", line[..arrow].trim_end(), tail),
            0 => format!("{}() {}", &line[..after], tail.trim_start()).trim_end().to_string(),
            _ => format!("{}({}){tail}", &line[..after], items.join(", ")),
        });
    }
    // A single type without parentheses.
    if n != 1 {
        return None;
    }
    let end = line[after..].find(" {").map_or(line.len(), |i| after + i);
    let rest = &line[end..];
    Some(if rest.trim_start().starts_with('{') {
        format!("{}{rest}", line[..arrow].trim_end())
    } else {
        format!("{}(){rest}", &line[..after])
    })
}

/// `return %a, %b : A, B` without operand `k` of `n`.
fn drop_return_operand(line: &str, k: usize, n: usize) -> Option<String> {
    let at = line.find("return")?;
    let (head, tys) = line.split_once(" : ")?;
    let ops: Vec<&str> = head[at + "return".len()..].split(',').map(str::trim).collect();
    let mut tys: Vec<&str> = split_top_commas(tys).into_iter().map(str::trim).collect();
    if ops.len() != n || tys.len() != n {
        return None;
    }
    let mut ops = ops;
    ops.remove(k);
    tys.remove(k);
    let indent = &line[..at];
    Some(if ops.is_empty() {
        format!("{indent}return")
    } else {
        format!("{indent}return {} : {}", ops.join(", "), tys.join(", "))
    })
}

/// `line` with every whole-token `from` replaced by `to`.
fn replace_token(line: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find(from) {
        let end = i + from.len();
        let whole = !rest[end..].chars().next().is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        out.push_str(&rest[..i]);
        out.push_str(if whole { to } else { from });
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Every shape dimension `N` > 1 (`vector<Nx`, `memref<Nx`, `tensor<Nx`,
/// `x N x`) halved throughout the program, with literal lists of `N`
/// elements cut to their first half and static positions taken modulo the
/// new size: one candidate per distinct `N`. Most such edits break the
/// program and fail to verify; the ones that verify keep shapes small.
fn halve_shapes(text: &str) -> Vec<Candidate> {
    let mut sizes: Vec<u64> = Vec::new();
    let bytes = text.as_bytes();
    for (i, _) in text.match_indices('x') {
        // A dimension: digits right before an `x` that follows `<` or `x`.
        let start = text[..i].rfind(|c: char| !c.is_ascii_digit()).map_or(0, |k| k + 1);
        if start < i && start > 0 && matches!(bytes[start - 1], b'<' | b'x') {
            if let Ok(n) = text[start..i].parse::<u64>() {
                if n > 1 && !sizes.contains(&n) {
                    sizes.push(n);
                }
            }
        }
    }
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    sizes
        .into_iter()
        .map(|n| {
            let h = n / 2;
            let mut out = String::with_capacity(text.len());
            let mut i = 0;
            while i < text.len() {
                let rest = &text[i..];
                let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                let prev = text.as_bytes()[..i].last().copied();
                if digits > 0
                    && matches!(prev, Some(b'<' | b'x'))
                    && rest[digits..].starts_with('x')
                    && rest[..digits] == *n.to_string()
                {
                    out.push_str(&h.to_string());
                    i += digits;
                } else if rest.starts_with('[') {
                    // A literal list or a position list: keep the first half of
                    // an `n`-element list, positions modulo `h`.
                    match group(text, i).map(|(a, b)| (a, b, split_top_commas(&text[a..b]))) {
                        Some((_, b, items)) if items.len() as u64 == n => {
                            let kept: Vec<&str> = items[..h as usize].iter().map(|x| x.trim()).collect();
                            out.push('[');
                            out.push_str(&kept.join(", "));
                            out.push(']');
                            i = b + 1;
                        }
                        Some((a, b, items))
                            if items.iter().all(|x| x.trim().parse::<u64>().is_ok())
                                && prev.is_some_and(|c| c.is_ascii_alphanumeric() || c == b' ')
                                && b > a =>
                        {
                            let pos: Vec<String> = items
                                .iter()
                                .map(|x| (x.trim().parse::<u64>().unwrap_or(0) % h.max(1)).to_string())
                                .collect();
                            out.push('[');
                            out.push_str(&pos.join(", "));
                            out.push(']');
                            i = b + 1;
                        }
                        _ => {
                            out.push('[');
                            i += 1;
                        }
                    }
                } else {
                    let c = rest.chars().next().unwrap_or(' ');
                    out.push(c);
                    i += c.len_utf8();
                }
            }
            Candidate { text: out, what: format!("halved every dimension of size {n}") }
        })
        .collect()
}

/// A constant's integer literal towards 0 (0, 1, half), a float's to 0.0
/// and 1.0.
fn shrink(p: &Parsed, op: OpId) -> Vec<Candidate> {
    if p.m.op_name(op) != "arith.constant" {
        return Vec::new();
    }
    let a = p.line(p.m.op(op).span.start);
    let line = &p.lines[a];
    let Some(at) = line.find("arith.constant ") else { return Vec::new() };
    let body = &line[at + "arith.constant ".len()..];
    let (lit, ty) = match body.rsplit_once(" : ") {
        Some((l, t)) => (l.trim(), Some(t)),
        None => (body.trim(), None),
    };
    let Some(ty) = ty else { return Vec::new() };
    let mut outs: Vec<String> = Vec::new();
    if let Ok(v) = lit.parse::<i128>() {
        for w in [0, 1, v / 2] {
            if w != v && !outs.contains(&w.to_string()) && (w.abs() < v.abs()) {
                outs.push(w.to_string());
            }
        }
    } else if lit.parse::<f64>().is_ok() || lit.starts_with("0x") {
        // Towards 0.0 by the order 0.0 < 1.0 < anything else, so two
        // literals that both keep the property cannot alternate forever.
        if lit != "0.0" {
            outs.push("0.0".to_string());
        }
        if lit != "0.0" && lit != "1.0" {
            outs.push("1.0".to_string());
        }
    } else if lit.starts_with("dense<[") {
        outs.push(if ty.contains('f') && !ty.contains("xi") { "dense<0.0>" } else { "dense<0>" }.to_string());
    }
    outs.into_iter()
        .map(|w| Candidate {
            text: p.splice(a, a + 1, Some(format!("{}arith.constant {w} : {ty}", &line[..at]))),
            what: format!("shrank the constant at line {} to {w}", a + 1),
        })
        .collect()
}

/// Checks that the property holds for the program as given (a reduction
/// needs a starting point), describing why not.
pub fn check_start(text: &str, prop: &Property) -> Result<(), String> {
    if Parsed::of(text).is_none() {
        return Err("the program does not verify here".to_string());
    }
    if prop.holds(text) {
        return Ok(());
    }
    Err(match prop {
        Property::Miscompile { .. } => "passcheck finds no miscompile in the program to start from".to_string(),
        Property::Test { .. } => "the program is not interesting to start with: the test does not exit 0, or the program has undefined behaviour here".to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROG: &str = "func.func @main() {
  %c1 = arith.constant 1 : i32
  %c7 = arith.constant 700 : i32
  %a = arith.addi %c1, %c7 : i32
  %b = arith.muli %a, %a : i32
  %t = arith.constant true
  cf.cond_br %t, ^bb1(%b : i32), ^bb2
^bb1(%x: i32):
  vector.print %x : i32
  cf.br ^bb2
^bb2:
  return
}
";

    #[test]
    fn candidates_are_valid_edits() {
        let dels = candidates(PROG, Edit::DeleteOp);
        // Only ops whose results nothing uses: none here but the prints.
        assert!(dels.iter().all(|c| Parsed::of(&c.text).is_some()), "every deletion verifies");
        assert!(dels.iter().any(|c| !c.text.contains("vector.print")));
        let consts = candidates(PROG, Edit::Constant);
        assert!(consts.iter().any(|c| c.text.contains("%b = arith.constant 0 : i32")));
        let br = candidates(PROG, Edit::Branch);
        assert_eq!(br.len(), 2);
        assert!(br[0].text.contains("  cf.br ^bb1(%b : i32)\n") && br[1].text.contains("  cf.br ^bb2\n"));
        let by = candidates(PROG, Edit::Bypass);
        assert!(by.iter().all(|c| Parsed::of(&c.text).is_some()), "bypassing keeps the program valid");
        // %b by %a (once, though it reads %a twice); %a by %c1 or by %c7.
        assert_eq!(by.len(), 3);
        assert!(by[0].text.contains("^bb1(%a : i32)") && !by[0].text.contains("arith.muli"), "{}", by[0].text);
        assert!(by[2].text.contains("%b = arith.muli %c7, %c7 : i32"), "{}", by[2].text);
        let shrunk = candidates(PROG, Edit::Shrink);
        assert!(shrunk.iter().any(|c| c.text.contains("arith.constant 350 : i32")));
    }

    #[test]
    fn blocks_nothing_branches_to_go() {
        let text = PROG.replace("cf.cond_br %t, ^bb1(%b : i32), ^bb2", "cf.br ^bb2");
        let c = candidates(&text, Edit::DeleteBlock);
        assert_eq!(c.len(), 1);
        assert!(!c[0].text.contains("^bb1") && Parsed::of(&c[0].text).is_some(), "{}", c[0].text);
    }

    #[test]
    fn unused_parameters_and_results_go() {
        let text = "func.func @f(%a: i32, %b: i64) -> (i32, i64, i8) {
  %c = arith.constant 1 : i8
  return %a, %b, %c : i32, i64, i8
}
func.func @main() {
  %x = arith.constant 1 : i32
  %y = arith.constant 2 : i64
  %r:3 = call @f(%x, %y) : (i32, i64) -> (i32, i64, i8)
  vector.print %r#2 : i8
  return
}
";
        let sig = candidates(text, Edit::Signature);
        let ok: Vec<&Candidate> = sig.iter().filter(|c| Parsed::of(&c.text).is_some()).collect();
        assert_eq!(ok.len(), sig.len(), "every edit verifies: {:?}", sig.iter().map(|c| &c.text).collect::<Vec<_>>());
        // Only result 2 is printed: results 0 and 1 can go, then the
        // parameters that fed them.
        let r0 = sig.iter().find(|c| c.what == "dropped result 0 of @f").expect("result 0");
        assert!(r0.text.contains("-> (i64, i8) {") && r0.text.contains("return %b, %c : i64, i8"), "{}", r0.text);
        assert!(
            r0.text.contains("%r:2 = call @f(%x, %y) : (i32, i64) -> (i64, i8)") && r0.text.contains("%r#1 : i8"),
            "{}",
            r0.text
        );
        let mut t = r0.text.clone();
        let next = candidates(&t, Edit::Signature);
        t = next.iter().find(|c| c.what == "dropped result 0 of @f").expect("another result").text.clone();
        assert!(t.contains("func.func @f(%a: i32, %b: i64) -> (i8) {") && t.contains("%r:1 = call"), "{t}");
        assert!(t.contains("vector.print %r#0 : i8") && Parsed::of(&t).is_some(), "{t}");
        let p = candidates(&t, Edit::Signature);
        let p0 = p.iter().find(|c| c.what == "dropped parameter 0 of @f").expect("param 0");
        assert!(p0.text.contains("func.func @f(%b: i64)") && p0.text.contains("call @f(%y) : (i64) ->"), "{}", p0.text);
        assert!(Parsed::of(&p0.text).is_some(), "{}", p0.text);
    }

    /// Every edit makes the program smaller by some order, so a reduction
    /// ends: here a float constant that may be anything still settles.
    #[test]
    fn shrinking_floats_terminates() {
        let text = "func.func @main() {\n  %x = arith.constant 2.5 : f32\n  vector.print %x : f32\n  return\n}\n";
        let next = |t: &str| candidates(t, Edit::Shrink).into_iter().map(|c| c.text).collect::<Vec<_>>();
        let one = next(text);
        assert_eq!(one.len(), 2);
        assert_eq!(next(&one[1]).len(), 1, "1.0 only goes to 0.0");
        assert!(next(&one[0]).is_empty(), "0.0 is the end");
    }

    #[test]
    fn shapes_halve() {
        let text = "func.func @main() {
  %v = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
  %e = vector.extract %v[3] : i32 from vector<4xi32>
  vector.print %e : i32
  return
}
";
        let c = candidates(text, Edit::Shape);
        assert_eq!(c.len(), 1);
        let t = &c[0].text;
        assert!(
            t.contains("dense<[1, 2]> : vector<2xi32>") && t.contains("vector.extract %v[1] : i32 from vector<2xi32>"),
            "{t}"
        );
        assert!(Parsed::of(t).is_some(), "{t}");
    }

    #[test]
    fn symbols_are_whole_tokens() {
        assert!(mentions("call @f(%x)", "@f") && !mentions("call @fa(%x)", "@f"));
    }
}
