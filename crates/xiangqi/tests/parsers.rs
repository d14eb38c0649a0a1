//! Parsers never panic, whatever the input: property tests over arbitrary text and over text
//! built from the characters the notations use (the `cargo fuzz` targets in `fuzz/` go further).

use proptest::prelude::*;
use xiangqi::notation::{parse_any, parse_chinese, parse_fsf, parse_iccs, parse_wxf};
use xiangqi::{Fen, Position};

const POSITIONS: [&str; 4] = [
    Fen::START,
    "3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w",
    "3k5/9/3P1P3/3P1P3/9/9/9/9/9/4K4 w",
    "9/3k5/9/9/9/p8/p8/p8/p8/p3K4 b",
];

fn notation_text() -> impl Strategy<Value = String> {
    let alphabet: Vec<char> = "车車俥马馬傌炮砲包相象仕士帅帥将將兵卒进進退平上下前中后後一二三四五六七八九１２３４５６７８９123456789+-.=abcdefghiRHCPAEKNBＣＨＲ＋－．０0 "
        .chars()
        .collect();
    proptest::collection::vec(proptest::sample::select(alphabet), 0..8).prop_map(|v| v.into_iter().collect())
}

fn fen_text() -> impl Strategy<Value = String> {
    let alphabet: Vec<char> = "rnbakcpRNBAKCPEHeh0123456789/ wbr-".chars().collect();
    proptest::collection::vec(proptest::sample::select(alphabet), 0..90).prop_map(|v| v.into_iter().collect())
}

fn check_notation(text: &str) {
    let _ = parse_iccs(text);
    let _ = parse_fsf(text);
    for fen in POSITIONS {
        let pos = Position::from_fen(fen).unwrap();
        for m in [parse_wxf(&pos, text), parse_chinese(&pos, text), parse_any(&pos, text)]
            .into_iter()
            .flatten()
        {
            assert!(pos.is_legal(m), "{text:?} gave illegal {m}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn notation_parsers_never_panic(text in notation_text()) {
        check_notation(&text);
    }

    #[test]
    fn notation_parsers_never_panic_on_any_text(text in ".{0,12}") {
        check_notation(&text);
    }

    #[test]
    fn fen_parser_never_panics(text in fen_text()) {
        if let Ok(fen) = text.parse::<Fen>() {
            // Whatever parses prints and reparses to the same setup.
            let again: Fen = fen.to_string().parse().unwrap();
            prop_assert_eq!(&again, &fen);
            if let Ok(pos) = Position::from_setup(fen.into_setup()) {
                prop_assert_eq!(pos.legal_moves().len(), pos.count_legal());
            }
        }
    }
}
