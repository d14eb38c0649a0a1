//! TRF's one-letter codes for results, byes and colours: the only place they are spelt out.
//!
//! Results: `1` `0` `=` played; `W` `D` `L` played but not rated; `+` `-` forfeit win and loss;
//! `U` pairing-allocated bye; `F` full-point bye; `H` half-point bye; `Z` zero-point bye. A
//! blank is a game without a result yet when the round has an opponent, else `Z` (the rounds
//! after a withdrawal).

use super::Colour;
use crate::result::{Bye, RoundResult, Score};

/// The letter of a bye (`U`, `F`, `H`, `Z`).
pub fn bye_letter(bye: Bye) -> char {
    match bye {
        Bye::PairingAllocated => 'U',
        Bye::Full => 'F',
        Bye::Half => 'H',
        Bye::Zero => 'Z',
    }
}

/// The bye of a letter, in either case.
pub fn bye_of(letter: char) -> Option<Bye> {
    Some(match letter.to_ascii_uppercase() {
        'U' => Bye::PairingAllocated,
        'F' => Bye::Full,
        'H' => Bye::Half,
        'Z' => Bye::Zero,
        _ => return None,
    })
}

/// The letter of a result (a blank for a game without one).
pub fn result_letter(result: RoundResult) -> char {
    match result {
        RoundResult::Game { score, rated: true } => match score {
            Score::Win => '1',
            Score::Draw => '=',
            Score::Loss => '0',
        },
        RoundResult::Game { score, rated: false } => match score {
            Score::Win => 'W',
            Score::Draw => 'D',
            Score::Loss => 'L',
        },
        RoundResult::ForfeitWin => '+',
        RoundResult::ForfeitLoss => '-',
        RoundResult::Bye(bye) => bye_letter(bye),
        RoundResult::Pending => ' ',
    }
}

/// The result of a letter, in either case; a blank is [`RoundResult::Pending`] when the round
/// has an opponent (`paired`), else a zero-point bye.
pub fn result_of(letter: char, paired: bool) -> Option<RoundResult> {
    let game = |score, rated| RoundResult::Game { score, rated };
    Some(match letter.to_ascii_uppercase() {
        '1' => game(Score::Win, true),
        '=' => game(Score::Draw, true),
        '0' => game(Score::Loss, true),
        'W' => game(Score::Win, false),
        'D' => game(Score::Draw, false),
        'L' => game(Score::Loss, false),
        '+' => RoundResult::ForfeitWin,
        '-' => RoundResult::ForfeitLoss,
        ' ' if paired => RoundResult::Pending,
        ' ' => RoundResult::Bye(Bye::Zero),
        other => RoundResult::Bye(bye_of(other)?),
    })
}

pub fn colour_letter(colour: Colour) -> char {
    match colour {
        Colour::White => 'w',
        Colour::Black => 'b',
        Colour::None => '-',
    }
}

pub fn colour_of(letter: &str) -> Colour {
    match letter {
        "w" => Colour::White,
        "b" => Colour::Black,
        _ => Colour::None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_letter_reads_back_as_written() {
        for letter in "10=WDL+-UFHZ".chars() {
            let r = result_of(letter, true).unwrap();
            assert_eq!(result_letter(r), letter);
            assert_eq!(result_of(letter.to_ascii_lowercase(), true), Some(r));
        }
        assert_eq!(result_of(' ', true), Some(RoundResult::Pending));
        assert_eq!(result_of(' ', false), Some(RoundResult::Bye(Bye::Zero)));
        assert_eq!(result_of('X', true), None);
    }
}
