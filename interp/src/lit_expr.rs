//! What lit computes from the features of the host: its boolean feature
//! expressions (`REQUIRES:`, `UNSUPPORTED:`, `XFAIL:` and the conditions of
//! `%if`) and the `%if COND %{ ... %} %else %{ ... %}` substitution, both
//! as LLVM 22's lit implements them (`lit/BooleanExpression.py` and
//! `substituteIfElse` in `lit/TestRunner.py`), and the features MLIR's lit
//! configuration makes available on the host this runs on.

/// The features `mlir/test/lit.cfg.py` and lit's LLVM configuration make
/// available here: the system, the host and target triple (one: this is
/// a native run), the native target, JIT support (the runner answers
/// `--host-supports-jit` with `true`), and `noasserts` (LLVM 22 as
/// Debian builds it, whose mlir-opt the RUN lines use, has no
/// assertions).
pub fn host_features() -> Vec<String> {
    let (arch, os) = (std::env::consts::ARCH, std::env::consts::OS);
    let system = match os {
        "macos" => "darwin",
        o => o,
    };
    let triple = match (arch, os) {
        ("x86_64", "linux") => "x86_64-pc-linux-gnu".to_string(),
        (a, "linux") => format!("{a}-unknown-linux-gnu"),
        (a, "macos") => format!("{a}-apple-darwin"),
        (a, o) => format!("{a}-unknown-{o}"),
    };
    // LLVM's name of the native target (`LLVM_NATIVE_ARCH`, lowercased).
    let target = match arch {
        "x86_64" | "x86" => "x86",
        "riscv64" | "riscv32" => "riscv",
        "powerpc64" | "powerpc" => "powerpc",
        a => a,
    };
    let mut f = vec![
        format!("system-{system}"),
        format!("host={triple}"),
        format!("target={triple}"),
        "native".to_string(),
        format!("{target}-native-target"),
        format!("{target}-registered-target"),
        "host-supports-jit".to_string(),
        "noasserts".to_string(),
    ];
    match (arch, os) {
        ("x86_64", "linux") => f.extend(["target-x86_64".to_string(), "x86_64-linux".to_string()]),
        ("x86_64", _) => f.push("target-x86_64".to_string()),
        ("aarch64", _) => f.push("target-aarch64".to_string()),
        _ => {}
    }
    f
}

/// Evaluates lit's boolean expression `expr` (`!`, `&&`, `||`, parentheses,
/// identifiers that may hold `{{regex}}` parts) over `features`: an
/// identifier is true when it matches one of them whole, and `true` always
/// holds. `Err` is lit's message for a malformed expression.
pub fn eval(expr: &str, features: &[String]) -> Result<bool, String> {
    let toks = tokenize(expr).map_err(|e| format!("{e}\nin expression: '{expr}'"))?;
    let mut p = Parser { toks, at: 0, features };
    let v = p.or().and_then(|v| p.expect(None).map(|_| v));
    v.map_err(|e| format!("{e}\nin expression: '{expr}'"))
}

/// lit's tokens: `(`, `)`, `&&`, `||`, `!` and identifiers made of
/// `[-+=._a-zA-Z0-9]` runs and `{{...}}` regexes.
fn tokenize(s: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut rest = s.trim_start();
    while !rest.is_empty() {
        let op = ["&&", "||", "(", ")", "!"].into_iter().find(|o| rest.starts_with(o));
        let len = match op {
            Some(o) => o.len(),
            None => ident_len(rest),
        };
        if len == 0 {
            return Err(format!("couldn't parse text: '{rest}'"));
        }
        out.push(rest[..len].to_string());
        rest = rest[len..].trim_start();
    }
    Ok(out)
}

/// The length of the identifier `s` starts with (0 if none).
fn ident_len(s: &str) -> usize {
    let b = s.as_bytes();
    let mut i = 0;
    loop {
        if b.get(i).is_some_and(|c| c.is_ascii_alphanumeric() || b"-+=._".contains(c)) {
            i += 1;
        } else if s[i..].starts_with("{{") {
            // `{{.+?}}`: the shortest regex of at least one character.
            match s.get(i + 3..).and_then(|r| r.find("}}")) {
                Some(k) => i += 3 + k + 2,
                None => return i,
            }
        } else {
            return i;
        }
    }
}

struct Parser<'a> {
    toks: Vec<String>,
    at: usize,
    features: &'a [String],
}

impl Parser<'_> {
    fn peek(&self) -> Option<&str> {
        self.toks.get(self.at).map(String::as_str)
    }

    fn accept(&mut self, t: &str) -> bool {
        let hit = self.peek() == Some(t);
        self.at += usize::from(hit);
        hit
    }

    fn expect(&mut self, t: Option<&str>) -> Result<(), String> {
        if self.peek() == t {
            self.at += usize::from(t.is_some());
            return Ok(());
        }
        let show = |t: Option<&str>| t.map_or("<end of expression>".to_string(), |t| format!("'{t}'"));
        Err(format!("expected: {}\nhave: {}", show(t), show(self.peek())))
    }

    fn or(&mut self) -> Result<bool, String> {
        let mut v = self.and()?;
        while self.accept("||") {
            let r = self.and()?;
            v = v || r;
        }
        Ok(v)
    }

    fn and(&mut self) -> Result<bool, String> {
        let mut v = self.not()?;
        while self.accept("&&") {
            let r = self.not()?;
            v = v && r;
        }
        Ok(v)
    }

    fn not(&mut self) -> Result<bool, String> {
        if self.accept("!") {
            return Ok(!self.not()?);
        }
        if self.accept("(") {
            let v = self.or()?;
            self.expect(Some(")"))?;
            return Ok(v);
        }
        match self.peek() {
            Some(t) if !matches!(t, "&&" | "||" | ")") => {
                let t = t.to_string();
                self.at += 1;
                self.matches(&t)
            }
            t => Err(format!(
                "expected: '!', '(', '{{{{', or identifier\nhave: {}",
                t.map_or("<end of expression>".to_string(), |t| format!("'{t}'"))
            )),
        }
    }

    /// Whether identifier `t` matches a feature (or is `true`).
    fn matches(&self, t: &str) -> Result<bool, String> {
        let mut re = String::new();
        let mut rest = t;
        while !rest.is_empty() {
            if let Some(body) = rest.strip_prefix("{{") {
                // The tokenizer saw the closing `}}` at least a character on.
                let end = body.get(1..).and_then(|b| b.find("}}")).map_or(body.len(), |k| k + 1);
                re.push_str(&format!("(?:{})", &body[..end]));
                rest = body.get(end + 2..).unwrap_or("");
            } else {
                let k = rest.find("{{").unwrap_or(rest.len());
                re.push_str(&fancy_regex::escape(&rest[..k]));
                rest = &rest[k..];
            }
        }
        let re = fancy_regex::Regex::new(&format!("^(?:{re})$")).map_err(|e| format!("bad regex in '{t}': {e}"))?;
        let hit = |f: &str| re.is_match(f).unwrap_or(false);
        Ok(hit("true") || self.features.iter().any(|f| hit(f)))
    }
}

/// Applies lit's `%if COND %{ A %} [%else %{ B %}]` substitution to one
/// command: A where COND holds over `features`, else B (or nothing).
/// Branches nest. `%%` must already be escaped (lit escapes it first).
pub fn substitute_if_else(line: &str, features: &[String]) -> Result<String, String> {
    if !line.contains("%if ") {
        return Ok(line.to_string());
    }
    let (out, rest) = recurse(line, false, features)?;
    debug_assert!(rest.is_empty());
    Ok(out)
}

/// lit's `parseRecursive`: text up to the end (or, nested, up to `%}`),
/// with every `%if` in it resolved; the text after it.
fn recurse<'a>(mut ln: &'a str, nested: bool, features: &[String]) -> Result<(String, &'a str), String> {
    let mut out = String::new();
    while !ln.is_empty() {
        if nested && ln.starts_with("%}") {
            break;
        }
        if let Some(after) = ln.strip_prefix("%if ") {
            let open = after.find("%{").ok_or("'%{' is missing for %if substitution")?;
            let cond = &after[..open];
            let (then, rest) = recurse(&after[open + 2..], true, features)?;
            ln = rest.strip_prefix("%}").ok_or("'%}' is missing for %if substitution")?;
            let mut otherwise = String::new();
            let trimmed = ln.trim_start();
            if let Some(e) = trimmed.strip_prefix("%else") {
                let e = e.trim_start();
                let body = e.strip_prefix("%{").ok_or("'%{' is missing for %else substitution")?;
                let (b, rest) = recurse(body, true, features)?;
                ln = rest.strip_prefix("%}").ok_or("'%}' is missing for %else substitution")?;
                otherwise = b;
            }
            out.push_str(if eval(cond, features)? { &then } else { &otherwise });
            continue;
        }
        // Plain text up to the next `%if` (or `%}` when nested); at least
        // one character, so a `%ifx` that is no `%if` moves on.
        let first = ln.chars().next().map_or(1, char::len_utf8);
        let stop = [Some("%if"), nested.then_some("%}")]
            .into_iter()
            .flatten()
            .filter_map(|p| ln[first..].find(p).map(|k| k + first))
            .min()
            .unwrap_or(ln.len());
        out.push_str(&ln[..stop]);
        ln = &ln[stop..];
    }
    Ok((out, ln))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feats() -> Vec<String> {
        ["system-linux", "target=x86_64-pc-linux-gnu", "host-supports-jit"].map(String::from).to_vec()
    }

    /// BooleanExpression.py's cases: operators, precedence, regexes.
    #[test]
    fn expressions_as_lit_evaluates_them() {
        let f = feats();
        let t = |e: &str| eval(e, &f).unwrap();
        assert!(t("system-linux") && t("true") && !t("asan"));
        assert!(t("!asan") && t("!(asan || msan)") && t("system-linux && host-supports-jit"));
        assert!(t("asan || system-linux && true") && !t("(asan || system-linux) && false"));
        assert!(t("target=x86_64{{.*}}") && !t("target=aarch64{{.*}}") && t("target={{.*}}-linux-gnu"));
        assert!(!t("system-lin"), "identifiers match whole features");
        assert!(eval("a &&", &f).unwrap_err().contains("expected: '!', '(', '{{', or identifier"));
        assert!(eval("(a", &f).unwrap_err().contains("expected: ')'"));
        assert!(eval("a b", &f).unwrap_err().contains("expected: <end of expression>"));
        assert!(eval("a @ b", &f).unwrap_err().contains("couldn't parse text"));
    }

    /// TestRunner.py's `%if`: the branch the condition picks, nesting,
    /// `%else`, text around, and lit's errors.
    #[test]
    fn if_else_as_lit_substitutes() {
        let f = feats();
        let s = |l: &str| substitute_if_else(l, &f);
        assert_eq!(s("a %if system-linux %{ b %} c").unwrap(), "a  b  c");
        assert_eq!(s("a %if asan %{ b %} c").unwrap(), "a  c");
        assert_eq!(s("%if asan %{ x %} %else %{ y %}").unwrap(), " y ");
        assert_eq!(s("%if true %{ %if asan %{ x %} %else %{ y %} %}").unwrap(), "  y  ");
        assert_eq!(s("%if true %{%}%if true %{z%}").unwrap(), "z");
        assert_eq!(s("no conditions %{ here %}").unwrap(), "no conditions %{ here %}");
        assert_eq!(s("%if x").unwrap_err(), "'%{' is missing for %if substitution");
        assert_eq!(s("%if true %{ x").unwrap_err(), "'%}' is missing for %if substitution");
        assert_eq!(s("%if true %{ x %} %else y").unwrap_err(), "'%{' is missing for %else substitution");
    }
}
