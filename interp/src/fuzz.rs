//! `mlir-interp fuzz --passes PIPELINE --seeds A..B`: a campaign. For each
//! seed, `gen` makes a UB-free program, `passcheck` checks the pipeline on
//! it (on `@main`, and on `@f` with random inputs), optionally `diff`
//! compares this engine with mlir-runner; each failure is kept with its
//! seed, verdict and the first pass that changes the meaning, reduced, and
//! bucketed by that pass and the op it changed. Results go to files in
//! `--out`, so shards of a seed range run anywhere (GNU parallel, a Slurm
//! array, Ray tasks) and `--merge` sums them up.

use crate::gen::{self, Kind};
use crate::passcheck::{self, Verdict};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// A campaign's options.
#[derive(Clone, Debug)]
pub struct Options {
    /// The pipeline under test.
    pub passes: String,
    /// The optimizer command (`mlir-opt` when `None`).
    pub opt: Option<String>,
    /// The seeds, `start..end`.
    pub seeds: std::ops::Range<u64>,
    /// The kind of programs (`None`: each seed picks one in turn).
    pub kind: Option<Kind>,
    /// Program size.
    pub size: usize,
    /// Worker threads.
    pub jobs: usize,
    /// Where failures and the summary go.
    pub out: PathBuf,
    /// Random input sets for `@f` (0: only `@main`).
    pub inputs: usize,
    /// Also compare this engine with mlir-runner on each program.
    pub diff: bool,
    /// Reduce each miscompile.
    pub reduce: bool,
    /// The engine configuration of each run (with its timeout).
    pub cfg: crate::exec::Config,
    /// How long each optimizer invocation may take.
    pub opt_timeout: std::time::Duration,
    /// Stop starting programs after this long (the summary says how many ran).
    pub max_time: Option<std::time::Duration>,
}

/// Candidates a campaign's reduction of one failure may try (a campaign
/// must keep moving; `reduce` on the kept program can go further).
const FUZZ_REDUCE_LIMIT: usize = 3000;

/// The kinds seeds take in turn when no `--kind` is given.
const ROTATION: [Kind; 9] =
    [Kind::Mixed, Kind::Int, Kind::Float, Kind::Cf, Kind::Scf, Kind::Affine, Kind::Memref, Kind::Vector, Kind::Math];

/// One failure.
#[derive(Clone, Debug)]
struct Failure {
    seed: u64,
    kind: Kind,
    /// `MISCOMPILE`, `OPT-FAIL`, `DIFF`, `UNUSABLE` or `GENERATOR`.
    verdict: &'static str,
    /// The first pass that changes the meaning (or `-`).
    pass: String,
    /// What groups it with others: the op the pass changed, the optimizer's
    /// first error, the first differing line.
    bucket: String,
    /// The full report.
    report: String,
}

/// `--seeds A..B`.
pub fn parse_seeds(s: &str) -> Result<std::ops::Range<u64>, String> {
    let (a, b) = s.split_once("..").ok_or_else(|| format!("'{s}' is not a seed range A..B"))?;
    let num = |t: &str| t.trim().parse::<u64>().map_err(|_| format!("'{t}' is not a seed"));
    let (a, b) = (num(a)?, num(b)?);
    if a >= b {
        return Err(format!("the seed range {a}..{b} is empty"));
    }
    Ok(a..b)
}

/// Runs the campaign: exit 0 without failures, 1 with some, 2 when it
/// cannot run.
pub fn main(o: &Options) -> i32 {
    if let Err(e) = std::fs::create_dir_all(o.out.join("work")) {
        eprintln!("error: cannot create {}: {e}", o.out.display());
        return 2;
    }
    let start = std::time::Instant::now();
    let next = AtomicU64::new(o.seeds.start);
    let done = AtomicUsize::new(0);
    let failures: Mutex<Vec<Failure>> = Mutex::new(Vec::new());
    let total = (o.seeds.end - o.seeds.start) as usize;
    let tty = std::io::IsTerminal::is_terminal(&std::io::stderr());
    std::thread::scope(|s| {
        for _ in 0..o.jobs.max(1) {
            s.spawn(|| loop {
                if o.max_time.is_some_and(|t| start.elapsed() >= t) {
                    break;
                }
                let seed = next.fetch_add(1, Ordering::Relaxed);
                if seed >= o.seeds.end {
                    break;
                }
                let found = fuzz_one(o, seed);
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                let mut fs = failures.lock().unwrap_or_else(|p| p.into_inner());
                for f in found {
                    keep(o, &f);
                    eprintln!(
                        "{}fuzz: seed {}: {} {} {}",
                        if tty { "\r\x1b[K" } else { "" },
                        f.seed,
                        f.verdict,
                        f.pass,
                        f.bucket
                    );
                    fs.push(f);
                }
                let secs = start.elapsed().as_secs_f64();
                if tty {
                    eprint!("\r\x1b[K{}", progress(n, total, fs.len(), secs, o.max_time));
                } else if n.is_multiple_of(50) {
                    eprintln!("{}", progress(n, total, fs.len(), secs, o.max_time));
                }
            });
        }
    });
    if tty {
        eprintln!();
    }
    let mut fs = failures.into_inner().unwrap_or_else(|p| p.into_inner());
    fs.sort_by_key(|f| f.seed);
    let ran = done.into_inner();
    if ran < total {
        println!("fuzz: --max-time reached: ran seeds {}..{}", o.seeds.start, o.seeds.start + ran as u64);
    }
    let total = ran;
    let secs = start.elapsed().as_secs_f64();
    if let Err(e) = write_summary(o, &fs, total, secs) {
        eprintln!("error: {e}");
        return 2;
    }
    let _ = std::fs::remove_dir(o.out.join("work"));
    println!(
        "fuzz: {total} programs in {secs:.1} s ({:.2} programs/s), {} failures; results in {}",
        total as f64 / secs.max(1e-9),
        fs.len(),
        o.out.display()
    );
    print_buckets(
        &fs.iter().map(|f| (f.verdict.to_string(), f.pass.clone(), f.bucket.clone(), f.seed)).collect::<Vec<_>>(),
    );
    i32::from(!fs.is_empty())
}

/// The progress line: programs, failures, rate and the time left, which
/// is the sooner of the seeds' end at this rate and `--max-time`.
fn progress(n: usize, total: usize, failures: usize, secs: f64, max_time: Option<std::time::Duration>) -> String {
    let rate = n as f64 / secs.max(1e-9);
    let by_seeds = total.saturating_sub(n) as f64 / rate.max(1e-9);
    let left = max_time.map_or(by_seeds, |t| by_seeds.min((t.as_secs_f64() - secs).max(0.0)));
    let eta = if left >= 3600.0 * 24.0 { "more than a day".to_string() } else { format!("{left:.0} s") };
    format!("fuzz: {n}/{total} programs, {failures} failures, {rate:.1} programs/s, ETA {eta}")
}

/// Everything that fails for one seed.
fn fuzz_one(o: &Options, seed: u64) -> Vec<Failure> {
    let kind = o.kind.unwrap_or(ROTATION[(seed % ROTATION.len() as u64) as usize]);
    let fail = |verdict, pass: &str, bucket: &str, report: String| Failure {
        seed,
        kind,
        verdict,
        pass: pass.to_string(),
        bucket: bucket.to_string(),
        report,
    };
    let text = match gen::program(&gen::Options { seed, kind, size: o.size }) {
        Ok(t) => t,
        Err(gen::GenError(msg)) => return vec![fail("GENERATOR", "-", "generator bug", msg)],
    };
    let path = o.out.join("work").join(format!("seed-{seed}.mlir"));
    if let Err(e) = std::fs::write(&path, &text) {
        return vec![fail("UNUSABLE", "-", "cannot write", e.to_string())];
    }
    let mut out = Vec::new();
    let mut entries = vec![("main", 1)];
    if o.inputs > 0 {
        entries.push(("f", o.inputs));
    }
    for (entry, inputs) in entries {
        let popts = passcheck::Options {
            file: path.display().to_string(),
            passes: Some(o.passes.clone()),
            opt: o.opt.clone(),
            entry: entry.to_string(),
            args: Vec::new(),
            inputs,
            seed,
            each_pass: false,
            nan_exact: false,
            ir_dir: None,
            opt_timeout: o.opt_timeout,
            cfg: o.cfg.clone(),
        };
        match passcheck::run_check(&popts) {
            Err(msg) => {
                let (verdict, bucket) = classify_error(&msg);
                out.push(fail(verdict, "-", &bucket, msg));
                // The optimizer fails the same way for every entry.
                break;
            }
            Ok(c) => {
                if let Some(k) = c.stage.first_miscompile() {
                    out.push(miscompile(o, &popts, &c, k, seed, kind));
                    break;
                }
            }
        }
    }
    if o.diff {
        if let Some(f) = diff(o, &path, &text, seed, kind) {
            out.push(f);
        }
    }
    let _ = std::fs::remove_file(&path);
    out
}

/// An error of `run_check`: the optimizer's failure (a crash or a
/// rejected module: compiler bugs on a valid program) or ours.
fn classify_error(msg: &str) -> (&'static str, String) {
    if msg.contains("the optimizer failed") || msg.contains("the optimizer printed no module") {
        let crash = msg.contains("PLEASE submit a bug report")
            || msg.contains("killed by a signal")
            || msg.contains("Stack dump");
        let first = msg.lines().find(|l| l.contains("error:") && !l.starts_with("the optimizer")).unwrap_or("");
        let bucket = strip_location(first);
        return ("OPT-FAIL", if crash { format!("crash: {bucket}") } else { bucket });
    }
    ("UNUSABLE", strip_location(msg.lines().find(|l| l.contains("error")).unwrap_or(msg.lines().next().unwrap_or(""))))
}

/// `file:12:5: error: x` as `error: x`, with SSA names and numbers
/// blanked, so similar failures share a bucket.
fn strip_location(line: &str) -> String {
    let l = line.find("error:").map_or(line, |i| &line[i..]);
    let mut out = String::new();
    let mut chars = l.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '%' || c.is_ascii_digit() {
            while chars.peek().is_some_and(|d| d.is_ascii_alphanumeric() || *d == '_') {
                chars.next();
            }
            out.push(if c == '%' { '%' } else { '#' });
        } else {
            out.push(c);
        }
    }
    out.chars().take(120).collect()
}

/// A miscompile: its first pass, the op that pass changed, a reduction.
fn miscompile(
    o: &Options,
    popts: &passcheck::Options,
    c: &passcheck::Checked,
    k: usize,
    seed: u64,
    kind: Kind,
) -> Failure {
    let why = match &c.stage.verdicts[k] {
        Verdict::Miscompile(d) => d.clone(),
        v => v.word().to_string(),
    };
    let input = &c.inputs[k];
    let mut report = format!(
        "seed {seed} (mlir-interp gen --seed {seed} --kind {} --size {})\nentry @{}, input {}\npipeline: {}\nMISCOMPILE: {why}\n",
        kind.name(),
        o.size,
        popts.entry,
        if input.is_empty() { "(no arguments)".to_string() } else { input.join(" ") },
        o.passes
    );
    let (mut pass, mut bucket) = ("-".to_string(), "-".to_string());
    let one = vec![input.clone()];
    let src = vec![c.source[k].clone()];
    let mut last = None;
    let mut quiet = |_: usize, _: &str, _: &str, _: &passcheck::Stage| Ok(());
    if let Ok(Some(bad)) = passcheck::first_bad_pass(popts, &c.text, &one, &src, &mut quiet, &mut last) {
        pass = bad.pass.clone();
        let diff = crate::textdiff::unified(&bad.before, &bad.after, 2).unwrap_or_default();
        bucket = first_changed_op(&diff).unwrap_or_else(|| "-".to_string());
        report.push_str(&format!("first pass that changes the meaning: '{pass}'\n{diff}"));
    }
    if o.reduce {
        let prop = crate::reduce::Property::Miscompile {
            opts: passcheck::Options { args: input.clone(), ..popts.clone() },
            inputs: one.clone(),
        };
        let (reduced, _) = crate::reduce::reduce(&c.text, &prop, FUZZ_REDUCE_LIMIT, &mut |_| {});
        // With its entry and failing input, so `passcheck FILE --passes P` re-checks it.
        let kept = crate::reduce::with_input(&reduced, &popts.entry, input);
        let _ = std::fs::write(o.out.join(format!("seed-{seed}.reduced.mlir")), &kept);
        // The root cause is where the reduced program first goes wrong: the
        // pass that changes its meaning and the op of that pass's first
        // change. Every op it still holds (`signature`) over-splits: a
        // reduction that keeps one more op makes a bucket of its own.
        if let Some((p, op)) = root_cause(popts, &reduced, &one) {
            (pass, bucket) = (p, op);
        }
        report.push_str(&format!("reduced: {} ({})\n", signature(&reduced), bucket));
    }
    let _ = std::fs::write(o.out.join(format!("seed-{seed}.mlir")), &c.text);
    Failure { seed, kind, verdict: "MISCOMPILE", pass, bucket, report }
}

/// The pass at fault on the reduced program `text` and the op its first
/// change removes or rewrites (`-` when the diff shows none).
fn root_cause(popts: &passcheck::Options, text: &str, inputs: &[Vec<String>]) -> Option<(String, String)> {
    let obs = passcheck::observe_all(&popts.file, text, &popts.entry, inputs, &popts.cfg, popts.nan_exact).ok()?;
    let mut quiet = |_: usize, _: &str, _: &str, _: &passcheck::Stage| Ok(());
    let bad = passcheck::first_bad_pass(popts, text, inputs, &obs, &mut quiet, &mut None).ok()??;
    let diff = crate::textdiff::unified(&bad.before, &bad.after, 2).unwrap_or_default();
    Some((bad.pass, first_changed_op(&diff).unwrap_or_else(|| "-".to_string())))
}

/// The first op a diff removes or changes (`arith.addi`), for bucketing.
fn first_changed_op(diff: &str) -> Option<String> {
    diff.lines().filter(|l| l.starts_with('-') && !l.starts_with("---")).find_map(|l| {
        let body = l[1..].split_once(" = ").map_or(l[1..].trim(), |(_, r)| r.trim());
        let name: String = body.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == '_').collect();
        (name.contains('.') && name != "func.func" && name != "builtin.module").then_some(name)
    })
}

/// The ops a reduced program computes with (`arith.ori+arith.xori`),
/// leaving out constants, calls, returns and prints.
fn signature(text: &str) -> String {
    let mut ops: Vec<String> = text
        .lines()
        .filter_map(|l| {
            let body = l.split_once(" = ").map_or(l.trim(), |(_, r)| r.trim());
            let name: String =
                body.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == '_').collect();
            let boring = ["arith.constant", "func.call", "func.func", "func.return", "vector.print", "cf.br"];
            (name.contains('.') && !boring.contains(&name.as_str())).then_some(name)
        })
        .collect();
    ops.sort();
    ops.dedup();
    if ops.is_empty() {
        return "-".to_string();
    }
    ops.join("+")
}

/// This engine against mlir-runner on the program.
fn diff(o: &Options, path: &Path, text: &str, seed: u64, kind: Kind) -> Option<Failure> {
    use crate::differential::{first_difference, run_ours, run_reference, Toolchain, DEFAULT_PIPELINE};
    use crate::driver::EntryResult;
    let src = mlir_ir::diag::Source::new(path.display().to_string(), text);
    let ours = run_ours(&src, o.cfg.clone(), "main", EntryResult::Void);
    let timeout = o.cfg.timeout.unwrap_or(std::time::Duration::from_secs(60));
    let theirs = match run_reference(&Toolchain::default(), path, DEFAULT_PIPELINE, "main", EntryResult::Void, timeout)
    {
        Ok(t) => t,
        Err(e) => {
            let (verdict, bucket) = classify_error(&format!("the optimizer failed: {e}"));
            return Some(Failure { seed, kind, verdict, pass: "lowering".into(), bucket, report: e });
        }
    };
    let d = first_difference(&ours, &theirs, false)?;
    let _ = std::fs::write(o.out.join(format!("seed-{seed}.mlir")), text);
    let bucket = strip_location(d.lines().nth(1).unwrap_or("").trim());
    Some(Failure { seed, kind, verdict: "DIFF", pass: "-".into(), bucket, report: d })
}

/// Writes a failure's report.
fn keep(o: &Options, f: &Failure) {
    let _ = std::fs::write(
        o.out.join(format!("seed-{}.txt", f.seed)),
        format!("{}\nverdict: {}\nbucket: {} / {}\n", f.report.trim_end(), f.verdict, f.pass, f.bucket),
    );
}

/// `summary-A-B.tsv`: one row per failure, then the totals.
fn write_summary(o: &Options, fs: &[Failure], total: usize, secs: f64) -> Result<(), String> {
    // Named by the seeds that ran (a --max-time stop ends the range early),
    // so the next shard can start where this one stopped.
    let p = o.out.join(format!("summary-{}-{}.tsv", o.seeds.start, o.seeds.start + total as u64));
    let mut f = std::fs::File::create(&p).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    let mut text = String::from("# seed\tkind\tverdict\tpass\tbucket\n");
    for x in fs {
        let kind = x.kind.name();
        text.push_str(&format!("{}\t{kind}\t{}\t{}\t{}\n", x.seed, x.verdict, x.pass, x.bucket.replace('\t', " ")));
    }
    text.push_str(&format!("# programs\t{total}\tseconds\t{secs:.1}\tpipeline\t{}\n", o.passes));
    f.write_all(text.as_bytes()).map_err(|e| format!("cannot write {}: {e}", p.display()))
}

/// Failures grouped by verdict, pass and bucket, most frequent first.
fn print_buckets(rows: &[(String, String, String, u64)]) {
    let mut groups: Vec<((String, String, String), Vec<u64>)> = Vec::new();
    for (v, p, b, seed) in rows {
        let key = (v.clone(), p.clone(), b.clone());
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, seeds)) => seeds.push(*seed),
            None => groups.push((key, vec![*seed])),
        }
    }
    groups.sort_by_key(|g| std::cmp::Reverse(g.1.len()));
    for ((v, p, b), seeds) in groups {
        let shown: Vec<String> = seeds.iter().take(5).map(u64::to_string).collect();
        println!(
            "{:>5}  {v}  pass {p}  {b}  (seeds {}{})",
            seeds.len(),
            shown.join(", "),
            if seeds.len() > 5 { ", ..." } else { "" }
        );
    }
}

/// `fuzz --merge DIR...`: the summaries of many shards as one.
pub fn merge(dirs: &[String]) -> i32 {
    let (mut programs, mut secs, mut rows) = (0usize, 0f64, Vec::new());
    let mut files = 0;
    for d in dirs {
        let entries = match std::fs::read_dir(d) {
            Ok(e) => e,
            Err(e) => {
                eprintln!("error: cannot read {d}: {e}");
                return 2;
            }
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if !(name.starts_with("summary-") && name.ends_with(".tsv")) {
                continue;
            }
            files += 1;
            let text = std::fs::read_to_string(e.path()).unwrap_or_default();
            for line in text.lines() {
                let cols: Vec<&str> = line.split('\t').collect();
                if line.starts_with("# programs") {
                    programs += cols.get(1).and_then(|c| c.parse::<usize>().ok()).unwrap_or(0);
                    secs += cols.get(3).and_then(|c| c.parse::<f64>().ok()).unwrap_or(0.0);
                } else if !line.starts_with('#') && cols.len() >= 5 {
                    let seed = cols[0].parse().unwrap_or(0);
                    rows.push((cols[2].to_string(), cols[3].to_string(), cols[4].to_string(), seed));
                }
            }
        }
    }
    if files == 0 {
        eprintln!("error: no summary-*.tsv files in {}", dirs.join(", "));
        return 2;
    }
    println!("fuzz: {files} shard(s), {programs} programs, {secs:.0} CPU-seconds of shards, {} failures", rows.len());
    print_buckets(&rows);
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_and_buckets() {
        assert_eq!(parse_seeds("3..10"), Ok(3..10));
        assert!(parse_seeds("10..3").is_err() && parse_seeds("5").is_err());
        assert_eq!(
            strip_location("/tmp/x.mlir:12:5: error: 'arith.addi' op %v12 bad 42"),
            "error: 'arith.addi' op % bad #"
        );
        let d = "@@ -1,2 +1,2 @@\n-  %v3 = arith.muli %a, %b : i32\n+  %v3 = arith.addi %a, %b : i32\n";
        assert_eq!(first_changed_op(d).as_deref(), Some("arith.muli"));
        let reduced = "func.func @f(%a: i8) -> i8 {\n  %c = arith.constant 1 : i8\n  %x = arith.xori %a, %c : i8\n  %y = arith.ori %x, %x : i8\n  %z = arith.xori %y, %c : i8\n  return %z : i8\n}\n";
        assert_eq!(signature(reduced), "arith.ori+arith.xori");
        let t = Some(std::time::Duration::from_secs(300));
        assert_eq!(
            progress(10, 1_000_000, 1, 100.0, t),
            "fuzz: 10/1000000 programs, 1 failures, 0.1 programs/s, ETA 200 s"
        );
        assert_eq!(progress(10, 20, 0, 100.0, t), "fuzz: 10/20 programs, 0 failures, 0.1 programs/s, ETA 100 s");
        assert!(progress(1, 1_000_000, 0, 100.0, None).ends_with("ETA more than a day"));
    }
}
