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

    /// A streaming decoder (input may be cut anywhere, even inside a character).
    pub fn new_decoder(self) -> encoding_rs::Decoder {
        self.codec().new_decoder_without_bom_handling()
    }

    /// Decodes `bytes` onto the end of `out`, reusing its capacity (no allocation once warm).
    pub fn decode_into(self, bytes: &[u8], out: &mut String) {
        if self == TextEncoding::Utf8 {
            match std::str::from_utf8(bytes) {
                Ok(s) => out.push_str(s),
                Err(_) => out.push_str(&String::from_utf8_lossy(bytes)),
            }
            return;
        }
        let mut decoder = self.codec().new_decoder_without_bom_handling();
        if let Some(n) = decoder.max_utf8_buffer_length(bytes.len()) {
            out.reserve(n);
        }
        let _ = decoder.decode_to_string(bytes, out, true);
    }

    /// Encodes `text` (characters the encoding lacks become numeric references).
    pub fn encode<'a>(self, text: &'a str) -> Cow<'a, [u8]> {
        self.codec().encode(text).0
    }
}

/// Whether `c` is one of the characters Xiangqi move text is made of; the encoding under which
/// a sample decodes to the most of them is the right one (GBK and Big5 both accept most byte
/// pairs).
fn is_move_glyph(c: char) -> bool {
    matches!(
        c,
        '车' | '車'
            | '俥'
            | '马'
            | '馬'
            | '傌'
            | '炮'
            | '砲'
            | '包'
            | '相'
            | '象'
            | '仕'
            | '士'
            | '帅'
            | '帥'
            | '将'
            | '將'
            | '兵'
            | '卒'
            | '进'
            | '進'
            | '退'
            | '平'
            | '前'
            | '后'
            | '後'
            | '中'
            | '一'
            | '二'
            | '三'
            | '四'
            | '五'
            | '六'
            | '七'
            | '八'
            | '九'
            | '１'..='９'
    )
}

/// Guesses the encoding of a sample (the first 16 KiB are used; they are plenty). A UTF-8 BOM or valid
/// UTF-8 with non-ASCII text wins; otherwise GBK and Big5 are both tried and the one that
/// yields more move glyphs, and fewer errors, is chosen.
pub fn detect(sample: &[u8]) -> TextEncoding {
    let sample = &sample[..sample.len().min(16 * 1024)];
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
            } else if is_move_glyph(c) {
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

/// Bytes meant as UTF-8 as text, invalid sequences replaced by U+FFFD.
///
/// The same as `String::from_utf8_lossy`, with a fast path for ASCII: measured on a Lichess
/// file, checking UTF-8 on its short tags and clock comments cost about a tenth of reading it,
/// and an ASCII test costs a tenth of that.
pub fn utf8_lossy(raw: &[u8]) -> Cow<'_, str> {
    if raw.is_ascii() {
        // SAFETY: ASCII is valid UTF-8.
        Cow::Borrowed(unsafe { std::str::from_utf8_unchecked(raw) })
    } else {
        String::from_utf8_lossy(raw)
    }
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
