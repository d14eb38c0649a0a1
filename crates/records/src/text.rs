//! Text encodings found in Xiangqi records: UTF-8, GBK/GB18030 (mainland tools) and Big5
//! (Taiwan and Hong Kong collections), told apart from the bytes.

use std::borrow::Cow;

/// An encoding of Xiangqi record text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TextEncoding {
    Utf8,
    /// GBK, read as its superset GB18030.
    Gbk,
    Big5,
}

impl TextEncoding {
    fn codec(self) -> &'static encoding_rs::Encoding {
        match self {
            TextEncoding::Utf8 => encoding_rs::UTF_8,
            TextEncoding::Gbk => encoding_rs::GB18030,
            TextEncoding::Big5 => encoding_rs::BIG5,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            TextEncoding::Utf8 => "UTF-8",
            TextEncoding::Gbk => "GBK",
            TextEncoding::Big5 => "Big5",
        }
    }

    /// Decodes `bytes`; malformed sequences become U+FFFD. Borrows when nothing changes.
    pub fn decode<'a>(self, bytes: &'a [u8]) -> Cow<'a, str> {
        self.codec().decode_without_bom_handling(bytes).0
    }

    /// Encodes `text` (characters the encoding lacks become numeric references).
    pub fn encode<'a>(self, text: &'a str) -> Cow<'a, [u8]> {
        self.codec().encode(text).0
    }
}

/// Characters that Xiangqi move text is made of; the encoding under which a sample decodes to
/// the most of them is the right one (GBK and Big5 both accept most byte pairs).
const MOVE_GLYPHS: &str = "车車俥马馬傌炮砲包相象仕士帅帥将將兵卒进進退平前后後中一二三四五六七八九１２３４５６７８９";

/// Guesses the encoding of a sample (the first few kilobytes are enough). A UTF-8 BOM or valid
/// UTF-8 with non-ASCII text wins; otherwise GBK and Big5 are both tried and the one that
/// yields more move glyphs, and fewer errors, is chosen.
pub fn detect(sample: &[u8]) -> TextEncoding {
    if sample.starts_with(&[0xef, 0xbb, 0xbf]) {
        return TextEncoding::Utf8;
    }
    // A sample cut in the middle of a character must still count as UTF-8.
    let valid_up_to = match std::str::from_utf8(sample) {
        Ok(_) => sample.len(),
        Err(e) => e.valid_up_to(),
    };
    if sample.len() - valid_up_to < 4 && sample.iter().any(|&b| b >= 0x80) {
        return TextEncoding::Utf8;
    }
    if sample.iter().all(|&b| b < 0x80) {
        return TextEncoding::Utf8;
    }
    let score = |enc: TextEncoding| -> i64 {
        let (text, _) = enc.codec().decode_without_bom_handling(sample);
        let mut s = 0i64;
        for c in text.chars() {
            if c == '\u{fffd}' {
                s -= 4;
            } else if MOVE_GLYPHS.contains(c) {
                s += 1;
            }
        }
        s
    };
    if score(TextEncoding::Big5) > score(TextEncoding::Gbk) {
        TextEncoding::Big5
    } else {
        TextEncoding::Gbk
    }
}

/// Decodes a whole byte string with the detected encoding.
pub fn decode_detected(bytes: &[u8]) -> (Cow<'_, str>, TextEncoding) {
    let enc = detect(&bytes[..bytes.len().min(64 * 1024)]);
    let bytes = if enc == TextEncoding::Utf8 {
        bytes.strip_prefix(&[0xef, 0xbb, 0xbf]).unwrap_or(bytes)
    } else {
        bytes
    };
    (enc.decode(bytes), enc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tells_the_three_apart() {
        let text = "1. 炮二平五 馬８進７ 2. 傌二進三 車９平８";
        for enc in [TextEncoding::Utf8, TextEncoding::Gbk, TextEncoding::Big5] {
            let bytes = enc.encode(text);
            assert_eq!(detect(&bytes), enc, "{}", enc.name());
            assert_eq!(enc.decode(&bytes), text);
        }
        assert_eq!(detect(b"1. h2e2 h9g7"), TextEncoding::Utf8);
    }
}
