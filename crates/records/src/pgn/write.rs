//! Movetext layout shared by the PGN writers: tokens wrapped near 80 columns, parentheses
//! hugging what they enclose, comments in braces.

use std::fmt;

pub(crate) struct Wrap<'a, W> {
    pub out: &'a mut W,
    col: usize,
    glue: bool,
}

impl<'a, W: fmt::Write> Wrap<'a, W> {
    pub fn new(out: &'a mut W) -> Self {
        Wrap {
            out,
            col: 0,
            glue: false,
        }
    }

    /// Writes a token, wrapping lines near 80 columns.
    pub fn token(&mut self, t: &str) -> fmt::Result {
        let width = t.chars().count();
        // Parentheses hug what they enclose: `(1... 炮８平５)`.
        let glue = self.glue || t == ")";
        if self.col > 0 && self.col + 1 + width > 80 {
            writeln!(self.out)?;
            self.col = 0;
        } else if self.col > 0 && !glue {
            self.out.write_char(' ')?;
            self.col += 1;
        }
        self.out.write_str(t)?;
        self.col += width;
        self.glue = t == "(";
        Ok(())
    }

    /// Writes a comment. Braces cannot hold a `}` (PGN has no escape), so such a comment goes
    /// out as `;` comments, one per line, which read back joined by newlines.
    pub fn comment(&mut self, text: &str, padded: bool) -> fmt::Result {
        if !text.contains('}') {
            return if padded {
                self.token(&format!("{{ {text} }}"))
            } else {
                self.token(&format!("{{{text}}}"))
            };
        }
        for line in text.lines() {
            self.token(&format!(";{line}"))?;
            writeln!(self.out)?;
            self.col = 0;
        }
        Ok(())
    }

    /// Ends the movetext with the result token and a newline.
    pub fn finish(&mut self, result: &str) -> fmt::Result {
        self.token(result)?;
        writeln!(self.out)
    }
}
