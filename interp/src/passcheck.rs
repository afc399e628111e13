//! `mlir-interp passcheck FILE --passes PIPELINE`: does a pass pipeline
//! preserve the meaning of a program? The optimizer (mlir-opt, or any
//! command given with `--opt`) transforms FILE; this engine runs the entry
//! function of the source and of the result on the same inputs and judges
//! each input by refinement: where the source is defined, the target must
//! print the same lines, end the same way and return the same values; where
//! the source has undefined behaviour (or returns poison), anything the
//! target does is allowed.
//!
//! `--each-pass` runs the pipeline one pass at a time and names the first
//! pass after which the meaning changes, with the IR it changed.

use crate::driver::on_engine_thread;
use crate::error::ErrorKind;
use crate::exec::{Config, Engine};
use crate::scalar::Scalar;
use crate::value::Value;
use mlir_ir::diag::Source;
use std::path::{Path, PathBuf};

/// What `passcheck` was asked to do.
#[derive(Clone, Debug)]
pub struct Options {
    /// The source program.
    pub file: String,
    /// The pass pipeline (`canonicalize,cse` or `builtin.module(...)`);
    /// `None` runs the optimizer without `--pass-pipeline`.
    pub passes: Option<String>,
    /// The optimizer command (`mlir-opt` when `None`), run through the
    /// shell as `CMD [--pass-pipeline=...] --mlir-print-op-generic FILE`,
    /// or with its `{file}` and `{passes}` placeholders filled in.
    pub opt: Option<String>,
    /// The entry function.
    pub entry: String,
    /// One input given on the command line (`--arg` texts).
    pub args: Vec<String>,
    /// How many random input sets when the entry takes parameters.
    pub inputs: usize,
    /// The seed of the first random input set.
    pub seed: u64,
    /// Check after every pass and name the first that changes the meaning.
    pub each_pass: bool,
    /// NaN payloads and signs count (by default any NaN equals any NaN, as
    /// LLVM lets passes choose them).
    pub nan_exact: bool,
    /// Where `--each-pass` keeps the module after every stage.
    pub ir_dir: Option<String>,
    /// How long the optimizer may take, per invocation.
    pub opt_timeout: std::time::Duration,
    /// The engine configuration of the source's runs; the target's gets
    /// more fuel (lowered code executes more ops for the same work).
    pub cfg: Config,
}

/// How much more fuel the target gets than the source.
const TARGET_FUEL_FACTOR: u64 = 16;

/// How one run ended, as far as refinement cares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// The entry returned these results.
    Returned(Vec<Res>),
    /// Undefined behaviour (or a result with no defined value): the
    /// diagnostic.
    Ub(String),
    /// A failed `cf.assert` or a call of `abort()`: defined behaviour.
    Aborted(String),
    /// Out of fuel, time, memory or call depth: nothing can be concluded.
    Undecided(String),
    /// The run could not happen (arguments that do not fit, an op this
    /// engine does not run, an interpreter bug).
    Unusable(String),
}

/// One result of the entry function, flattened for comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Res {
    /// Its type, as MLIR prints it.
    pub ty: String,
    /// Its text (`show::value`), for the report.
    pub text: String,
    /// Its elements in order, `None` where poison.
    pub elems: Vec<Option<String>>,
}

/// What one run printed and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// Everything the program printed.
    pub stdout: String,
    /// How it ended.
    pub end: End,
    /// The run chose between results the spec leaves open (the sign of a
    /// `maxnumf`/`minnumf` of +0 and -0), so zero signs do not count.
    pub unspecified_zero: bool,
}

/// The judgement on one input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Same output, same ending, same results.
    Same,
    /// The source is undefined there (which UB), so any target behaviour
    /// refines it; or the target is more defined where the source returned
    /// poison.
    Refines(String),
    /// The source is defined and the target differs: how.
    Miscompile(String),
    /// One side ran out of fuel, time or memory.
    Inconclusive(String),
    /// A side could not run at all.
    Unusable(String),
}

impl Verdict {
    /// The verdict's word in reports.
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Same => "same",
            Verdict::Refines(_) => "refines",
            Verdict::Miscompile(_) => "MISCOMPILE",
            Verdict::Inconclusive(_) => "inconclusive",
            Verdict::Unusable(_) => "unusable",
        }
    }
}

/// Splits a pipeline into the passes that run one after another:
/// `builtin.module(a,func.func(b,c))` gives `a`, `func.func(b)`,
/// `func.func(c)`. Commas inside options (`{...}`) do not split.
pub fn split_passes(pipeline: &str) -> Vec<String> {
    let inner = module_inner(pipeline);
    let mut out = Vec::new();
    for piece in split_top(inner) {
        match anchored(piece) {
            Some((anchor, body)) => {
                for p in split_passes(body) {
                    out.push(format!("{anchor}({p})"));
                }
            }
            None => out.push(piece.to_string()),
        }
    }
    out
}

/// The pass list inside `builtin.module(...)`, or the whole text.
fn module_inner(p: &str) -> &str {
    let p = p.trim();
    p.strip_prefix("builtin.module(").and_then(|r| r.strip_suffix(')')).unwrap_or(p)
}

/// `anchor(body)` for a nested pipeline (`func.func(cse)`), `None` for a
/// pass (whose options are in braces).
fn anchored(piece: &str) -> Option<(&str, &str)> {
    let open = piece.find('(')?;
    if piece.find('{').is_some_and(|b| b < open) {
        return None;
    }
    Some((&piece[..open], piece[open + 1..].strip_suffix(')')?))
}

/// The comma-separated items of `s` at nesting depth zero.
fn split_top(s: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0i32, 0, Vec::new());
    for (i, c) in s.char_indices() {
        match c {
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(s[start..].trim());
    out.retain(|p| !p.is_empty());
    out
}

/// The `--pass-pipeline` text of a pass list.
pub fn as_pipeline(passes: &str) -> String {
    format!("builtin.module({})", module_inner(passes))
}

/// Runs the optimizer on `input` and returns the module it printed.
///
/// A command with a `{file}` or `{passes}` placeholder runs with them
/// filled in (the input's path; the pipeline as `builtin.module(...)`),
/// both quoted for the shell, and nothing else added: a plain filter such
/// as `sed s/a/b/ {file}` works. Any other command, mlir-opt's included,
/// gets mlir-opt's arguments, `--mlir-print-op-generic` among them: the
/// generic form is the one every MLIR tool reads back (LLVM 22 prints a
/// `vector.print` of punctuation followed by an op that it then misreads
/// as the print's operand).
pub fn optimize(
    opt: Option<&str>,
    pipeline: Option<&str>,
    input: &Path,
    timeout: std::time::Duration,
) -> Result<String, String> {
    let tc = crate::differential::Toolchain::default();
    let mut cmd = std::process::Command::new("sh");
    let shown = match opt.filter(|c| has_placeholders(c)) {
        Some(c) => {
            let passes = pipeline.map_or(String::new(), |p| shell_quote(&as_pipeline(p)));
            let text = c.replace("{file}", &shell_quote(&input.display().to_string())).replace("{passes}", &passes);
            cmd.arg("-c").arg(&text);
            text
        }
        None => {
            let cmd_text = opt.map_or_else(|| shell_quote(&tc.mlir_opt), str::to_string);
            // The command goes through the shell (so `--opt 'heir-opt --foo'`
            // or a script works); its own arguments follow as "$@", quoted.
            cmd.arg("-c").arg(format!("{cmd_text} \"$@\"")).arg("passcheck");
            if let Some(p) = pipeline {
                cmd.arg(format!("--pass-pipeline={}", as_pipeline(p)));
            }
            cmd.arg("--mlir-print-op-generic").arg(input);
            format!(
                "{cmd_text}{} --mlir-print-op-generic {}",
                pipeline.map_or(String::new(), |p| format!(" --pass-pipeline='{}'", as_pipeline(p))),
                input.display()
            )
        }
    };
    let (code, out, err) = crate::differential::run_bounded(cmd, timeout).map_err(|e| format!("`{shown}` {e}"))?;
    if code != Some(0) {
        let how = code.map_or("was killed by a signal".to_string(), |c| format!("exited {c}"));
        return Err(format!("the optimizer failed (`{shown}` {how}):\n{err}"));
    }
    if out.trim().is_empty() {
        return Err(format!("the optimizer printed no module (`{shown}`):\n{err}"));
    }
    Ok(out)
}

/// Whether an `--opt` command says where its input and pipeline go.
pub fn has_placeholders(cmd: &str) -> bool {
    cmd.contains("{file}") || cmd.contains("{passes}")
}

/// `text` as LLVM 22's mlir-opt prints it in custom form, for people to
/// read (the modules passed between stages are generic); `text` itself
/// when mlir-opt cannot read it (a dialect it does not know).
fn readable(text: &str, timeout: std::time::Duration) -> String {
    let tc = crate::differential::Toolchain::default();
    let Ok(f) = TempFile::with(text, "passcheck-show") else { return text.to_string() };
    let mut cmd = std::process::Command::new(&tc.mlir_opt);
    cmd.arg(&f.0);
    match crate::differential::run_bounded(cmd, timeout) {
        Ok((Some(0), out, _)) if !out.trim().is_empty() => out,
        _ => text.to_string(),
    }
}

/// `s` quoted for `sh`.
fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// Runs `entry` of the module in `text` once per input set. `Err` when the
/// module does not parse or verify here.
pub fn observe_all(
    name: &str,
    text: &str,
    entry: &str,
    inputs: &[Vec<String>],
    cfg: &Config,
    nan_exact: bool,
) -> Result<Vec<Observation>, String> {
    let src = Source::new(name, text);
    let m = mlir_ir::parse_and_verify_with(&src, &crate::driver::limits()).map_err(|d| d.render(&src))?;
    let go = || inputs.iter().map(|args| observe(&m, &src, entry, args, cfg.clone(), nan_exact)).collect();
    on_engine_thread(cfg, go).map_err(|e| e.report().1)
}

/// One run of `entry` on `args`.
fn observe(
    m: &mlir_ir::Module,
    src: &Source,
    entry: &str,
    args: &[String],
    cfg: Config,
    nan_exact: bool,
) -> Observation {
    let choices = crate::sem::fp::unspecified_choices();
    let mut buf = Vec::new();
    let (r, res) = match Engine::load(m, cfg, Box::new(&mut buf)) {
        Ok(mut e) => {
            let mut res = Vec::new();
            let r = crate::args::entry_args(&mut e, src, entry, args).and_then(|a| {
                e.run_entry_then(entry, a, |e, vals| {
                    res = flatten_results(e, entry, vals, nan_exact);
                    Ok(())
                })
            });
            (r.map(|_| ()), res)
        }
        Err(err) => (Err(err), Vec::new()),
    };
    let stdout = String::from_utf8_lossy(&buf).into_owned();
    let end = match r {
        Ok(()) => End::Returned(res),
        Err(err) => {
            let diag = err.render(m, src);
            if let Some(why) = err.op.and_then(|op| unlowered_among_lowered(m, op)) {
                return Observation {
                    stdout: String::from_utf8_lossy(&buf).into_owned(),
                    end: End::Unusable(format!("{diag}{why}")),
                    unspecified_zero: false,
                };
            }
            match err.kind {
                ErrorKind::Ub(_)
                | ErrorKind::MemUb { .. }
                | ErrorKind::Poison { .. }
                | ErrorKind::NoDefinedResult(_) => End::Ub(diag),
                // A limit of the target the pipeline chose, not a wrong result.
                ErrorKind::RuntimeUnsupported(_) => End::Unusable(diag),
                ErrorKind::Assert(_) | ErrorKind::Abort | ErrorKind::RuntimeFatal(_) => End::Aborted(diag),
                ErrorKind::Fuel(_)
                | ErrorKind::CallDepth(_)
                | ErrorKind::MemoryLimit(_)
                | ErrorKind::TimeLimit(_)
                | ErrorKind::Resource(_) => End::Undecided(diag),
                ErrorKind::Unsupported(_)
                | ErrorKind::BadInput(_)
                | ErrorKind::BadArgument(_)
                | ErrorKind::Internal(_)
                | ErrorKind::Halted
                | ErrorKind::Interrupted => End::Unusable(diag),
            }
        }
    };
    Observation { stdout, end, unspecified_zero: crate::sem::fp::unspecified_choices() != choices }
}

/// Why the failure of `op` says nothing about the program: `op` is left
/// outside the LLVM dialect but works on a value the lowering already
/// converted (it comes through `builtin.unrealized_conversion_cast`), so
/// the pipeline stopped short around it (a `memref.realloc` without
/// `expand-realloc` before the lowering): such a module is not one
/// mlir-runner runs either, and this engine does not model memory
/// crossing the two dialects' views.
fn unlowered_among_lowered(m: &mlir_ir::Module, op: mlir_ir::ir::OpId) -> Option<String> {
    let name = m.op_name(op);
    if name.starts_with("llvm.") || name == "builtin.unrealized_conversion_cast" {
        return None;
    }
    let bridged = m.operands(op).iter().any(|v| match m.value(*v).def {
        mlir_ir::ir::ValueDef::Result(d, _) => m.op_name(d) == "builtin.unrealized_conversion_cast",
        mlir_ir::ir::ValueDef::Arg(..) => false,
    });
    bridged.then(|| {
        format!(
            "note: the pipeline left '{name}' unlowered on a value it already lowered (through \
             builtin.unrealized_conversion_cast): the module cannot run as lowered code, here or under mlir-runner"
        )
    })
}

/// The entry's results as [`Res`] (read before the module's destructors
/// run, while memrefs are live).
fn flatten_results(e: &Engine, entry: &str, vals: &[Value], nan_exact: bool) -> Vec<Res> {
    let Some(f) = e.func_by_name(entry) else { return Vec::new() };
    let func = &e.funcs[f.0 as usize];
    vals.iter()
        .zip(&func.results)
        .map(|(v, t)| {
            let mut elems = Vec::new();
            flatten(v, func.op, nan_exact, &mut elems);
            Res { ty: mlir_ir::printer::type_to_string(&e.m.ctx, *t), text: crate::show::value(v, func.op), elems }
        })
        .collect()
}

fn flatten(v: &Value, at: mlir_ir::ir::OpId, nan_exact: bool, out: &mut Vec<Option<String>>) {
    let atom = |s: Scalar| match s {
        Scalar::Poison(_) => None,
        Scalar::Float(f) if !nan_exact && crate::float::is_nan(f) => Some("nan".to_string()),
        s => Some(crate::show::scalar(&s)),
    };
    match v {
        Value::Scalar(_) | Value::Wide(_) => out.extend(v.scalar().map(atom)),
        Value::Array(d) => out.extend(d.iter().map(atom)),
        Value::Sparse(s) => match s.dense() {
            Ok(d) => out.extend(d.iter().map(atom)),
            Err(err) => out.push(Some(format!("<{err:?}>"))),
        },
        Value::Memref(mr) => match mr.read_all(at, "compare") {
            Ok(d) => out.extend(d.iter().map(atom)),
            Err(err) => out.push(Some(format!("<{}>", err.kind))),
        },
        Value::Agg(fs) => fs.iter().for_each(|f| flatten(f, at, nan_exact, out)),
        // Addresses differ between any two runs; they carry no meaning here.
        Value::Ptr(_) => out.push(Some("<pointer>".to_string())),
        Value::Func(_) => out.push(Some("<function>".to_string())),
        Value::Opaque => out.push(Some("<opaque>".to_string())),
    }
}

/// Judges the target's observation `t` against the source's `s`. Where
/// the source chose a zero's sign the spec leaves open, a difference only
/// in zero signs is a refinement.
pub fn judge(s: &Observation, t: &Observation, nan_exact: bool) -> Verdict {
    let v = judge_exact(s, t, nan_exact);
    if !s.unspecified_zero || !matches!(v, Verdict::Miscompile(_)) {
        return v;
    }
    match judge_exact(&unsigned_zeros(s), &unsigned_zeros(t), nan_exact) {
        Verdict::Same | Verdict::Refines(_) => Verdict::Refines(
            "the source's maxnumf/minnumf chose between +0 and -0, which the spec leaves open; the target chose the other"
                .to_string(),
        ),
        _ => v,
    }
}

/// `o` with every zero made +0 (in output lines and results).
fn unsigned_zeros(o: &Observation) -> Observation {
    let zero = |tok: &str| {
        if tok.starts_with('-') && tok.parse::<f64>().is_ok_and(|x| x == 0.0) {
            tok[1..].to_string()
        } else {
            tok.to_string()
        }
    };
    let line = |l: &str| {
        let (mut out, mut tok) = (String::new(), String::new());
        for c in l.chars() {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '+') {
                tok.push(c);
            } else {
                out.push_str(&zero(&tok));
                tok.clear();
                out.push(c);
            }
        }
        out.push_str(&zero(&tok));
        out
    };
    let stdout = o.stdout.lines().map(|l| line(l) + "\n").collect();
    let end = match &o.end {
        End::Returned(rs) => End::Returned(
            rs.iter()
                .map(|r| Res { elems: r.elems.iter().map(|e| e.as_deref().map(zero)).collect(), ..r.clone() })
                .collect(),
        ),
        e => e.clone(),
    };
    Observation { stdout, end, unspecified_zero: o.unspecified_zero }
}

fn judge_exact(s: &Observation, t: &Observation, nan_exact: bool) -> Verdict {
    match (&s.end, &t.end) {
        (End::Unusable(d), _) => return Verdict::Unusable(format!("the source cannot run here:\n{d}")),
        (End::Ub(d), _) => return Verdict::Refines(format!("the source has undefined behavior here:\n{d}")),
        (End::Undecided(d), _) => return Verdict::Inconclusive(format!("the source did not finish:\n{d}")),
        (_, End::Unusable(d)) => return Verdict::Unusable(format!("the target cannot run here:\n{d}")),
        (_, End::Undecided(d)) => return Verdict::Inconclusive(format!("the target did not finish:\n{d}")),
        _ => {}
    }
    if let End::Ub(d) = &t.end {
        return Verdict::Miscompile(format!("the target has undefined behavior where the source has none:\n{d}"));
    }
    if let Some(d) = first_line_difference(&s.stdout, &t.stdout, nan_exact) {
        return Verdict::Miscompile(d);
    }
    match (&s.end, &t.end) {
        (End::Returned(_), End::Aborted(d)) => {
            Verdict::Miscompile(format!("the target aborts, the source returns:\n{d}"))
        }
        (End::Aborted(d), End::Returned(_)) => {
            Verdict::Miscompile(format!("the source aborts, the target returns:\n{d}"))
        }
        (End::Aborted(_), End::Aborted(_)) => Verdict::Same,
        (End::Returned(a), End::Returned(b)) => compare_results(a, b),
        _ => Verdict::Unusable("unreachable combination of endings".to_string()),
    }
}

/// The first output line that differs, described.
fn first_line_difference(a: &str, b: &str, nan_exact: bool) -> Option<String> {
    let (x, y): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    (0..x.len().max(y.len())).find_map(|i| {
        let norm = |l: Option<&&str>| l.map(|l| crate::differential::normalize(l, nan_exact));
        if norm(x.get(i)) == norm(y.get(i)) {
            return None;
        }
        let show = |l: Option<&&str>| l.map_or("<no more output>".to_string(), |l| l.to_string());
        Some(format!("output line {}:\n  source: {}\n  target: {}", i + 1, show(x.get(i)), show(y.get(i))))
    })
}

/// Results compared element by element, a poison source element matching
/// anything.
fn compare_results(a: &[Res], b: &[Res]) -> Verdict {
    if a.len() != b.len() {
        return Verdict::Unusable(format!("the source's entry returns {} value(s), the target's {}", a.len(), b.len()));
    }
    let mut refined = None;
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        if x.ty != y.ty || x.elems.len() != y.elems.len() {
            return Verdict::Unusable(format!("result %{i} changed type ({} to {}): not comparable", x.ty, y.ty));
        }
        for (k, (p, q)) in x.elems.iter().zip(&y.elems).enumerate() {
            let at = if x.elems.len() > 1 { format!(" element {k}") } else { String::new() };
            match (p, q) {
                (None, Some(_)) => refined = Some(format!("result %{i}{at} is poison in the source")),
                (Some(_), None) => {
                    return Verdict::Miscompile(format!(
                        "result %{i}{at}: the source's is {}, the target's is poison\n  source: {}\n  target: {}",
                        p.as_deref().unwrap_or(""),
                        x.text,
                        y.text
                    ))
                }
                (Some(p), Some(q)) if p != q => {
                    return Verdict::Miscompile(format!(
                        "result %{i}{at}: {p} in the source, {q} in the target\n  source: {} : {}\n  target: {} : {}",
                        x.text, x.ty, y.text, y.ty
                    ))
                }
                _ => {}
            }
        }
    }
    refined.map_or(Verdict::Same, Verdict::Refines)
}

/// The input sets: the `--arg` values, none for an entry without
/// parameters, else `inputs` random sets.
pub(crate) fn input_sets(text: &str, o: &Options) -> Result<Vec<Vec<String>>, String> {
    if !o.args.is_empty() {
        return Ok(vec![o.args.clone()]);
    }
    let src = Source::new(o.file.as_str(), text);
    let m = mlir_ir::parse_and_verify_with(&src, &crate::driver::limits()).map_err(|d| d.render(&src))?;
    let (cfg, entry) = (o.cfg.clone(), o.entry.as_str());
    let sets = on_engine_thread(&cfg, || {
        let e = Engine::load(&m, cfg.clone(), Box::new(std::io::sink())).map_err(|err| err.render(&m, &src))?;
        let f = e.func_by_name(entry).ok_or_else(|| format!("error: no function named '@{entry}' to check"))?;
        if e.funcs[f.0 as usize].inputs.is_empty() {
            return Ok(vec![Vec::new()]);
        }
        Ok((0..o.inputs as u64).map(|i| crate::args::random_texts(&e, entry, o.seed.wrapping_add(i))).collect())
    });
    sets.map_err(|e| e.report().1)?
}

/// The entry and input a file names for itself.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct FileInput {
    /// `// ENTRY: f`.
    pub entry: Option<String>,
    /// The `--arg` values of `// ARGS: --arg '5' --arg '2'`.
    pub args: Vec<String>,
    /// The other words of the ARGS line (an exec fixture's run options,
    /// such as `--vscale 2`), which passcheck does not take from the file.
    pub other: Vec<String>,
}

/// The `// ENTRY:` and `// ARGS:` lines of `text`, as `reduce` writes them
/// into a reduced program so that it re-checks alone. `Err` for an ARGS
/// line that does not split into words.
pub fn file_input(text: &str) -> Result<FileInput, String> {
    let directive = |k: &str| text.lines().find_map(|l| l.trim().strip_prefix(k).map(str::trim));
    let entry = directive("// ENTRY:").filter(|e| !e.is_empty()).map(str::to_string);
    let Some(line) = directive("// ARGS:") else { return Ok(FileInput { entry, ..FileInput::default() }) };
    let (mut args, mut other) = (Vec::new(), Vec::new());
    let mut it = shell_words(line)?.into_iter();
    while let Some(w) = it.next() {
        match (w.as_str(), w.strip_prefix("--arg=")) {
            ("--arg", _) => args.push(it.next().ok_or("the // ARGS: line ends in --arg without a value")?),
            (_, Some(v)) => args.push(v.to_string()),
            _ => other.push(w),
        }
    }
    Ok(FileInput { entry, args, other })
}

/// `line` split into words as `sh` splits it (single and double quotes,
/// backslashes outside single quotes).
fn shell_words(line: &str) -> Result<Vec<String>, String> {
    let (mut out, mut cur, mut word) = (Vec::new(), String::new(), false);
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(x) => cur.push(x),
                        None => return Err(format!("unterminated quote in the // ARGS: line: {line}")),
                    }
                }
            }
            '"' => {
                word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => cur.extend(chars.next()),
                        Some(x) => cur.push(x),
                        None => return Err(format!("unterminated quote in the // ARGS: line: {line}")),
                    }
                }
            }
            '\\' => {
                word = true;
                cur.extend(chars.next());
            }
            c if c.is_whitespace() => {
                if word {
                    out.push(std::mem::take(&mut cur));
                    word = false;
                }
            }
            c => {
                word = true;
                cur.push(c);
            }
        }
    }
    if word {
        out.push(cur);
    }
    Ok(out)
}

/// The command-line form of an input set (each value quoted for `sh`).
pub fn shown(args: &[String]) -> String {
    if args.is_empty() {
        return "(no arguments)".to_string();
    }
    args.iter().map(|a| format!("--arg {}", shell_quote(a))).collect::<Vec<_>>().join(" ")
}

/// A temporary file that is removed when dropped.
pub(crate) struct TempFile(pub(crate) PathBuf);

impl TempFile {
    /// A new file holding `text`, named after `tag`.
    pub(crate) fn with(text: &str, tag: &str) -> Result<TempFile, String> {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let p = std::env::temp_dir().join(format!("mlir-interp-{tag}-{}-{n}.mlir", std::process::id()));
        std::fs::write(&p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
        Ok(TempFile(p))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The verdicts of one target against the source's observations.
pub struct Stage {
    /// One per input.
    pub verdicts: Vec<Verdict>,
}

impl Stage {
    /// The first input that miscompiles.
    pub fn first_miscompile(&self) -> Option<usize> {
        self.verdicts.iter().position(|v| matches!(v, Verdict::Miscompile(_)))
    }

    /// `3 same, 1 refines`.
    pub fn tally(&self) -> String {
        let mut parts = Vec::new();
        for w in ["same", "refines", "MISCOMPILE", "inconclusive", "unusable"] {
            let n = self.verdicts.iter().filter(|v| v.word() == w).count();
            if n > 0 {
                parts.push(format!("{n} {w}"));
            }
        }
        parts.join(", ")
    }
}

/// Runs the target module `text` on every input and judges it.
fn check_target(
    name: &str,
    text: &str,
    o: &Options,
    inputs: &[Vec<String>],
    src: &[Observation],
) -> Result<Stage, String> {
    let mut cfg = o.cfg.clone();
    cfg.max_steps = cfg.max_steps.map(|n| n.saturating_mul(TARGET_FUEL_FACTOR));
    let obs = observe_all(name, text, &o.entry, inputs, &cfg, o.nan_exact)
        .map_err(|d| format!("this engine cannot read the optimized module:\n{d}"))?;
    Ok(Stage { verdicts: src.iter().zip(&obs).map(|(s, t)| judge(s, t, o.nan_exact)).collect() })
}

/// Whether the pipeline miscompiles `text` on one of `inputs` (for the
/// reducer): `Err` when the optimizer or a run cannot be used.
pub(crate) fn miscompiles(o: &Options, text: &str, inputs: &[Vec<String>]) -> Result<bool, String> {
    let src_obs = observe_all("<source>", text, &o.entry, inputs, &o.cfg, o.nan_exact)?;
    if src_obs.iter().all(|s| !matches!(s.end, End::Returned(_) | End::Aborted(_))) {
        return Ok(false);
    }
    let f = TempFile::with(text, "passcheck")?;
    let target = optimize(o.opt.as_deref(), o.passes.as_deref(), &f.0, o.opt_timeout)?;
    Ok(check_target("<optimized>", &target, o, inputs, &src_obs)?.first_miscompile().is_some())
}

/// One check of FILE against the whole pipeline: the inputs, the source's
/// observations and the verdicts.
pub struct Checked {
    /// The input sets.
    pub inputs: Vec<Vec<String>>,
    /// The source's runs.
    pub source: Vec<Observation>,
    /// The verdict per input.
    pub stage: Stage,
    /// The source text.
    pub text: String,
}

/// Checks FILE against the whole pipeline.
pub fn run_check(o: &Options) -> Result<Checked, String> {
    let source = crate::driver::read_source(&o.file).map_err(|e| format!("error: {e}"))?;
    let inputs = input_sets(&source.text, o)?;
    let src_obs = observe_all(&o.file, &source.text, &o.entry, &inputs, &o.cfg, o.nan_exact)?;
    if let Some(End::Unusable(d)) = src_obs.iter().map(|s| &s.end).find(|e| matches!(e, End::Unusable(_))) {
        return Err(format!("the source cannot run here:\n{d}"));
    }
    let target = optimize(o.opt.as_deref(), o.passes.as_deref(), Path::new(&o.file), o.opt_timeout)?;
    let stage = check_target("<optimized>", &target, o, &inputs, &src_obs)?;
    Ok(Checked { inputs, source: src_obs, stage, text: source.text })
}

/// The input sets on which the pipeline miscompiles FILE (for the reducer).
pub(crate) fn failing_inputs(o: &Options) -> Result<Vec<Vec<String>>, String> {
    let c = run_check(o)?;
    Ok(c.inputs
        .into_iter()
        .zip(&c.stage.verdicts)
        .filter(|(_, v)| matches!(v, Verdict::Miscompile(_)))
        .map(|(i, _)| i)
        .collect())
}

/// The first pass after which an input miscompiles.
pub(crate) struct BadPass {
    /// Its position (0-based) among `of` passes.
    pub index: usize,
    /// How many passes the pipeline has.
    pub of: usize,
    /// The pass, as run (`func.func(cse)`).
    pub pass: String,
    /// The module before and after it.
    pub before: String,
    /// The module after it.
    pub after: String,
    /// The verdicts after it.
    pub stage: Stage,
}

/// What `first_bad_pass` shows each stage to: its number, the pass, the
/// IR after it and its verdicts.
type OnStage<'a> = &'a mut dyn FnMut(usize, &str, &str, &Stage) -> Result<(), String>;

/// Runs the pipeline one pass at a time on `source`, checking each stage
/// against `src_obs`; `on_stage` sees every stage. `Ok(None)` when no
/// stage miscompiles (`last` gets the final stage's verdicts).
pub(crate) fn first_bad_pass(
    o: &Options,
    source: &str,
    inputs: &[Vec<String>],
    src_obs: &[Observation],
    on_stage: OnStage<'_>,
    last: &mut Option<Stage>,
) -> Result<Option<BadPass>, String> {
    let passes = o.passes.as_deref().map(split_passes).unwrap_or_default();
    if passes.is_empty() {
        return Err("error: --each-pass needs --passes with at least one pass".to_string());
    }
    // The module as mlir-opt prints it without passes, so the first pass's
    // diff shows what it did rather than how the printer formats. Another
    // optimizer may not be one that passes nothing through unchanged (a
    // filter applies itself whatever the pipeline): it gets the source.
    let printed = match o.opt {
        Some(_) => Ok(source.to_string()),
        None => TempFile::with(source, "passcheck").and_then(|f| optimize(None, Some(""), &f.0, o.opt_timeout)),
    };
    let mut before = printed.unwrap_or_else(|_| source.to_string());
    for (k, pass) in passes.iter().enumerate() {
        let input = TempFile::with(&before, "passcheck")?;
        let after = optimize(o.opt.as_deref(), Some(pass), &input.0, o.opt_timeout)?;
        let stage = check_target(&format!("<after {pass}>"), &after, o, inputs, src_obs)?;
        on_stage(k, pass, &after, &stage)?;
        if stage.first_miscompile().is_some() {
            // Both readable when either is generic, so the diff compares like with like.
            let generic = |t: &str| t.contains("\"builtin.module\"()");
            let (before, after) = if generic(&before) || generic(&after) {
                (readable(&before, o.opt_timeout), readable(&after, o.opt_timeout))
            } else {
                (before, after)
            };
            return Ok(Some(BadPass { index: k, of: passes.len(), pass: pass.clone(), before, after, stage }));
        }
        before = after;
        *last = Some(stage);
    }
    Ok(None)
}

/// Prints each input's verdict (the reasons of all but `same`).
fn report(stage: &Stage, inputs: &[Vec<String>]) {
    for (i, (v, args)) in stage.verdicts.iter().zip(inputs).enumerate() {
        let why = match v {
            Verdict::Same => String::new(),
            Verdict::Refines(d) | Verdict::Miscompile(d) | Verdict::Inconclusive(d) | Verdict::Unusable(d) => {
                format!("\n  {}", d.trim_end().replace('\n', "\n  "))
            }
        };
        println!("input {}: {}: {}{why}", i + 1, shown(args), v.word());
    }
}

/// The exit status for a set of verdicts: 1 on a miscompile, 2 when no
/// input reached a verdict (or a side could not run), else 0.
fn status(stage: &Stage) -> i32 {
    if stage.first_miscompile().is_some() {
        return 1;
    }
    if stage.verdicts.iter().any(|v| matches!(v, Verdict::Unusable(_))) {
        return 2;
    }
    if stage.verdicts.iter().all(|v| matches!(v, Verdict::Inconclusive(_))) {
        eprintln!("error: no input finished on both sides; raise --max-steps or --timeout");
        return 2;
    }
    0
}

/// `mlir-interp passcheck`: exit 0 when no input shows a miscompile, 1 when
/// one does, 2 when the check cannot be made.
pub fn main(o: &Options) -> i32 {
    match check(o) {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("{}", msg.trim_end());
            2
        }
    }
}

fn check(o: &Options) -> Result<i32, String> {
    if o.file == "-" {
        return Err("error: passcheck needs a file: the optimizer reads it too".to_string());
    }
    if o.each_pass {
        return each_pass(o);
    }
    let c = run_check(o)?;
    report(&c.stage, &c.inputs);
    println!("passcheck: {} input(s): {}", c.inputs.len(), c.stage.tally());
    Ok(status(&c.stage))
}

/// `--each-pass`: the pipeline one pass at a time, each stage checked
/// against the source; stops at the first stage with a miscompile.
fn each_pass(o: &Options) -> Result<i32, String> {
    let source = crate::driver::read_source(&o.file).map_err(|e| format!("error: {e}"))?;
    let inputs = input_sets(&source.text, o)?;
    let src_obs = observe_all(&o.file, &source.text, &o.entry, &inputs, &o.cfg, o.nan_exact)?;
    if let Some(End::Unusable(d)) = src_obs.iter().map(|s| &s.end).find(|e| matches!(e, End::Unusable(_))) {
        return Err(format!("the source cannot run here:\n{d}"));
    }
    if let Some(dir) = &o.ir_dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("error: cannot create {dir}: {e}"))?;
    }
    let n = o.passes.as_deref().map(split_passes).unwrap_or_default().len();
    let mut show = |k: usize, pass: &str, after: &str, stage: &Stage| {
        if let Some(dir) = &o.ir_dir {
            let name =
                pass.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect::<String>();
            let p = Path::new(dir).join(format!("{:02}-{name}.mlir", k + 1));
            std::fs::write(&p, after).map_err(|e| format!("error: cannot write {}: {e}", p.display()))?;
        }
        println!("after pass {}/{n} '{pass}': {}", k + 1, stage.tally());
        Ok(())
    };
    let mut last = None;
    match first_bad_pass(o, &source.text, &inputs, &src_obs, &mut show, &mut last)? {
        Some(bad) => {
            report(&bad.stage, &inputs);
            let pass = &bad.pass;
            println!("first pass that changes the meaning: '{pass}' (pass {} of {})", bad.index + 1, bad.of);
            match crate::textdiff::unified(&bad.before, &bad.after, 3) {
                Some(d) => println!("--- IR before '{pass}'\n+++ IR after '{pass}'\n{d}"),
                None => println!("IR before '{pass}':\n{}\nIR after '{pass}':\n{}", bad.before, bad.after),
            }
            Ok(1)
        }
        None => {
            let last = last.unwrap_or(Stage { verdicts: Vec::new() });
            report(&last, &inputs);
            println!("passcheck: {} input(s) after all {n} passes: {}", inputs.len(), last.tally());
            Ok(status(&last))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pipelines_split_into_passes() {
        assert_eq!(split_passes("canonicalize,cse"), ["canonicalize", "cse"]);
        assert_eq!(
            split_passes("builtin.module(lower-affine,func.func(cse,canonicalize{max-iterations=2}))"),
            ["lower-affine", "func.func(cse)", "func.func(canonicalize{max-iterations=2})"]
        );
        assert_eq!(split_passes("sccp, test-pass{list=1,2}"), ["sccp", "test-pass{list=1,2}"]);
        assert_eq!(as_pipeline("cse"), "builtin.module(cse)");
        assert_eq!(as_pipeline("builtin.module(cse)"), "builtin.module(cse)");
    }

    fn ret(elems: &[Option<&str>]) -> Observation {
        let elems: Vec<Option<String>> = elems.iter().map(|e| e.map(str::to_string)).collect();
        let r = Res { ty: "i32".into(), text: String::new(), elems };
        Observation { stdout: String::new(), end: End::Returned(vec![r]), unspecified_zero: false }
    }

    fn ending(end: End, stdout: &str) -> Observation {
        Observation { stdout: stdout.into(), end, unspecified_zero: false }
    }

    /// Refinement: a poison or UB source allows anything; a defined source
    /// allows nothing else.
    #[test]
    fn verdicts_follow_refinement() {
        assert_eq!(judge(&ret(&[Some("1")]), &ret(&[Some("1")]), false), Verdict::Same);
        assert!(matches!(judge(&ret(&[Some("1")]), &ret(&[Some("2")]), false), Verdict::Miscompile(_)));
        assert!(matches!(judge(&ret(&[None]), &ret(&[Some("2")]), false), Verdict::Refines(_)));
        assert!(matches!(judge(&ret(&[Some("1")]), &ret(&[None]), false), Verdict::Miscompile(_)));
        let ub = ending(End::Ub("division by zero".into()), "");
        assert!(matches!(judge(&ub, &ret(&[Some("7")]), false), Verdict::Refines(_)));
        assert!(matches!(judge(&ret(&[Some("7")]), &ub, false), Verdict::Miscompile(_)));
        let abort = ending(End::Aborted("assert".into()), "1\n");
        assert_eq!(judge(&abort, &ending(End::Aborted("abort()".into()), "1\n"), false), Verdict::Same);
        assert!(matches!(judge(&abort, &ending(End::Aborted("abort()".into()), "2\n"), false), Verdict::Miscompile(_)));
        let fuel = ending(End::Undecided("fuel".into()), "");
        assert!(matches!(judge(&ret(&[Some("1")]), &fuel, false), Verdict::Inconclusive(_)));
    }

    /// Zero signs count unless the source chose one the spec leaves open.
    #[test]
    fn unspecified_zero_signs() {
        let (mut a, b) =
            (ending(End::Returned(vec![]), "( 0, -0.5 )\n"), ending(End::Returned(vec![]), "( -0, -0.5 )\n"));
        assert!(matches!(judge(&a, &b, false), Verdict::Miscompile(_)));
        a.unspecified_zero = true;
        assert!(matches!(judge(&a, &b, false), Verdict::Refines(_)));
        let c = ending(End::Returned(vec![]), "( 0, 0.5 )\n");
        assert!(matches!(judge(&a, &c, false), Verdict::Miscompile(_)), "-0.5 is not a zero");
        let (mut x, y) = (ret(&[Some("0.0")]), ret(&[Some("-0.0")]));
        x.unspecified_zero = true;
        assert!(matches!(judge(&x, &y, false), Verdict::Refines(_)));
    }

    /// What `shown` writes, `file_input` reads back.
    #[test]
    fn args_lines_round_trip() {
        let args: Vec<String> = ["5", "-2", "dense<[1, 2]>", "it's"].map(String::from).to_vec();
        let text = format!("// ENTRY: f\n// ARGS: {}\nfunc.func @f() {{\n}}\n", shown(&args));
        assert_eq!(file_input(&text).unwrap(), FileInput { entry: Some("f".to_string()), args, other: Vec::new() });
        assert_eq!(file_input("// ARGS: --arg=\"a b\" --arg c\n").unwrap().args, ["a b", "c"]);
        assert_eq!(file_input("// ARGS: --vscale 2\n").unwrap().other, ["--vscale", "2"]);
        assert!(file_input("// ARGS: --arg 'x\n").is_err());
        assert_eq!(file_input("func.func @main() {\n}\n").unwrap(), FileInput::default());
    }

    #[test]
    fn output_lines_count() {
        let (a, b) = (ending(End::Returned(vec![]), "1\n2\n"), ending(End::Returned(vec![]), "1\n3\n"));
        match judge(&a, &b, false) {
            Verdict::Miscompile(d) => assert!(d.contains("output line 2") && d.contains("target: 3"), "{d}"),
            v => panic!("{v:?}"),
        }
        let (a, b) = (ending(End::Returned(vec![]), "( nan )\n"), ending(End::Returned(vec![]), "( -nan )\n"));
        assert_eq!(judge(&a, &b, false), Verdict::Same);
        assert!(matches!(judge(&a, &b, true), Verdict::Miscompile(_)));
    }
}
