//! Source files, spans and diagnostics rendered the way `mlir-opt` renders
//! them: `file:line:col: error: message`, the source line, and a caret.

use std::fmt;

/// A half-open byte range into the one source text of a parse.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span covering `start..end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start: start as u32, end: end as u32 }
    }
}

/// A named source text with a line index, so positions render as line:col.
#[derive(Clone, Debug)]
pub struct Source {
    /// The name shown in diagnostics (a path, or `<stdin>`).
    pub name: String,
    /// The whole text.
    pub text: String,
    line_starts: Vec<u32>,
}

impl Source {
    /// Indexes `text` so that offsets can be turned into lines and columns.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Source {
        let text = text.into();
        let mut line_starts = vec![0u32];
        line_starts.extend(text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i as u32 + 1));
        Source { name: name.into(), text, line_starts }
    }

    /// 1-based line and column (in bytes, as MLIR's SourceMgr counts them).
    pub fn line_col(&self, offset: u32) -> (usize, usize) {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        (line + 1, (offset - self.line_starts[line]) as usize + 1)
    }

    /// How many lines the text has (a final newline ends the last one).
    pub fn line_count(&self) -> usize {
        let n = self.line_starts.len();
        if n > 1 && self.line_starts[n - 1] as usize == self.text.len() {
            n - 1
        } else {
            n
        }
    }

    /// The text of 1-based line `line`, without its newline.
    pub fn line_text(&self, line: usize) -> &str {
        let start = self.line_starts[line - 1] as usize;
        let end = self.line_starts.get(line).map(|e| *e as usize - 1).unwrap_or(self.text.len());
        self.text[start..end.max(start)].trim_end_matches('\r')
    }

    /// `name:line:col` for a byte offset.
    pub fn position(&self, offset: u32) -> String {
        let (l, c) = self.line_col(offset);
        format!("{}:{}:{}", self.name, l, c)
    }
}

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// Stops the run.
    Error,
    /// Reported, does not stop.
    Warning,
    /// Attached to another diagnostic.
    Note,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        })
    }
}

/// One message about a place in the source, with optional notes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Diagnostic {
    /// Error, warning or note.
    pub severity: Severity,
    /// Where it points.
    pub span: Span,
    /// Lowercase message, as mlir-opt words it where it has a counterpart.
    pub message: String,
    /// Further places that explain the first.
    pub notes: Vec<(Span, String)>,
}

impl Diagnostic {
    /// An error at `span`.
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Error, span, message: message.into(), notes: Vec::new() }
    }

    /// Adds a note pointing at `span`.
    pub fn with_note(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.notes.push((span, message.into()));
        self
    }

    /// Renders the diagnostic and its notes as mlir-opt does.
    pub fn render(&self, src: &Source) -> String {
        let mut out = String::new();
        render_one(&mut out, src, self.severity, self.span, &self.message);
        for (span, msg) in &self.notes {
            render_one(&mut out, src, Severity::Note, *span, msg);
        }
        out
    }
}

fn render_one(out: &mut String, src: &Source, sev: Severity, span: Span, msg: &str) {
    let offset = span.start.min(src.text.len() as u32);
    let (line, col) = src.line_col(offset);
    out.push_str(&format!("{}:{}:{}: {}: {}\n", src.name, line, col, sev, msg));
    let text = src.line_text(line);
    out.push_str(text);
    out.push('\n');
    let pad: String = text.chars().take(col - 1).map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
    out.push_str(&pad);
    out.push_str("^\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_line_and_caret() {
        let src = Source::new("t.mlir", "a\n  bad x\n");
        let d = Diagnostic::error(Span::new(6, 7), "oops");
        assert_eq!(d.render(&src), "t.mlir:2:5: error: oops\n  bad x\n    ^\n");
    }

    #[test]
    fn end_of_file_position() {
        let src = Source::new("t.mlir", "ab");
        assert_eq!(src.line_col(2), (1, 3));
    }
}
