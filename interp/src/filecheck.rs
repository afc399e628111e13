//! FileCheck: LLVM's checker of a program's output against the `CHECK:`
//! lines of a test, built in so that `mlir-interp lit` (and a lit RUN line
//! naming `FileCheck`) needs no LLVM install. Semantics follow LLVM's
//! `FileCheck.cpp` (LLVM 22): whitespace canonicalization of both files,
//! prefix and directive recognition, fixed strings vs regex patterns,
//! `CHECK-DAG` groups with interleaved `CHECK-NOT`s, `CHECK-LABEL` blocks,
//! the "next match is searched anywhere, then its line is judged" rule of
//! `-NEXT`/`-SAME`/`-EMPTY`, string and numeric variables. Diagnostics use
//! FileCheck's wording and `file:line:col` form; the annotated input dump
//! (`-dump-input`) is not reproduced.
//!
//! Regexes are Rust's (through `fancy-regex`, for the back-references of a
//! variable reused on its own line), not POSIX: leftmost-first rather than
//! leftmost-longest alternation, and a negated class matches a newline.

use fancy_regex::Regex;
use std::collections::HashMap;

/// What FileCheck's command line asks for.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `--check-prefix(es)`; empty means `CHECK`.
    pub check_prefixes: Vec<String>,
    /// `--comment-prefixes`; empty means `COM,RUN`.
    pub comment_prefixes: Vec<String>,
    /// `--strict-whitespace`: no canonicalization of spaces and tabs.
    pub strict_whitespace: bool,
    /// `--match-full-lines`.
    pub match_full_lines: bool,
    /// `--ignore-case`.
    pub ignore_case: bool,
    /// `--implicit-check-not` patterns.
    pub implicit_check_not: Vec<String>,
    /// `-D NAME=VALUE` and `-D#NAME=EXPR`.
    pub defines: Vec<String>,
    /// `--allow-empty`: empty input is not an error.
    pub allow_empty: bool,
    /// `--enable-var-scope`: `CHECK-LABEL` forgets local variables.
    pub enable_var_scope: bool,
    /// `--allow-unused-prefixes`.
    pub allow_unused_prefixes: bool,
    /// `-v` (count): report matches too.
    pub verbose: u8,
}

/// How a FileCheck run ended: 0 all checks passed, 1 a check failed, 2
/// bad usage or a malformed check file (FileCheck's exit statuses).
pub type Status = i32;

/// Runs FileCheck's command line `args` (without the program name): the
/// check file, options in LLVM's one- or two-dash spelling, the input from
/// `--input-file` or `stdin`. Diagnostics go to `err`.
pub fn main(args: &[String], stdin: &mut dyn std::io::Read, err: &mut dyn std::io::Write) -> Status {
    let (opts, check_file, input_file) = match parse_args(args) {
        Ok(x) => x,
        Err(msg) => {
            let _ = writeln!(err, "FileCheck: {msg}");
            return 2;
        }
    };
    let read = |p: &str| std::fs::read(p).map_err(|e| format!("Could not open check file '{p}': {e}"));
    let check_text = match read(&check_file) {
        Ok(t) => t,
        Err(msg) => {
            let _ = writeln!(err, "{msg}");
            return 2;
        }
    };
    let (input_name, input) = match &input_file {
        Some(p) if p != "-" => match std::fs::read(p) {
            Ok(t) => (p.clone(), t),
            Err(e) => {
                let _ = writeln!(err, "Could not open input file '{p}': {e}");
                return 2;
            }
        },
        _ => {
            let mut v = Vec::new();
            if let Err(e) = stdin.read_to_end(&mut v) {
                let _ = writeln!(err, "Could not read standard input: {e}");
                return 2;
            }
            ("<stdin>".to_string(), v)
        }
    };
    let check_text = String::from_utf8_lossy(&check_text).into_owned();
    let input = String::from_utf8_lossy(&input).into_owned();
    let (status, diags) = check(&opts, &check_file, &check_text, &input_name, &input);
    let _ = err.write_all(diags.as_bytes());
    if status == 2 && input.is_empty() && !opts.allow_empty {
        let _ = writeln!(err, "FileCheck command line: FileCheck {}", args.join(" "));
    }
    status
}

/// Options that take a value, by their LLVM name.
const VALUE_OPTS: &[&str] = &[
    "check-prefix",
    "check-prefixes",
    "comment-prefixes",
    "implicit-check-not",
    "input-file",
    "dump-input",
    "dump-input-context",
    "dump-input-filter",
    "color",
];

/// Splits LLVM-style arguments: `-opt`, `--opt`, `-opt=v`, `-opt v`, `-DX=v`.
fn parse_args(args: &[String]) -> Result<(Options, String, Option<String>), String> {
    let mut o = Options::default();
    let mut check_file = None;
    let mut input = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if !a.starts_with('-') || a == "-" {
            if check_file.replace(a.clone()).is_some() {
                return Err(format!("Too many positional arguments specified! Can specify at most 1 positional arguments: See: FileCheck --help (extra: '{a}')"));
            }
            continue;
        }
        if let Some(d) = a.strip_prefix("--D").or_else(|| a.strip_prefix("-D")) {
            let d = if d.is_empty() { it.next().cloned().ok_or("-D needs a value")? } else { d.to_string() };
            o.defines.push(d);
            continue;
        }
        let body = a.trim_start_matches('-');
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (body, None),
        };
        let mut value = || -> Result<String, String> {
            match &inline {
                Some(v) => Ok(v.clone()),
                None => it.next().cloned().ok_or_else(|| format!("option '{name}' requires a value")),
            }
        };
        match name {
            // Only the plural option is a comma-separated list.
            "check-prefix" => o.check_prefixes.push(value()?),
            "check-prefixes" => o.check_prefixes.extend(value()?.split(',').map(str::to_string)),
            "comment-prefixes" => o.comment_prefixes.extend(value()?.split(',').map(str::to_string)),
            "implicit-check-not" => o.implicit_check_not.push(value()?),
            "input-file" => input = Some(value()?),
            "strict-whitespace" => o.strict_whitespace = true,
            "match-full-lines" => o.match_full_lines = true,
            "ignore-case" => o.ignore_case = true,
            "allow-empty" => o.allow_empty = true,
            "enable-var-scope" => o.enable_var_scope = true,
            "allow-unused-prefixes" => o.allow_unused_prefixes = inline.as_deref() != Some("false"),
            "v" => o.verbose = o.verbose.max(1),
            "vv" => o.verbose = 2,
            // Presentation only: the input dump and colours are not reproduced.
            n if VALUE_OPTS.contains(&n) => {
                value()?;
            }
            "allow-deprecated-dag-overlap" | "color" | "dump-input" => {}
            _ => return Err(format!("Unknown command line argument '{a}'.  Try: 'FileCheck --help'")),
        }
    }
    let check_file = check_file.ok_or("Not enough positional command line arguments specified! Must specify at least 1 positional argument: See: FileCheck --help")?;
    Ok((o, check_file, input))
}

/// FileCheck's whitespace canonicalization: CRLF becomes LF and, unless
/// strict, each run of spaces and tabs one space (both files get it, so
/// diagnostics show the canonical text, as FileCheck's do).
fn canonicalize(s: &str, strict: bool) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\r' && b.get(i + 1) == Some(&b'\n') {
            i += 1;
            continue;
        }
        if strict || (c != b' ' && c != b'\t') {
            // Copy the whole UTF-8 character.
            let n = s[i..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&s[i..i + n]);
            i += n;
            continue;
        }
        out.push(' ');
        while i + 1 < b.len() && (b[i + 1] == b' ' || b[i + 1] == b'\t') {
            i += 1;
        }
        i += 1;
    }
    out
}

/// The kind of a directive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Plain,
    Next,
    Same,
    Not,
    Dag,
    Label,
    Empty,
    /// The implicit end-of-input check that trailing `-NOT`/`-DAG`s hang on.
    Eof,
}

/// A numeric value's printed form: `%u`, `%d`, `%x`, `%X`, with `#` (a
/// `0x` prefix) and a minimum digit count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Format {
    conv: u8,
    alt: bool,
    precision: usize,
}

impl Format {
    const UNSIGNED: Format = Format { conv: b'u', alt: false, precision: 0 };

    fn wildcard(self) -> String {
        let digits = match self.conv {
            b'x' => "[0-9a-f]",
            b'X' => "[0-9A-F]",
            _ => "[0-9]",
        };
        let sign = if self.conv == b'd' { "-?" } else { "" };
        let alt = if self.alt { "0x" } else { "" };
        let body = if self.precision > 0 {
            let lead = match self.conv {
                b'x' => "[1-9a-f]",
                b'X' => "[1-9A-F]",
                _ => "[1-9]",
            };
            format!("(?:{lead}{digits}*)?{digits}{{{}}}", self.precision)
        } else {
            format!("{digits}+")
        };
        format!("{sign}{alt}{body}")
    }

    fn show(self, v: i128) -> String {
        let (neg, m) = (v < 0, v.unsigned_abs());
        let digits = match self.conv {
            b'x' => format!("{m:x}"),
            b'X' => format!("{m:X}"),
            _ => m.to_string(),
        };
        let pad = "0".repeat(self.precision.saturating_sub(digits.len()));
        format!("{}{}{pad}{digits}", if neg { "-" } else { "" }, if self.alt { "0x" } else { "" })
    }

    fn parse(self, s: &str) -> Option<i128> {
        let s = s.strip_prefix("0x").unwrap_or(s);
        match self.conv {
            b'x' | b'X' => i128::from_str_radix(s, 16).ok(),
            _ => s.parse().ok(),
        }
    }
}

/// A numeric expression: `VAR`, a literal, `@LINE`, `a + b`, `a - b`,
/// `fn(a, b)` for add/sub/mul/div/max/min.
#[derive(Clone, Debug)]
enum Expr {
    Lit(i128),
    /// A `0x` literal: its implicit format is hex.
    Hex(i128),
    Var(String),
    Line,
    Bin(char, Box<Expr>, Box<Expr>),
    Call(String, Vec<Expr>),
}

/// One piece of a regex pattern.
#[derive(Clone, Debug)]
enum Piece {
    /// Regex text, used as is.
    Re(String),
    /// A string variable defined on an earlier line, inserted escaped.
    Str(String),
    /// A numeric expression, printed in a format.
    Num(Expr, Option<Format>),
}

/// One directive with its pattern.
#[derive(Clone, Debug)]
struct Pattern {
    kind: Kind,
    count: usize,
    literal: bool,
    prefix: String,
    /// Where the pattern text is (for diagnostics): its file and byte offset.
    file: File,
    loc: usize,
    line: usize,
    /// A fixed string (no regex pieces), if it is one.
    fixed: Option<String>,
    pieces: Vec<Piece>,
    /// String variables defined: name and capture-group name.
    defs: Vec<(String, String)>,
    /// Numeric variables defined: name, group, format.
    num_defs: Vec<(String, String, Format)>,
}

/// A positive check with the `-DAG`/`-NOT`s before it.
#[derive(Clone, Debug)]
struct CheckString {
    pat: Pattern,
    dag_not: Vec<Pattern>,
}

/// A diagnostic location: which file and byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum File {
    Check,
    Input,
    CommandLine(usize),
}

/// The checker: both canonical texts and the variables.
struct Checker<'a> {
    opts: &'a Options,
    check_name: &'a str,
    check: String,
    input_name: &'a str,
    input: String,
    implicit: Vec<String>,
    vars: HashMap<String, String>,
    nums: HashMap<String, (i128, Format)>,
    /// String variables defined so far in the check file (or by `-D`),
    /// to reject a numeric variable of the same name.
    str_defined: std::collections::HashSet<String>,
    /// Compiled regexes by their text.
    compiled: HashMap<String, Regex>,
    out: String,
}

/// Checks `input` against the directives of `check_text`; returns the
/// exit status and the diagnostics FileCheck would print.
pub fn check(opts: &Options, check_name: &str, check_text: &str, input_name: &str, input: &str) -> (Status, String) {
    let mut c = Checker {
        opts,
        check_name,
        check: canonicalize(check_text, opts.strict_whitespace),
        input_name,
        input: canonicalize(input, opts.strict_whitespace),
        implicit: Vec::new(),
        vars: HashMap::new(),
        nums: HashMap::new(),
        str_defined: Default::default(),
        compiled: HashMap::new(),
        out: String::new(),
    };
    let status = c.run();
    (status, c.out)
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'-' || c == b'_'
}

/// The result of one search: position and length in the searched text.
type Found = Option<(usize, usize)>;

impl Checker<'_> {
    fn run(&mut self) -> Status {
        if let Err(()) = self.validate_prefixes() {
            return 2;
        }
        if let Err(()) = self.define_globals() {
            return 2;
        }
        let checks = match self.read_checks() {
            Ok(c) => c,
            Err(()) => return 2,
        };
        if self.input.is_empty() && !self.opts.allow_empty {
            self.out.push_str(&format!("FileCheck error: '{}' is empty.\n", self.input_name));
            return 2;
        }
        if self.check_input(&checks) {
            0
        } else {
            1
        }
    }

    fn check_prefixes(&self) -> Vec<String> {
        if self.opts.check_prefixes.is_empty() {
            vec!["CHECK".into()]
        } else {
            self.opts.check_prefixes.clone()
        }
    }

    fn comment_prefixes(&self) -> Vec<String> {
        if self.opts.comment_prefixes.is_empty() {
            vec!["COM".into(), "RUN".into()]
        } else {
            self.opts.comment_prefixes.clone()
        }
    }

    fn validate_prefixes(&mut self) -> Result<(), ()> {
        let mut seen: Vec<String> = Vec::new();
        if self.opts.check_prefixes.is_empty() {
            seen.push("CHECK".into());
        }
        if self.opts.comment_prefixes.is_empty() {
            seen.extend(["COM".to_string(), "RUN".to_string()]);
        }
        for (kind, list) in [("check", &self.opts.check_prefixes), ("comment", &self.opts.comment_prefixes)] {
            for p in list {
                if p.is_empty() {
                    self.out.push_str(&format!("error: supplied {kind} prefix must not be the empty string\n"));
                    return Err(());
                }
                if !p.bytes().all(is_word) {
                    self.out.push_str(&format!("error: supplied {kind} prefix must start with a letter and contain only alphanumeric characters, hyphens, and underscores: '{p}'\n"));
                    return Err(());
                }
                if seen.contains(p) {
                    self.out.push_str(&format!(
                        "error: supplied {kind} prefix must be unique among check and comment prefixes: '{p}'\n"
                    ));
                    return Err(());
                }
                seen.push(p.clone());
            }
        }
        Ok(())
    }

    fn define_globals(&mut self) -> Result<(), ()> {
        for d in self.opts.defines.clone() {
            let Some((name, value)) = d.split_once('=') else {
                self.out
                    .push_str(&format!("Global defines:1:1: error: missing equal sign in global definition\n{d}\n^\n"));
                return Err(());
            };
            if let Some(n) = name.strip_prefix('#') {
                let (fmt, n) = match n.split_once(',') {
                    Some((f, n)) => match parse_format(f.trim()) {
                        Some(f) => (f, n.trim()),
                        None => {
                            self.out.push_str(&format!("error: invalid format specifier in '-D{d}'\n"));
                            return Err(());
                        }
                    },
                    None => (Format::UNSIGNED, n.trim()),
                };
                let v = parse_expr(value.trim()).ok().and_then(|e| self.eval(&e, 0).ok());
                if self.str_defined.contains(n) {
                    self.out
                        .push_str(&format!("Global defines: error: string variable with name '{n}' already exists\n"));
                    return Err(());
                }
                match (valid_name(n), v) {
                    (true, Some(v)) => {
                        self.nums.insert(n.to_string(), (v, fmt));
                    }
                    _ => {
                        self.out.push_str(&format!("error: invalid numeric variable definition '-D{d}'\n"));
                        return Err(());
                    }
                }
            } else {
                if !valid_name(name) {
                    self.out.push_str(&format!(
                        "Global defines:1:19: error: invalid name in string variable definition '{name}'\n"
                    ));
                    return Err(());
                }
                if self.nums.contains_key(name) {
                    self.out.push_str(&format!(
                        "Global defines: error: numeric variable with name '{name}' already exists\n"
                    ));
                    return Err(());
                }
                self.vars.insert(name.to_string(), value.to_string());
                self.str_defined.insert(name.to_string());
            }
        }
        Ok(())
    }

    /// FileCheck's `readCheckFile`: the directives, in order, each
    /// positive one carrying the `-DAG`/`-NOT`s before it.
    fn read_checks(&mut self) -> Result<Vec<CheckString>, ()> {
        let checks = self.check_prefixes();
        let comments = self.comment_prefixes();
        let mut prefixes: Vec<(String, bool)> =
            checks.iter().map(|p| (p.clone(), false)).chain(comments.iter().map(|p| (p.clone(), true))).collect();
        prefixes.sort_by_key(|p| std::cmp::Reverse(p.0.len()));
        let mut implicit = Vec::new();
        for (i, p) in self.opts.implicit_check_not.clone().iter().enumerate() {
            self.implicit.push(p.clone());
            let pat = self.parse_pattern(Kind::Not, 1, false, "IMPLICIT-CHECK", p, 0, 0, File::CommandLine(i))?;
            implicit.push(pat);
        }
        let mut unused: Vec<String> = checks.clone();
        let distinct = {
            let mut u = unused.clone();
            u.sort();
            u.dedup();
            u.len()
        };
        let mut out = Vec::new();
        let mut dag_not = implicit.clone();
        let text = self.check.clone();
        let b = text.as_bytes();
        let mut pos = 0;
        let mut line = 1;
        let mut line_pos = 0;
        'scan: while pos < b.len() {
            // The earliest (then longest) prefix occurrence.
            let mut best: Option<(usize, &str, bool)> = None;
            for (p, is_comment) in &prefixes {
                if let Some(i) = text[pos..].find(p.as_str()) {
                    if best.is_none_or(|(j, _, _)| pos + i < j) {
                        best = Some((pos + i, p, *is_comment));
                    }
                }
            }
            let Some((at, prefix, is_comment)) = best else { break };
            line += text[line_pos..at].matches('\n').count();
            line_pos = at;
            let preceded = at > 0 && is_word(b[at - 1]);
            let ty = if preceded { None } else { directive(&text[at + prefix.len()..], is_comment) };
            let Some(ty) = ty else {
                let mut end = at + prefix.len();
                while end < b.len() && is_word(b[end]) {
                    end += 1;
                }
                pos = end;
                continue 'scan;
            };
            let rest = at + prefix.len() + ty.consumed;
            match ty.kind {
                DirKind::Comment => {
                    pos = text[rest..].find(['\n', '\r']).map_or(b.len(), |e| rest + e);
                    continue;
                }
                DirKind::Misspelled => {
                    let d = &text[at..rest];
                    self.report(File::Check, at, "error", &format!("misspelled directive '{d}'"), None);
                    return Err(());
                }
                DirKind::BadNot => {
                    self.report(
                        File::Check,
                        rest,
                        "error",
                        &format!("unsupported -NOT combo on prefix '{prefix}'"),
                        None,
                    );
                    return Err(());
                }
                DirKind::BadCount => {
                    let msg = format!("invalid count in -COUNT specification on prefix '{prefix}'");
                    self.report(File::Check, rest, "error", &msg, None);
                    return Err(());
                }
                DirKind::Check(kind, count, literal) => {
                    unused.retain(|u| u != prefix);
                    let mut start = rest;
                    if !(self.opts.strict_whitespace && self.opts.match_full_lines) {
                        while start < b.len() && (b[start] == b' ' || b[start] == b'\t') {
                            start += 1;
                        }
                    }
                    let end = text[start..].find(['\n', '\r']).map_or(b.len(), |e| start + e);
                    pos = end;
                    let pat_text = &text[start..end];
                    let pat = self.parse_pattern(kind, count, literal, prefix, pat_text, start, line, File::Check)?;
                    if kind == Kind::Label
                        && (!pat.defs.is_empty() || pat.pieces.iter().any(|p| !matches!(p, Piece::Re(_))))
                    {
                        let msg = format!("found '{prefix}-LABEL:' with variable definition or use");
                        self.report(File::Check, at, "error", &msg, None);
                        return Err(());
                    }
                    if matches!(kind, Kind::Next | Kind::Same | Kind::Empty) && out.is_empty() {
                        let t = match kind {
                            Kind::Next => "NEXT",
                            Kind::Empty => "EMPTY",
                            _ => "SAME",
                        };
                        let msg = format!("found '{prefix}-{t}' without previous '{prefix}: line");
                        self.report(File::Check, at, "error", &msg, None);
                        return Err(());
                    }
                    if matches!(kind, Kind::Dag | Kind::Not) {
                        dag_not.push(pat);
                        continue;
                    }
                    out.push(CheckString { pat, dag_not: std::mem::replace(&mut dag_not, implicit.clone()) });
                }
            }
        }
        let none_found = unused.len() == distinct;
        let some_unused = !self.opts.allow_unused_prefixes && !unused.is_empty();
        if (none_found || some_unused) && (implicit.is_empty() || !self.opts.check_prefixes.is_empty()) {
            unused.sort();
            unused.dedup();
            let list: Vec<String> = unused.iter().map(|p| format!("'{p}:'")).collect();
            let s = if unused.len() > 1 { "es" } else { "" };
            self.out.push_str(&format!("error: no check strings found with prefix{s} {}\n", list.join(", ")));
            return Err(());
        }
        if !dag_not.is_empty() {
            let prefix = checks.first().cloned().unwrap_or_default();
            let eof = Pattern {
                kind: Kind::Eof,
                count: 1,
                literal: false,
                prefix,
                file: File::Check,
                loc: self.check.len(),
                line: line + 1,
                fixed: None,
                pieces: Vec::new(),
                defs: Vec::new(),
                num_defs: Vec::new(),
            };
            out.push(CheckString { pat: eof, dag_not });
        }
        Ok(out)
    }

    /// FileCheck's `parsePattern`.
    #[allow(clippy::too_many_arguments)]
    fn parse_pattern(
        &mut self,
        kind: Kind,
        count: usize,
        literal: bool,
        prefix: &str,
        text: &str,
        loc: usize,
        line: usize,
        file: File,
    ) -> Result<Pattern, ()> {
        let full = self.opts.match_full_lines && !matches!(kind, Kind::Not | Kind::Dag);
        let mut text = text;
        if !(self.opts.strict_whitespace && self.opts.match_full_lines) {
            text = text.trim_end_matches([' ', '\t']);
        }
        let mut p = Pattern {
            kind,
            count,
            literal,
            prefix: prefix.to_string(),
            file,
            loc,
            line,
            fixed: None,
            pieces: Vec::new(),
            defs: Vec::new(),
            num_defs: Vec::new(),
        };
        if text.is_empty() && kind != Kind::Empty {
            self.report(file, loc, "error", &format!("found empty check string with prefix '{prefix}:'"), None);
            return Err(());
        }
        if !text.is_empty() && kind == Kind::Empty {
            let msg = format!("found non-empty check string for empty check with prefix '{prefix}:'");
            self.report(file, loc, "error", &msg, None);
            return Err(());
        }
        if kind == Kind::Empty {
            p.pieces.push(Piece::Re("\n$".into()));
            return Ok(p);
        }
        if literal || (!full && (text.len() < 2 || (!text.contains("{{") && !text.contains("[[")))) {
            p.fixed = Some(text.to_string());
            return Ok(p);
        }
        let ws = if self.opts.strict_whitespace { "" } else { " *" };
        if full {
            p.pieces.push(Piece::Re(format!("^{ws}")));
        }
        let mut defined_here: Vec<String> = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            let here = loc + (text.len() - rest.len());
            if let Some(r) = rest.strip_prefix("{{") {
                let Some(end) = r.find("}}") else {
                    self.report(file, here, "error", "found start of regex string with no end '}}'", None);
                    return Err(());
                };
                let re = &r[..end];
                if let Err(e) = Regex::new(re) {
                    self.report(file, here + 2, "error", &format!("invalid regex: {e}"), None);
                    return Err(());
                }
                p.pieces.push(Piece::Re(format!("(?:{re})")));
                rest = &r[end + 2..];
                continue;
            }
            if rest.starts_with("[[") && !rest.starts_with("[[[") {
                let body = &rest[2..];
                let Some(end) = var_end(body) else {
                    self.report(file, here, "error", "Invalid substitution block, no ]] found", None);
                    return Err(());
                };
                let block = &body[..end];
                rest = &body[end + 2..];
                if let Some(num) = block.strip_prefix('#') {
                    self.parse_numeric_block(&mut p, num, here + 3, file)?;
                    continue;
                }
                // A string variable: [[NAME:regex]] or [[NAME]], or a
                // legacy [[@LINE+n]].
                let name_end = block.find(':').unwrap_or(block.len());
                if let Some(sp) = block[..name_end].find([' ', '\t']) {
                    self.report(file, here + 2 + sp, "error", "unexpected whitespace", None);
                    return Err(());
                }
                if let Some(e) = block.strip_prefix("@LINE") {
                    if block.contains(':') {
                        self.report(file, here + 2, "error", "invalid name in string variable definition", None);
                        return Err(());
                    }
                    let off = if e.is_empty() {
                        Some(0)
                    } else {
                        e.parse::<i128>().ok().filter(|_| e.starts_with(['+', '-']))
                    };
                    let Some(off) = off else {
                        self.report(file, here + 7, "error", "unexpected characters at end of expression", None);
                        return Err(());
                    };
                    p.pieces.push(Piece::Re(fancy_regex::escape(&(line as i128 + off).to_string()).into_owned()));
                    continue;
                }
                let name = &block[..name_end];
                if !valid_name(name) {
                    let msg = if name.is_empty() { "empty variable name" } else { "invalid variable name" };
                    self.report(file, here + 2, "error", msg, None);
                    return Err(());
                }
                if name_end < block.len() {
                    if self.nums.contains_key(name) {
                        let msg = format!("numeric variable with name '{name}' already exists");
                        self.report(file, here + 2, "error", &msg, None);
                        return Err(());
                    }
                    let re = &block[name_end + 1..];
                    if let Err(e) = Regex::new(re) {
                        self.report(file, here + 3 + name_end, "error", &format!("invalid regex: {e}"), None);
                        return Err(());
                    }
                    let group = format!("v{}", p.defs.len() + p.num_defs.len());
                    p.pieces.push(Piece::Re(format!("(?P<{group}>{re})")));
                    p.defs.retain(|(n, _)| n != name);
                    p.defs.push((name.to_string(), group));
                    self.str_defined.insert(name.to_string());
                    defined_here.push(name.to_string());
                } else if let Some(k) = p.defs.iter().rposition(|(n, _)| n == name) {
                    if k >= 9 {
                        self.report(file, here + 2, "error", "Can't back-reference more than 9 variables", None);
                        return Err(());
                    }
                    let g = &p.defs[k].1;
                    p.pieces.push(Piece::Re(format!("\\k<{g}>")));
                } else {
                    p.pieces.push(Piece::Str(name.to_string()));
                }
                continue;
            }
            let next =
                [rest[1..].find("{{"), rest[1..].find("[[")].into_iter().flatten().min().map_or(rest.len(), |i| i + 1);
            p.pieces.push(Piece::Re(fancy_regex::escape(&rest[..next]).into_owned()));
            rest = &rest[next..];
        }
        if full {
            p.pieces.push(Piece::Re(format!("{ws}$")));
        }
        Ok(p)
    }

    /// `[[#%fmt, VAR: expr]]`, `[[#VAR:]]` or `[[#expr]]`.
    fn parse_numeric_block(&mut self, p: &mut Pattern, block: &str, at: usize, file: File) -> Result<(), ()> {
        let mut block = block.trim_start();
        let mut fmt = None;
        if block.starts_with('%') {
            let Some((f, r)) = block.split_once(',') else {
                self.report(file, at, "error", "invalid matching format specification in expression", None);
                return Err(());
            };
            let Some(f) = parse_format(f.trim()) else {
                self.report(file, at, "error", "invalid format specifier in expression", None);
                return Err(());
            };
            fmt = Some(f);
            block = r.trim_start();
        }
        // A definition `VAR:` (with an optional constraint after it).
        let def = block.find(':').map(|i| (block[..i].trim(), block[i + 1..].trim()));
        let (def_name, expr_text) = match def {
            Some((n, e)) => (Some(n), e),
            None => (None, block.trim()),
        };
        let constrained = expr_text.starts_with("==");
        let expr_text = expr_text.strip_prefix("==").map_or(expr_text, str::trim);
        if constrained && expr_text.is_empty() {
            self.report(file, at, "error", "empty numeric expression should not have a constraint", None);
            return Err(());
        }
        let expr = if expr_text.is_empty() {
            None
        } else {
            match parse_expr(expr_text) {
                Ok(e) => Some(e),
                Err(msg) => {
                    self.report(file, at, "error", &msg, None);
                    return Err(());
                }
            }
        };
        if let Some(e) = &expr {
            if fmt.is_none() && self.format_conflict(e) {
                let msg = "implicit format conflict between variables; use an explicit format specifier";
                self.report(file, at, "error", msg, None);
                return Err(());
            }
            if let Some(v) = first_var(e).filter(|v| p.num_defs.iter().any(|d| &d.0 == v)) {
                let msg = format!("numeric variable '{v}' defined earlier in the same CHECK directive");
                self.report(file, at, "error", &msg, None);
                return Err(());
            }
        }
        match def_name {
            Some(name) => {
                if !valid_name(name) {
                    self.report(file, at, "error", "invalid variable name", None);
                    return Err(());
                }
                if self.str_defined.contains(name) {
                    let msg = format!("string variable with name '{name}' already exists");
                    self.report(file, at, "error", &msg, None);
                    return Err(());
                }
                let f = fmt.or_else(|| expr.as_ref().and_then(|e| self.implicit_format(e))).unwrap_or(Format::UNSIGNED);
                if self.nums.get(name).is_some_and(|(_, old)| *old != f) {
                    self.report(file, at, "error", "format different from previous variable definition", None);
                    return Err(());
                }
                let group = format!("v{}", p.defs.len() + p.num_defs.len());
                // With an expression, the block matches its value (and
                // defines the variable to it); without, any number.
                p.pieces.push(Piece::Re(format!("(?P<{group}>")));
                match expr {
                    Some(e) => p.pieces.push(Piece::Num(e, Some(f))),
                    None => p.pieces.push(Piece::Re(f.wildcard())),
                }
                p.pieces.push(Piece::Re(")".into()));
                p.num_defs.push((name.to_string(), group, f));
                // Later directives can refer to it: record its format now.
                self.nums.entry(name.to_string()).or_insert((i128::MIN, f));
            }
            None => {
                match expr {
                    Some(e) => p.pieces.push(Piece::Num(e, fmt)),
                    // `[[#]]`: any number.
                    None => p.pieces.push(Piece::Re(fmt.unwrap_or(Format::UNSIGNED).wildcard())),
                }
            }
        }
        Ok(())
    }

    /// Whether the variables of `e` have different formats.
    fn format_conflict(&self, e: &Expr) -> bool {
        fn collect(c: &Checker, e: &Expr, out: &mut Vec<Format>) {
            match e {
                Expr::Var(v) => out.extend(c.nums.get(v).map(|x| x.1)),
                Expr::Bin(_, a, b) => {
                    collect(c, a, out);
                    collect(c, b, out);
                }
                Expr::Call(_, xs) => xs.iter().for_each(|x| collect(c, x, out)),
                _ => {}
            }
        }
        let mut fs = Vec::new();
        collect(self, e, &mut fs);
        fs.windows(2).any(|w| w[0] != w[1])
    }

    fn implicit_format(&self, e: &Expr) -> Option<Format> {
        match e {
            Expr::Var(v) => self.nums.get(v).map(|x| x.1),
            Expr::Hex(_) => Some(Format { conv: b'x', alt: false, precision: 0 }),
            Expr::Bin(_, a, b) => self.implicit_format(a).or_else(|| self.implicit_format(b)),
            Expr::Call(_, xs) => xs.iter().find_map(|x| self.implicit_format(x)),
            _ => None,
        }
    }

    fn eval(&self, e: &Expr, line: usize) -> Result<i128, String> {
        Ok(match e {
            Expr::Lit(v) | Expr::Hex(v) => *v,
            Expr::Line => line as i128,
            Expr::Var(v) => match self.nums.get(v) {
                Some((x, _)) if *x != i128::MIN => *x,
                _ => return Err(format!("undefined variable: {v}")),
            },
            Expr::Bin(op, a, b) => {
                let (a, b) = (self.eval(a, line)?, self.eval(b, line)?);
                let r = if *op == '+' { a.checked_add(b) } else { a.checked_sub(b) };
                r.ok_or("unable to substitute variable or numeric expression: overflow error")?
            }
            Expr::Call(f, xs) => {
                let [a, b] = xs.as_slice() else { return Err(format!("function '{f}' takes 2 arguments")) };
                let (a, b) = (self.eval(a, line)?, self.eval(b, line)?);
                let r = match f.as_str() {
                    "add" => a.checked_add(b),
                    "sub" => a.checked_sub(b),
                    "mul" => a.checked_mul(b),
                    "div" if b == 0 => return Err("division by zero".into()),
                    "div" => a.checked_div(b),
                    "max" => Some(a.max(b)),
                    "min" => Some(a.min(b)),
                    _ => return Err(format!("call to undefined function '{f}'")),
                };
                r.ok_or("unable to substitute variable or numeric expression: overflow error")?
            }
        })
    }

    /// The regex a pattern stands for now, its variables substituted.
    fn regex_of(&self, p: &Pattern) -> Result<String, String> {
        let mut s = String::from("(?m)");
        if self.opts.ignore_case {
            s.push_str("(?i)");
        }
        for piece in &p.pieces {
            match piece {
                Piece::Re(r) => s.push_str(r),
                Piece::Str(n) => match self.vars.get(n) {
                    Some(v) => s.push_str(&fancy_regex::escape(v)),
                    None => return Err(format!("undefined variable: {n}")),
                },
                Piece::Num(e, fmt) => {
                    let v = self.eval(e, p.line)?;
                    let f = fmt.or_else(|| self.implicit_format(e)).unwrap_or(Format::UNSIGNED);
                    if v < 0 && f.conv != b'd' {
                        return Err("unable to substitute variable or numeric expression: overflow error".into());
                    }
                    s.push_str(&fancy_regex::escape(&f.show(v)));
                }
            }
        }
        Ok(s)
    }

    /// `Pattern::match`: the first match in `self.input[from..to]`, as
    /// offsets into the input; defines the pattern's variables.
    fn find(&mut self, p: &Pattern, from: usize, to: usize) -> Result<Found, String> {
        if p.kind == Kind::Eof {
            return Ok(Some((to, 0)));
        }
        let hay = &self.input[from..to];
        if let Some(f) = &p.fixed {
            // ASCII case folding, as LLVM's `find_insensitive`: byte
            // offsets stay those of the input.
            let at = if self.opts.ignore_case {
                hay.to_ascii_lowercase().find(&f.to_ascii_lowercase())
            } else {
                hay.find(f.as_str())
            };
            return Ok(at.map(|i| (from + i, f.len())));
        }
        let text = self.regex_of(p)?;
        // A pattern is searched again and again (each -DAG candidate, each
        // -COUNT repetition, each -NOT region): compile each text once.
        if !self.compiled.contains_key(&text) {
            let re = Regex::new(&text).map_err(|e| format!("invalid regex: {e}"))?;
            self.compiled.insert(text.clone(), re);
        }
        let re = &self.compiled[&text];
        let caps = match re.captures(hay) {
            Ok(Some(c)) => c,
            Ok(None) => return Ok(None),
            Err(e) => return Err(format!("regex match failed: {e}")),
        };
        let m = caps.get(0).ok_or("regex match without its whole-match group")?;
        for (name, g) in &p.defs {
            let v = caps.name(g).map_or("", |m| m.as_str()).to_string();
            self.vars.insert(name.clone(), v);
        }
        for (name, g, f) in &p.num_defs {
            let text = caps.name(g).map_or("", |m| m.as_str());
            let v = f.parse(text).ok_or_else(|| format!("unable to represent numeric value '{text}'"))?;
            self.nums.insert(name.clone(), (v, *f));
        }
        // CHECK-EMPTY consumes the newline before the empty line.
        let skip = usize::from(p.kind == Kind::Empty);
        Ok(Some((from + m.start() + skip, m.end() - m.start() - skip)))
    }

    /// `FileCheckString::Check`: the match of `cs` in `[from, to)`, as its
    /// start and length, or `None` after reporting why not.
    fn check_one(&mut self, cs: &CheckString, from: usize, to: usize, label_scan: bool) -> Option<(usize, usize)> {
        let mut nots: Vec<&Pattern> = Vec::new();
        let mut last = from;
        if !label_scan {
            last = self.check_dag(cs, from, to, &mut nots)?;
        }
        let mut end = last;
        let mut first = 0;
        for i in 1..=cs.pat.count {
            match self.find(&cs.pat, end, to) {
                Ok(Some((pos, len))) => {
                    if i == 1 {
                        first = pos;
                    }
                    if self.opts.verbose > 0 && cs.pat.kind != Kind::Eof {
                        self.report_match(&cs.pat, pos, len, true, i);
                    }
                    end = pos + len;
                }
                Ok(None) => {
                    self.report_no_match(&cs.pat, end, to, i);
                    return None;
                }
                Err(msg) => {
                    self.report(cs.pat.file, cs.pat.loc, "error", &msg, None);
                    return None;
                }
            }
        }
        if !label_scan {
            let skipped = (last, first);
            if !self.check_next(&cs.pat, skipped) || !self.check_same(&cs.pat, skipped) {
                return None;
            }
            if !self.check_not(&nots, last, first) {
                return None;
            }
        }
        Some((first, end - first))
    }

    fn check_dag<'p>(
        &mut self,
        cs: &'p CheckString,
        from: usize,
        to: usize,
        nots: &mut Vec<&'p Pattern>,
    ) -> Option<usize> {
        let mut start = from;
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        for (k, pat) in cs.dag_not.iter().enumerate() {
            if pat.kind == Kind::Not {
                nots.push(pat);
                continue;
            }
            let mut at = start;
            let (pos, len) = loop {
                match self.find(pat, at, to) {
                    Ok(Some((pos, len))) => {
                        let end = pos + len;
                        match ranges.iter().find(|r| pos < r.1) {
                            Some(r) if r.0 < end => at = r.1,
                            _ => break (pos, len),
                        }
                    }
                    Ok(None) => {
                        self.report_no_match(pat, at, to, 1);
                        return None;
                    }
                    Err(msg) => {
                        self.report(pat.file, pat.loc, "error", &msg, None);
                        return None;
                    }
                }
            };
            if self.opts.verbose > 0 {
                self.report_match(pat, pos, len, true, 1);
            }
            let i = ranges.iter().position(|r| pos < r.1).unwrap_or(ranges.len());
            ranges.insert(i, (pos, pos + len));
            let group_ends = cs.dag_not.get(k + 1).is_none_or(|n| n.kind == Kind::Not);
            if group_ends {
                if !nots.is_empty() {
                    if !self.check_not(nots, start, ranges[0].0) {
                        return None;
                    }
                    nots.clear();
                }
                start = ranges.last().map_or(start, |r| r.1);
                ranges.clear();
            }
        }
        Some(start)
    }

    fn check_not(&mut self, nots: &[&Pattern], from: usize, to: usize) -> bool {
        let mut ok = true;
        for p in nots {
            match self.find(p, from, to) {
                Ok(Some((pos, len))) => {
                    self.report_match(p, pos, len, false, 1);
                    ok = false;
                }
                Ok(None) => {}
                Err(msg) => {
                    self.report(p.file, p.loc, "error", &msg, None);
                    ok = false;
                }
            }
        }
        ok
    }

    fn newlines(&self, (from, to): (usize, usize)) -> (usize, usize) {
        let s = &self.input.as_bytes()[from..to];
        let mut n = 0;
        let mut first = to;
        let mut i = 0;
        while i < s.len() {
            if s[i] == b'\n' || s[i] == b'\r' {
                n += 1;
                if i + 1 < s.len() && (s[i + 1] == b'\n' || s[i + 1] == b'\r') && s[i + 1] != s[i] {
                    i += 1;
                }
                if n == 1 {
                    first = from + i + 1;
                }
            }
            i += 1;
        }
        (n, first)
    }

    fn check_next(&mut self, p: &Pattern, skipped: (usize, usize)) -> bool {
        if !matches!(p.kind, Kind::Next | Kind::Empty) {
            return true;
        }
        let name = format!("{}{}", p.prefix, if p.kind == Kind::Empty { "-EMPTY" } else { "-NEXT" });
        let (n, first) = self.newlines(skipped);
        if n == 1 {
            return true;
        }
        let what = if n == 0 {
            "is on the same line as previous match"
        } else {
            "is not on the line after the previous match"
        };
        self.report(File::Check, p.loc, "error", &format!("{name}: {what}"), None);
        self.report(File::Input, skipped.1, "note", "'next' match was here", None);
        self.report(File::Input, skipped.0, "note", "previous match ended here", None);
        if n > 1 {
            self.report(File::Input, first, "note", "non-matching line after previous match is here", None);
        }
        false
    }

    fn check_same(&mut self, p: &Pattern, skipped: (usize, usize)) -> bool {
        if p.kind != Kind::Same {
            return true;
        }
        if self.newlines(skipped).0 == 0 {
            return true;
        }
        let msg = format!("{}-SAME: is not on the same line as the previous match", p.prefix);
        self.report(File::Check, p.loc, "error", &msg, None);
        self.report(File::Input, skipped.1, "note", "'next' match was here", None);
        self.report(File::Input, skipped.0, "note", "previous match ended here", None);
        false
    }

    /// `checkInput`: labels split the input into blocks; each block's
    /// checks run in it.
    fn check_input(&mut self, checks: &[CheckString]) -> bool {
        let mut failed = false;
        let (mut i, mut j) = (0, 0);
        let mut buf = 0;
        let end = self.input.len();
        loop {
            let region = if j == checks.len() {
                (buf, end)
            } else {
                if checks[j].pat.kind != Kind::Label {
                    j += 1;
                    continue;
                }
                let Some((pos, len)) = self.check_one(&checks[j], buf, end, true) else { return false };
                let r = (buf, pos + len);
                buf = pos + len;
                j += 1;
                r
            };
            if i != 0 && self.opts.enable_var_scope {
                self.vars.retain(|k, _| k.starts_with('$'));
                self.nums.retain(|k, _| k.starts_with('$'));
            }
            let mut from = region.0;
            while i != j {
                match self.check_one(&checks[i], from, region.1, false) {
                    Some((pos, len)) => from = pos + len,
                    None => {
                        failed = true;
                        i = j;
                        break;
                    }
                }
                i += 1;
            }
            if j == checks.len() {
                break;
            }
        }
        !failed
    }

    fn description(p: &Pattern) -> String {
        let lit = if p.literal { "{LITERAL}" } else { "" };
        let suffix = match p.kind {
            Kind::Plain if p.count > 1 => "-COUNT",
            Kind::Plain => "",
            Kind::Next => "-NEXT",
            Kind::Same => "-SAME",
            Kind::Not => "-NOT",
            Kind::Dag => "-DAG",
            Kind::Label => "-LABEL",
            Kind::Empty => "-EMPTY",
            Kind::Eof => return "implicit EOF".into(),
        };
        format!("{}{suffix}{lit}", p.prefix)
    }

    fn report_no_match(&mut self, p: &Pattern, from: usize, _to: usize, n: usize) {
        let mut msg = format!("{}: expected string not found in input", Self::description(p));
        if p.count > 1 {
            msg.push_str(&format!(" ({n} out of {})", p.count));
        }
        self.report(p.file, p.loc, "error", &msg, None);
        self.report(File::Input, from, "note", "scanning from here", None);
    }

    fn report_match(&mut self, p: &Pattern, pos: usize, len: usize, expected: bool, n: usize) {
        let mut msg = format!(
            "{}: {} string found in input",
            Self::description(p),
            if expected { "expected" } else { "excluded" }
        );
        if p.count > 1 {
            msg.push_str(&format!(" ({n} out of {})", p.count));
        }
        self.report(p.file, p.loc, if expected { "remark" } else { "error" }, &msg, None);
        self.report(File::Input, pos, "note", "found here", Some(len));
    }

    /// Prints one diagnostic as LLVM's SourceMgr does: location, message,
    /// the line and a caret (with `~` under a range).
    fn report(&mut self, file: File, at: usize, kind: &str, msg: &str, range: Option<usize>) {
        let cmd;
        let (name, text, at) = match file {
            File::Check => (self.check_name, self.check.as_str(), at),
            File::Input => (self.input_name, self.input.as_str(), at),
            File::CommandLine(i) => {
                cmd = format!("-implicit-check-not='{}'", self.implicit.get(i).map_or("", String::as_str));
                ("command line", cmd.as_str(), at + "-implicit-check-not='".len())
            }
        };
        let at = at.min(text.len());
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        let line_no = text[..at].matches('\n').count() + 1;
        let col = at - line_start + 1;
        let line = &text[line_start..line_end];
        let mut s = format!("{name}:{line_no}:{col}: {kind}: {msg}\n{line}\n");
        s.push_str(&" ".repeat(col - 1));
        s.push('^');
        if let Some(len) = range {
            let n = len.min(line_end.saturating_sub(at)).saturating_sub(1);
            s.push_str(&"~".repeat(n));
        }
        s.push('\n');
        self.out.push_str(&s);
    }
}

/// A directive recognized after a prefix.
#[derive(Clone, Copy, Debug)]
enum DirKind {
    Check(Kind, usize, bool),
    Comment,
    Misspelled,
    BadNot,
    BadCount,
}

/// What follows a prefix: its kind and the bytes the suffix took.
#[derive(Clone, Copy, Debug)]
struct Directive {
    kind: DirKind,
    consumed: usize,
}

/// FileCheck's `FindCheckType` on the text after a prefix.
fn directive(rest: &str, is_comment: bool) -> Option<Directive> {
    let d = |kind, r: &str| Some(Directive { kind, consumed: rest.len() - r.len() });
    if rest.is_empty() {
        return None;
    }
    if is_comment {
        return rest.strip_prefix(':').and_then(|r| d(DirKind::Comment, r));
    }
    let modifiers = |kind: Kind, count: usize, r: &str| -> Option<(DirKind, usize)> {
        if let Some(r2) = r.strip_prefix(':') {
            return Some((DirKind::Check(kind, count, false), rest.len() - r2.len()));
        }
        // The only modifier, LITERAL, at least once.
        let mut r = r.strip_prefix('{')?;
        loop {
            r = r.trim_start();
            r = r.strip_prefix("LITERAL")?;
            r = r.trim_start();
            match r.strip_prefix(',') {
                Some(r2) => r = r2,
                None => break,
            }
        }
        let r = r.strip_prefix("}:")?;
        Some((DirKind::Check(kind, count, true), rest.len() - r.len()))
    };
    let wrap = |x: Option<(DirKind, usize)>| x.map(|(kind, consumed)| Directive { kind, consumed });
    if rest.starts_with(':') || rest.starts_with('{') {
        return wrap(modifiers(Kind::Plain, 1, rest));
    }
    let (misspelled, r) = match (rest.strip_prefix('_'), rest.strip_prefix('-')) {
        (Some(r), _) => (true, r),
        (_, Some(r)) => (false, r),
        _ => return None,
    };
    let found = if let Some(c) = r.strip_prefix("COUNT-") {
        let digits = c.bytes().take_while(u8::is_ascii_digit).count();
        let n: Option<usize> = c[..digits].parse().ok().filter(|n| *n > 0 && *n <= i32::MAX as usize);
        let after = &c[digits..];
        match n {
            Some(n) if after.starts_with(':') || after.starts_with('{') => wrap(modifiers(Kind::Plain, n, after)),
            _ => return d(DirKind::BadCount, after),
        }
    } else if ["DAG-NOT:", "NOT-DAG:", "NEXT-NOT:", "NOT-NEXT:", "SAME-NOT:", "NOT-SAME:", "EMPTY-NOT:", "NOT-EMPTY:"]
        .iter()
        .any(|x| r.starts_with(x))
    {
        return d(DirKind::BadNot, r);
    } else {
        let kinds = [
            ("NEXT", Kind::Next),
            ("SAME", Kind::Same),
            ("NOT", Kind::Not),
            ("DAG", Kind::Dag),
            ("LABEL", Kind::Label),
            ("EMPTY", Kind::Empty),
        ];
        kinds.iter().find_map(|(s, k)| r.strip_prefix(s).and_then(|r2| wrap(modifiers(*k, 1, r2))))
    };
    match found {
        Some(x) if misspelled => Some(Directive { kind: DirKind::Misspelled, consumed: x.consumed }),
        x => x,
    }
}

/// Where the `]]` closing a substitution block is: brackets inside it
/// nest, a backslash escapes the next character.
fn var_end(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        if depth == 0 && b[i..].starts_with(b"]]") {
            return Some(i);
        }
        match b[i] {
            b'\\' => i += 1,
            b'[' => depth += 1,
            b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

fn valid_name(s: &str) -> bool {
    let s = s.strip_prefix('$').unwrap_or(s);
    let mut c = s.bytes();
    c.next().is_some_and(|c| c.is_ascii_alphabetic() || c == b'_') && c.all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

fn parse_format(f: &str) -> Option<Format> {
    let f = f.strip_prefix('%')?;
    let (alt, f) = match f.strip_prefix('#') {
        Some(r) => (true, r),
        None => (false, f),
    };
    let (precision, f) = match f.strip_prefix('.') {
        Some(r) => {
            let n = r.bytes().take_while(u8::is_ascii_digit).count();
            (r[..n].parse().ok()?, &r[n..])
        }
        None => (0, f),
    };
    let conv = match f {
        "" => b'u',
        "u" | "d" | "x" | "X" => f.as_bytes()[0],
        _ => return None,
    };
    if alt && !matches!(conv, b'x' | b'X') {
        return None;
    }
    Some(Format { conv, alt, precision })
}

fn first_var(e: &Expr) -> Option<&str> {
    match e {
        Expr::Var(v) => Some(v),
        Expr::Bin(_, a, b) => first_var(a).or_else(|| first_var(b)),
        Expr::Call(_, xs) => xs.iter().find_map(first_var),
        _ => None,
    }
}

/// Parses a numeric expression (left-associative `+`/`-`).
fn parse_expr(s: &str) -> Result<Expr, String> {
    let mut p = ExprParser { s: s.as_bytes(), i: 0 };
    let e = p.sum()?;
    p.ws();
    if p.i != p.s.len() {
        return Err("unexpected characters at end of expression".into());
    }
    Ok(e)
}

struct ExprParser<'a> {
    s: &'a [u8],
    i: usize,
}

impl ExprParser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && (self.s[self.i] == b' ' || self.s[self.i] == b'\t') {
            self.i += 1;
        }
    }

    fn sum(&mut self) -> Result<Expr, String> {
        let mut l = self.atom()?;
        loop {
            self.ws();
            match self.s.get(self.i) {
                Some(&c @ (b'+' | b'-')) => {
                    self.i += 1;
                    let r = self.atom()?;
                    l = Expr::Bin(c as char, Box::new(l), Box::new(r));
                }
                _ => return Ok(l),
            }
        }
    }

    fn atom(&mut self) -> Result<Expr, String> {
        self.ws();
        let start = self.i;
        match self.s.get(self.i) {
            Some(b'(') => {
                self.i += 1;
                let e = self.sum()?;
                self.ws();
                if self.s.get(self.i) != Some(&b')') {
                    return Err("missing ')' at end of nested expression".into());
                }
                self.i += 1;
                Ok(e)
            }
            Some(b'@') => {
                if self.s[self.i..].starts_with(b"@LINE") {
                    self.i += 5;
                    Ok(Expr::Line)
                } else {
                    Err("invalid pseudo numeric variable '@'".into())
                }
            }
            Some(b'-') => {
                self.i += 1;
                let e = self.atom()?;
                Ok(Expr::Bin('-', Box::new(Expr::Lit(0)), Box::new(e)))
            }
            Some(c) if c.is_ascii_digit() => {
                let hex = self.s[self.i..].starts_with(b"0x");
                if hex {
                    self.i += 2;
                }
                while self.i < self.s.len()
                    && self.s[self.i].is_ascii_hexdigit()
                    && (hex || self.s[self.i].is_ascii_digit())
                {
                    self.i += 1;
                }
                let t = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("0");
                let v = match t.strip_prefix("0x") {
                    Some(h) => i128::from_str_radix(h, 16),
                    None => t.parse(),
                };
                let make = if hex { Expr::Hex } else { Expr::Lit };
                v.map(make).map_err(|_| format!("invalid literal '{t}'"))
            }
            Some(c) if c.is_ascii_alphabetic() || *c == b'_' || *c == b'$' => {
                self.i += 1;
                while self.i < self.s.len() && (self.s[self.i].is_ascii_alphanumeric() || self.s[self.i] == b'_') {
                    self.i += 1;
                }
                let name = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
                self.ws();
                if self.s.get(self.i) == Some(&b'(') {
                    self.i += 1;
                    let mut args = Vec::new();
                    loop {
                        args.push(self.sum()?);
                        self.ws();
                        match self.s.get(self.i) {
                            Some(b',') => self.i += 1,
                            Some(b')') => {
                                self.i += 1;
                                break;
                            }
                            _ => return Err("missing ')' at end of call expression".into()),
                        }
                    }
                    return Ok(Expr::Call(name, args));
                }
                Ok(Expr::Var(name))
            }
            _ => Err("invalid operand format".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    //! Each case states FileCheck's rule it pins (LLVM's FileCheck.cpp,
    //! `docs/CommandGuide/FileCheck.rst`); verdicts agree with LLVM 22's
    //! FileCheck (`tools/filecheck_fidelity.sh` measures that live).
    use super::*;

    fn run(opts: &Options, checks: &str, input: &str) -> (Status, String) {
        check(opts, "t.mlir", checks, "<stdin>", input)
    }

    fn status(checks: &str, input: &str) -> Status {
        run(&Options::default(), checks, input).0
    }

    #[test]
    fn plain_checks_match_in_order_anywhere_later() {
        assert_eq!(status("CHECK: b\nCHECK: d\n", "a\nb\nc\nd\n"), 0);
        assert_eq!(status("CHECK: d\nCHECK: b\n", "a\nb\nc\nd\n"), 1);
    }

    #[test]
    fn next_is_searched_anywhere_then_judged_by_its_line() {
        assert_eq!(status("CHECK: a\nCHECK-NEXT: b\n", "a\nb\n"), 0);
        let (s, d) = run(&Options::default(), "CHECK: a\nCHECK-NEXT: c\n", "a\nb\nc\n");
        assert_eq!(s, 1);
        assert!(d.contains("CHECK-NEXT: is not on the line after the previous match"), "{d}");
        let (_, d) = run(&Options::default(), "CHECK: a\nCHECK-NEXT: b\n", "a b\n");
        assert!(d.contains("is on the same line as previous match"), "{d}");
    }

    #[test]
    fn same_and_empty() {
        assert_eq!(status("CHECK: a\nCHECK-SAME: b\n", "a b\n"), 0);
        assert_eq!(status("CHECK: a\nCHECK-SAME: b\n", "a\nb\n"), 1);
        assert_eq!(status("CHECK: a\nCHECK-EMPTY:\nCHECK-NEXT: b\n", "a\n\nb\n"), 0);
        assert_eq!(status("CHECK: a\nCHECK-EMPTY:\n", "a\nx\n\n"), 1);
    }

    #[test]
    fn not_excludes_between_the_surrounding_matches() {
        assert_eq!(status("CHECK: a\nCHECK-NOT: x\nCHECK: b\n", "a\ny\nb\nx\n"), 0);
        let (s, d) = run(&Options::default(), "CHECK: a\nCHECK-NOT: x\nCHECK: b\n", "a\nx\nb\n");
        assert_eq!(s, 1);
        assert!(d.contains("t.mlir:2:12: error: CHECK-NOT: excluded string found in input"), "{d}");
        // A trailing NOT runs to the end of the input.
        assert_eq!(status("CHECK: a\nCHECK-NOT: x\n", "a\nx\n"), 1);
    }

    #[test]
    fn dag_matches_in_any_order_without_overlap() {
        assert_eq!(status("CHECK-DAG: b\nCHECK-DAG: a\nCHECK: c\n", "a\nb\nc\n"), 0);
        // Two DAGs may not claim the same text.
        assert_eq!(status("CHECK-DAG: a\nCHECK-DAG: a\n", "a\n"), 1);
        assert_eq!(status("CHECK-DAG: a\nCHECK-DAG: a\n", "a a\n"), 0);
    }

    #[test]
    fn labels_split_the_input_into_blocks() {
        let checks = "CHECK-LABEL: f:\nCHECK: x\nCHECK-LABEL: g:\nCHECK: y\n";
        assert_eq!(status(checks, "f:\nx\ng:\ny\n"), 0);
        // `x` after g: is outside f's block.
        assert_eq!(status(checks, "f:\ng:\nx\ny\n"), 1);
    }

    #[test]
    fn count_matches_n_times() {
        assert_eq!(status("CHECK-COUNT-3: x\n", "x\nx x\n"), 0);
        let (s, d) = run(&Options::default(), "CHECK-COUNT-3: x\n", "x\nx\n");
        assert_eq!(s, 1);
        assert!(d.contains("CHECK-COUNT: expected string not found in input (3 out of 3)"), "{d}");
    }

    #[test]
    fn whitespace_is_canonicalized_unless_strict() {
        assert_eq!(status("CHECK: a  b\n", "a\t \tb\n"), 0);
        let strict = Options { strict_whitespace: true, ..Options::default() };
        assert_eq!(run(&strict, "CHECK: a  b\n", "a\t \tb\n").0, 1);
        // Anchors see the canonical text: `{{^}} x` matches a line `\t  x`.
        assert_eq!(status("CHECK: a\nCHECK-NEXT: {{^}} x{{$}}\n", "a\n\t  x\n"), 0);
    }

    #[test]
    fn match_full_lines() {
        let o = Options { match_full_lines: true, ..Options::default() };
        assert_eq!(run(&o, "CHECK: a b\n", "  a b  \n").0, 0);
        assert_eq!(run(&o, "CHECK: a b\n", "a b c\n").0, 1);
    }

    #[test]
    fn regex_and_string_variables() {
        assert_eq!(status("CHECK: v{{[0-9]+}} = [[X:[a-z]+]]\nCHECK: use [[X]]\n", "v12 = foo\nuse foo\n"), 0);
        assert_eq!(status("CHECK: v = [[X:[a-z]+]]\nCHECK: use [[X]]\n", "v = foo\nuse bar\n"), 1);
        // A variable reused on its own line is a back-reference.
        assert_eq!(status("CHECK: [[R:r[0-9]]] = [[R]]\n", "r1 = r1\n"), 0);
        assert_eq!(status("CHECK: [[R:r[0-9]]] = [[R]]\n", "r1 = r2\n"), 1);
        // Variable values are matched literally.
        assert_eq!(status("CHECK: [[X:a.c]]\nCHECK: [[X]]\n", "a.c\nabc\n"), 1);
    }

    #[test]
    fn numeric_variables_and_line() {
        assert_eq!(status("CHECK: n=[[#N:]]\nCHECK: m=[[#N+1]]\n", "n=41\nm=42\n"), 0);
        assert_eq!(status("CHECK: n=[[#%x,N:]]\nCHECK: m=[[#N+1]]\n", "n=ff\nm=100\n"), 0);
        assert_eq!(status("CHECK: line [[#@LINE]]\n", "line 1\n"), 0);
        assert_eq!(status("\nCHECK: line [[@LINE-1]]\n", "line 1\n"), 0);
    }

    #[test]
    fn prefixes_and_comments() {
        let o = Options { check_prefixes: vec!["A".into(), "B".into()], ..Options::default() };
        assert_eq!(run(&o, "A: x\nB: y\n", "x y\n").0, 0);
        // A prefix inside a longer word is not a directive.
        assert_eq!(status("XCHECK: nothing\nCHECK: y\n", "y\n"), 0);
        // COM: and RUN: lines hide directives after them on the line.
        assert_eq!(status("COM: CHECK: absent\nCHECK: y\n", "y\n"), 0);
        let (s, d) = run(&Options::default(), "no directives\n", "y\n");
        assert_eq!(s, 2);
        assert_eq!(d, "error: no check strings found with prefix 'CHECK:'\n");
    }

    #[test]
    fn malformed_check_files_are_usage_errors() {
        assert_eq!(status("CHECK-NEXT: a\n", "a\n"), 2);
        assert_eq!(status("CHECK:\n", "a\n"), 2);
        assert_eq!(status("CHECK_NEXT: a\n", "a\n"), 2);
        assert_eq!(status("CHECK-COUNT-0: a\n", "a\n"), 2);
        assert_eq!(status("CHECK: {{a\n", "a\n"), 2);
    }

    #[test]
    fn empty_input_needs_allow_empty() {
        assert_eq!(status("CHECK-NOT: x\n", ""), 2);
        let o = Options { allow_empty: true, ..Options::default() };
        assert_eq!(run(&o, "CHECK-NOT: x\n", "").0, 0);
    }

    #[test]
    fn diagnostics_point_into_both_files() {
        let (_, d) = run(&Options::default(), "CHECK: hello\n", "world\n");
        assert_eq!(
            d,
            "t.mlir:1:8: error: CHECK: expected string not found in input\nCHECK: hello\n       ^\n\
             <stdin>:1:1: note: scanning from here\nworld\n^\n"
        );
    }

    #[test]
    fn command_line_spellings() {
        let a = |v: &[&str]| parse_args(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        let (o, f, i) = a(&["-check-prefix=X", "--input-file", "in", "c.mlir", "-DV=1", "-match-full-lines"]).unwrap();
        assert_eq!(
            (o.check_prefixes, f, i, o.defines, o.match_full_lines),
            (vec!["X".to_string()], "c.mlir".into(), Some("in".into()), vec!["V=1".to_string()], true)
        );
        assert!(a(&["--no-such-option", "c"]).is_err());
    }
}
