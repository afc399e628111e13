//! SSA names as the source spells them (`%x`, `%r#1` inside a result
//! group `%r:2`), read back from the text at a value's span, for what
//! shows values to people: the debugger, the trace, argument errors. It
//! imports none of them, so each can use it.

use mlir_ir::diag::Source;
use mlir_ir::ir::{Module, ValueDef, ValueId};

/// The name a value has in the source: a block argument's own spelling, an
/// op result's from the op's result list (`%r#1` inside a group `%r:2`).
pub fn value_name(src: &Source, m: &Module, v: ValueId) -> String {
    let text = |start: u32| src.text.get(start as usize..).unwrap_or("");
    match m.value(v).def {
        ValueDef::Arg(..) => {
            let t = text(m.value(v).span.start);
            t.chars().take_while(|c| is_name_char(*c)).collect()
        }
        ValueDef::Result(op, i) => {
            let groups = result_groups(&src.text[..(m.op(op).span.start as usize).min(src.text.len())]);
            let mut first = 0;
            for (name, n) in &groups {
                if (i as usize) < first + n {
                    return if *n == 1 { name.clone() } else { format!("{name}#{}", i as usize - first) };
                }
                first += n;
            }
            format!("%<result {i} of {}>", m.op_name(op))
        }
    }
}

/// Characters of an SSA name (`%` and the suffix-id characters).
pub(crate) fn is_name_char(c: char) -> bool {
    c == '%' || c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.' | '-')
}

/// The result list that ends `before` (the text up to an op's name):
/// `%a, %b:2 =` gives `[("%a", 1), ("%b", 2)]`.
fn result_groups(before: &str) -> Vec<(String, usize)> {
    let Some(list) = before.trim_end().strip_suffix('=') else { return Vec::new() };
    // A result list does not span lines; stopping at one keeps the last op's text out.
    let in_list = |c: char| is_name_char(c) || c == ':' || c == ',' || c == ' ' || c == '\t';
    let start = list.char_indices().rev().take_while(|(_, c)| in_list(*c)).last().map_or(list.len(), |(i, _)| i);
    let list = &list[start..];
    let Some(first) = list.find('%') else { return Vec::new() };
    let mut out = Vec::new();
    for group in list[first..].split(',') {
        let (name, n) = match group.split_once(':') {
            Some((name, n)) => (name.trim(), n.trim().parse().unwrap_or(1)),
            None => (group.trim(), 1),
        };
        out.push((name.to_string(), n));
    }
    out
}
