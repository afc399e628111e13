//! The MLIR lexer: turns source bytes into tokens on demand. The parser can
//! reset it to any offset, which the dimension-list grammar (`4x8xf32`)
//! needs because the lexer would read `x8xf32` as one identifier.

use crate::diag::{Diagnostic, Span};

/// What kind of token was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    /// End of input.
    Eof,
    /// `[a-zA-Z_][a-zA-Z0-9_$.]*`
    BareId,
    /// `%name` or `%0`.
    PercentId,
    /// `^bb0`.
    CaretId,
    /// `#alias`, `#dialect.attr`.
    HashId,
    /// `!alias`, `!dialect.type`.
    ExclId,
    /// `@sym` or `@"sym"`.
    AtId,
    /// Decimal or `0x` hexadecimal digits.
    Integer,
    /// A decimal float literal.
    Float,
    /// A `"..."` string.
    String,
    /// `->`
    Arrow,
    /// `:`
    Colon,
    /// `,`
    Comma,
    /// `...`
    Ellipsis,
    /// `=`
    Equal,
    /// `>`
    Greater,
    /// `<`
    Less,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `[`
    LSquare,
    /// `]`
    RSquare,
    /// `-`
    Minus,
    /// `+`
    Plus,
    /// `*`
    Star,
    /// `?`
    Question,
    /// `|`
    VerticalBar,
    /// `{-#`
    FileMetadataBegin,
    /// `#-}`
    FileMetadataEnd,
}

impl Tok {
    /// How the token kind is named in "expected ..." messages.
    pub fn describe(self) -> &'static str {
        match self {
            Tok::Eof => "end of file",
            Tok::BareId => "identifier",
            Tok::PercentId => "SSA value",
            Tok::CaretId => "block name",
            Tok::HashId => "attribute alias",
            Tok::ExclId => "type alias",
            Tok::AtId => "symbol",
            Tok::Integer => "integer",
            Tok::Float => "float",
            Tok::String => "string",
            Tok::Arrow => "'->'",
            Tok::Colon => "':'",
            Tok::Comma => "','",
            Tok::Ellipsis => "'...'",
            Tok::Equal => "'='",
            Tok::Greater => "'>'",
            Tok::Less => "'<'",
            Tok::LBrace => "'{'",
            Tok::RBrace => "'}'",
            Tok::LParen => "'('",
            Tok::RParen => "')'",
            Tok::LSquare => "'['",
            Tok::RSquare => "']'",
            Tok::Minus => "'-'",
            Tok::Plus => "'+'",
            Tok::Star => "'*'",
            Tok::Question => "'?'",
            Tok::VerticalBar => "'|'",
            Tok::FileMetadataBegin => "'{-#'",
            Tok::FileMetadataEnd => "'#-}'",
        }
    }
}

/// A token: its kind and where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// The kind.
    pub kind: Tok,
    /// Its bytes in the source.
    pub span: Span,
}

/// Reads tokens from a source text.
pub struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
}

fn is_id_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_id_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.')
}

fn is_suffix_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.' | b'-')
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `text`.
    pub fn new(text: &'a str) -> Lexer<'a> {
        Lexer { src: text.as_bytes(), pos: 0 }
    }

    /// Continues lexing from byte `pos`.
    pub fn reset(&mut self, pos: usize) {
        self.pos = pos;
    }

    /// The byte offset the next token starts at (before whitespace skipping).
    pub fn pos(&self) -> usize {
        self.pos
    }

    fn peek(&self, k: usize) -> u8 {
        self.src.get(self.pos + k).copied().unwrap_or(0)
    }

    fn skip_trivia(&mut self) {
        loop {
            match self.peek(0) {
                b' ' | b'\t' | b'\n' | b'\r' => self.pos += 1,
                b'/' if self.peek(1) == b'/' => {
                    while self.pos < self.src.len() && self.src[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                }
                _ => return,
            }
        }
    }

    /// Reads the next token.
    pub fn next_token(&mut self) -> Result<Token, Diagnostic> {
        self.skip_trivia();
        let start = self.pos;
        let tok = |kind, end: usize| Ok(Token { kind, span: Span::new(start, end) });
        if self.pos >= self.src.len() {
            return tok(Tok::Eof, start);
        }
        let c = self.src[self.pos];
        self.pos += 1;
        let single = match c {
            b':' => Some(Tok::Colon),
            b',' => Some(Tok::Comma),
            b'=' => Some(Tok::Equal),
            b'>' => Some(Tok::Greater),
            b'<' => Some(Tok::Less),
            b'}' => Some(Tok::RBrace),
            b'(' => Some(Tok::LParen),
            b')' => Some(Tok::RParen),
            b'[' => Some(Tok::LSquare),
            b']' => Some(Tok::RSquare),
            b'+' => Some(Tok::Plus),
            b'*' => Some(Tok::Star),
            b'?' => Some(Tok::Question),
            b'|' => Some(Tok::VerticalBar),
            _ => None,
        };
        if let Some(kind) = single {
            return tok(kind, self.pos);
        }
        match c {
            b'{' => {
                if self.peek(0) == b'-' && self.peek(1) == b'#' {
                    self.pos += 2;
                    return tok(Tok::FileMetadataBegin, self.pos);
                }
                tok(Tok::LBrace, self.pos)
            }
            b'-' => {
                if self.peek(0) == b'>' {
                    self.pos += 1;
                    return tok(Tok::Arrow, self.pos);
                }
                tok(Tok::Minus, self.pos)
            }
            b'.' => {
                if self.peek(0) == b'.' && self.peek(1) == b'.' {
                    self.pos += 2;
                    return tok(Tok::Ellipsis, self.pos);
                }
                Err(Diagnostic::error(
                    Span::new(start + 1, start + 1),
                    "expected three consecutive dots for an ellipsis",
                ))
            }
            b'"' => self.lex_string(start),
            b'@' => {
                if self.peek(0) == b'"' {
                    self.pos += 1;
                    self.lex_string(start)?;
                    return tok(Tok::AtId, self.pos);
                }
                if !is_id_start(self.peek(0)) {
                    return Err(Diagnostic::error(
                        Span::new(start + 1, start + 1),
                        "@ identifier expected to start with letter or '_'",
                    ));
                }
                while is_id_char(self.peek(0)) {
                    self.pos += 1;
                }
                tok(Tok::AtId, self.pos)
            }
            b'#' if self.peek(0) == b'-' && self.peek(1) == b'}' => {
                self.pos += 2;
                tok(Tok::FileMetadataEnd, self.pos)
            }
            b'%' | b'^' | b'#' | b'!' => {
                let kind = match c {
                    b'%' => Tok::PercentId,
                    b'^' => Tok::CaretId,
                    b'#' => Tok::HashId,
                    _ => Tok::ExclId,
                };
                let n = self.peek(0);
                if n.is_ascii_digit() {
                    while self.peek(0).is_ascii_digit() {
                        self.pos += 1;
                    }
                } else if n.is_ascii_alphabetic() || matches!(n, b'$' | b'.' | b'_' | b'-') {
                    while is_suffix_char(self.peek(0)) {
                        self.pos += 1;
                    }
                } else {
                    let what = match c {
                        b'%' => "invalid SSA name",
                        b'^' => "invalid block name",
                        b'#' => "invalid attribute name",
                        _ => "invalid type identifier",
                    };
                    return Err(Diagnostic::error(Span::new(start, start + 1), what));
                }
                tok(kind, self.pos)
            }
            b'0'..=b'9' => self.lex_number(start),
            c if is_id_start(c) => {
                while is_id_char(self.peek(0)) {
                    self.pos += 1;
                }
                tok(Tok::BareId, self.pos)
            }
            _ => {
                // Report the whole UTF-8 character, not a stray byte.
                let ch = std::str::from_utf8(&self.src[start..])
                    .ok()
                    .and_then(|s| s.chars().next())
                    .map(|ch| ch.to_string())
                    .unwrap_or_else(|| format!("\\x{c:02X}"));
                Err(Diagnostic::error(Span::new(start, start + 1), {
                    let _ = ch;
                    "unexpected character".to_string()
                }))
            }
        }
    }

    fn lex_number(&mut self, start: usize) -> Result<Token, Diagnostic> {
        let first = self.src[start];
        if first == b'0' && self.peek(0) == b'x' && self.peek(1).is_ascii_hexdigit() {
            self.pos += 1;
            while self.peek(0).is_ascii_hexdigit() {
                self.pos += 1;
            }
            return Ok(Token { kind: Tok::Integer, span: Span::new(start, self.pos) });
        }
        while self.peek(0).is_ascii_digit() {
            self.pos += 1;
        }
        if self.peek(0) != b'.' {
            return Ok(Token { kind: Tok::Integer, span: Span::new(start, self.pos) });
        }
        self.pos += 1;
        while self.peek(0).is_ascii_digit() {
            self.pos += 1;
        }
        if matches!(self.peek(0), b'e' | b'E')
            && (self.peek(1).is_ascii_digit() || (matches!(self.peek(1), b'+' | b'-') && self.peek(2).is_ascii_digit()))
        {
            self.pos += 2;
            while self.peek(0).is_ascii_digit() {
                self.pos += 1;
            }
        }
        Ok(Token { kind: Tok::Float, span: Span::new(start, self.pos) })
    }

    fn lex_string(&mut self, start: usize) -> Result<Token, Diagnostic> {
        loop {
            if self.pos >= self.src.len() {
                let _ = start;
                return Err(Diagnostic::error(Span::new(self.pos, self.pos), "expected '\"' in string literal"));
            }
            let c = self.src[self.pos];
            self.pos += 1;
            match c {
                b'"' => return Ok(Token { kind: Tok::String, span: Span::new(start, self.pos) }),
                b'\n' | b'\r' => {
                    return Err(Diagnostic::error(Span::new(self.pos - 1, self.pos), "expected '\"' in string literal"))
                }
                b'\\' => {
                    let n = self.peek(0);
                    if matches!(n, b'"' | b'\\' | b'n' | b't') {
                        self.pos += 1;
                    } else if n.is_ascii_hexdigit() && self.peek(1).is_ascii_hexdigit() {
                        self.pos += 2;
                    } else {
                        return Err(Diagnostic::error(
                            Span::new(self.pos - 1, self.pos),
                            "unknown escape in string literal",
                        ));
                    }
                }
                _ => {}
            }
        }
    }

    /// Reads the raw body of a pretty dialect symbol starting just after its
    /// `<`, honouring nested brackets and strings; returns the end offset of
    /// the matching `>`.
    pub fn skip_dialect_body(&mut self, open: usize) -> Result<usize, Diagnostic> {
        // As LLVM 22's parseDialectSymbolBody: `->` is one token, and a
        // closer that does not match, or the end of the input, is reported
        // at the body's `<`, naming the innermost bracket left open.
        let mut stack: Vec<u8> = vec![b'<'];
        let unbalanced = |top: u8| {
            Diagnostic::error(
                Span::new(open, open + 1),
                format!("unbalanced '{}' character in pretty dialect name", top as char),
            )
        };
        while let Some(&c) = self.src.get(self.pos) {
            self.pos += 1;
            match c {
                b'<' | b'(' | b'[' | b'{' => stack.push(c),
                b'"' => {
                    let s = self.pos - 1;
                    self.lex_string(s)?;
                }
                b'-' if self.src.get(self.pos) == Some(&b'>') => self.pos += 1,
                b'>' | b')' | b']' | b'}' => {
                    let want = match c {
                        b'>' => b'<',
                        b')' => b'(',
                        b']' => b'[',
                        _ => b'{',
                    };
                    let top = *stack.last().unwrap_or(&b'<');
                    if top != want {
                        return Err(unbalanced(top));
                    }
                    stack.pop();
                    if stack.is_empty() {
                        return Ok(self.pos);
                    }
                }
                _ => {}
            }
        }
        Err(unbalanced(*stack.last().unwrap_or(&b'<')))
    }
}

/// Decodes the escapes of a string literal token (quotes included).
pub fn unescape(lit: &str) -> Vec<u8> {
    let b = lit.as_bytes();
    let inner = &b[1..b.len() - 1];
    let mut out = Vec::with_capacity(inner.len());
    let mut i = 0;
    while i < inner.len() {
        if inner[i] == b'\\' && i + 1 < inner.len() {
            match inner[i + 1] {
                b'n' => out.push(b'\n'),
                b't' => out.push(b'\t'),
                b'"' => out.push(b'"'),
                b'\\' => out.push(b'\\'),
                h => {
                    let hex = |x: u8| (x as char).to_digit(16).unwrap_or(0) as u8;
                    out.push(hex(h) * 16 + hex(inner.get(i + 2).copied().unwrap_or(b'0')));
                    i += 1;
                }
            }
            i += 2;
        } else {
            out.push(inner[i]);
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<Tok> {
        let mut l = Lexer::new(s);
        let mut v = Vec::new();
        loop {
            let t = l.next_token().unwrap();
            if t.kind == Tok::Eof {
                return v;
            }
            v.push(t.kind);
        }
    }

    #[test]
    fn lexes_punctuation_and_ids() {
        assert_eq!(
            kinds("%0:2 = \"a.b\"() -> ^bb1 #map !t @f {-# #-} ... // c"),
            vec![
                Tok::PercentId,
                Tok::Colon,
                Tok::Integer,
                Tok::Equal,
                Tok::String,
                Tok::LParen,
                Tok::RParen,
                Tok::Arrow,
                Tok::CaretId,
                Tok::HashId,
                Tok::ExclId,
                Tok::AtId,
                Tok::FileMetadataBegin,
                Tok::FileMetadataEnd,
                Tok::Ellipsis
            ]
        );
    }

    #[test]
    fn numbers() {
        assert_eq!(kinds("0x1F 12 1.5e-3 2."), vec![Tok::Integer, Tok::Integer, Tok::Float, Tok::Float]);
        assert_eq!(kinds("4x8xf32"), vec![Tok::Integer, Tok::BareId]);
    }

    #[test]
    fn strings_and_escapes() {
        assert_eq!(unescape(r#""a\n\22\\""#), b"a\n\"\\".to_vec());
        assert!(Lexer::new("\"abc").next_token().is_err());
    }
}
