//! A line diff in unified form, for showing what one pass did to a module
//! (`passcheck --each-pass`) and what a reduction removed.

/// Past this many cells the quadratic table is not worth it: the caller
/// shows both texts whole.
const MAX_CELLS: usize = 16 << 20;

/// The unified diff (`-`/`+`/` ` lines, `context` lines around each change,
/// `@@` hunk headers) that turns `a` into `b`; `None` when the texts are too
/// large to compare line by line.
pub fn unified(a: &str, b: &str, context: usize) -> Option<String> {
    let (x, y): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let ops = edit_script(&x, &y)?;
    Some(render(&ops, &x, &y, context))
}

/// One step of an edit script: keep, delete from `a`, insert from `b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Edit {
    Keep(usize, usize),
    Del(usize),
    Ins(usize),
}

/// A shortest edit script by the longest common subsequence of lines
/// (common prefix and suffix trimmed first, so the table covers only the
/// part that changed).
fn edit_script(x: &[&str], y: &[&str]) -> Option<Vec<Edit>> {
    let pre = x.iter().zip(y).take_while(|(p, q)| p == q).count();
    let suf = x[pre..].iter().rev().zip(y[pre..].iter().rev()).take_while(|(p, q)| p == q).count();
    let (xs, ys) = (&x[pre..x.len() - suf], &y[pre..y.len() - suf]);
    let (n, m) = (xs.len(), ys.len());
    if (n + 1).checked_mul(m + 1)? > MAX_CELLS {
        return None;
    }
    // lcs[i][j]: the LCS length of xs[i..] and ys[j..].
    let w = m + 1;
    let mut lcs = vec![0u32; (n + 1) * w];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i * w + j] = if xs[i] == ys[j] {
                lcs[(i + 1) * w + j + 1] + 1
            } else {
                lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
            };
        }
    }
    let mut ops: Vec<Edit> = (0..pre).map(|i| Edit::Keep(i, i)).collect();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && xs[i] == ys[j] {
            ops.push(Edit::Keep(pre + i, pre + j));
            (i, j) = (i + 1, j + 1);
        } else if i < n && (j == m || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) {
            // Deletions first, as diff prints them.
            ops.push(Edit::Del(pre + i));
            i += 1;
        } else {
            ops.push(Edit::Ins(pre + j));
            j += 1;
        }
    }
    ops.extend((0..suf).map(|k| Edit::Keep(x.len() - suf + k, y.len() - suf + k)));
    Some(ops)
}

/// The script as hunks with `context` unchanged lines around each change.
fn render(ops: &[Edit], x: &[&str], y: &[&str], context: usize) -> String {
    let changed: Vec<usize> =
        ops.iter().enumerate().filter(|(_, e)| !matches!(e, Edit::Keep(..))).map(|(k, _)| k).collect();
    let mut out = String::new();
    let mut k = 0;
    while k < changed.len() {
        // A hunk: changes closer than two contexts apart share one.
        let first = changed[k];
        let mut last = first;
        while k + 1 < changed.len() && changed[k + 1] <= last + 2 * context + 1 {
            k += 1;
            last = changed[k];
        }
        k += 1;
        let (from, to) = (first.saturating_sub(context), (last + context + 1).min(ops.len()));
        let hunk = &ops[from..to];
        // Line numbers where the hunk starts on each side (1-based).
        let start = |side_a: bool| {
            ops[..from]
                .iter()
                .filter(|e| if side_a { !matches!(e, Edit::Ins(_)) } else { !matches!(e, Edit::Del(_)) })
                .count()
                + 1
        };
        let len_a = hunk.iter().filter(|e| !matches!(e, Edit::Ins(_))).count();
        let len_b = hunk.iter().filter(|e| !matches!(e, Edit::Del(_))).count();
        out.push_str(&format!("@@ -{},{len_a} +{},{len_b} @@\n", start(true), start(false)));
        for e in hunk {
            match *e {
                Edit::Keep(i, _) => out.push_str(&format!(" {}\n", x[i])),
                Edit::Del(i) => out.push_str(&format!("-{}\n", x[i])),
                Edit::Ins(j) => out.push_str(&format!("+{}\n", y[j])),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_texts_have_an_empty_diff() {
        assert_eq!(unified("a\nb\n", "a\nb\n", 3).unwrap(), "");
    }

    #[test]
    fn one_changed_line_with_context() {
        let a = "1\n2\n3\n4\n5\n6\n7\n";
        let b = "1\n2\n3\nfour\n5\n6\n7\n";
        assert_eq!(unified(a, b, 1).unwrap(), "@@ -3,3 +3,3 @@\n 3\n-4\n+four\n 5\n");
    }

    #[test]
    fn distant_changes_make_two_hunks() {
        let a = "a\n1\n2\n3\n4\n5\nb\n";
        let b = "A\n1\n2\n3\n4\n5\nB\n";
        let d = unified(a, b, 1).unwrap();
        assert_eq!(d, "@@ -1,2 +1,2 @@\n-a\n+A\n 1\n@@ -6,2 +6,2 @@\n 5\n-b\n+B\n");
    }

    #[test]
    fn insertions_and_deletions() {
        assert_eq!(unified("x\n", "x\ny\n", 0).unwrap(), "@@ -2,0 +2,1 @@\n+y\n");
        assert_eq!(unified("x\ny\n", "y\n", 0).unwrap(), "@@ -1,1 +1,0 @@\n-x\n");
    }
}
