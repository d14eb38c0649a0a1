//! Decimal numbers written by hand: every ply's request and every move's PGN comment has a few,
//! and `format!` costs more than the rest of either.

/// `v` in decimal.
pub(crate) fn push(out: &mut String, v: u64) {
    let digits = v.checked_ilog10().map_or(1, |d| d as usize + 1);
    push_padded(out, v, digits);
}

/// The last `width` decimal digits of `v`, with leading zeros.
pub(crate) fn push_padded(out: &mut String, mut v: u64, width: usize) {
    let mut buf = [b'0'; 20];
    let width = width.min(buf.len());
    for b in buf[..width].iter_mut().rev() {
        *b += (v % 10) as u8;
        v /= 10;
    }
    buf[..width].iter().for_each(|&b| out.push(char::from(b)));
}
