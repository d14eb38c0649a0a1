//! The chess PGN `records` writes, read by python-chess (`tools/pgn_oracle.py chess`, its
//! reading committed beside the game): the same tags, main line and comments, and by our own
//! reader the same game.

use std::path::PathBuf;

use records::chess::{write_pgn, ChessGames, ChessRecord};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/python-chess")
        .join(name)
}

/// A game of every shape the writer handles: tags out of roster order with a quote and a
/// backslash, a FEN start with black to move, a starting comment, NAGs, a variation, a clock
/// comment, a comment longer than a line (a `;` comment, which the chess reader drops).
const INPUT: &str = r#"[Black "B \"the\" one"]
[Annotator "C:\\games"]
[Event "records → python-chess"]
[FEN "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 2"]
[Result "1-0"]

{ a start } 2... Nf6 $1 (2... d6 3. d4 { the main idea }) 3. Nxe5 { [%clk 0:03:00] }
3... Nxe5 $2 ; a } brace
4. d4 { a comment long enough that it cannot stay on one line of eighty columns, words and all } 1-0
"#;

#[test]
fn chess_pgn_reads_in_python_chess_and_back_in_records() {
    let game: ChessRecord = ChessGames::new(INPUT.as_bytes()).next().unwrap().unwrap();
    assert!(game.issues.is_empty(), "{:?}", game.issues);
    let mut pgn = String::new();
    write_pgn(&game, &mut pgn).unwrap();
    // `ARBITER_WRITE_FIXTURES=1` writes the game anew (then run tools/pgn_oracle.py chess).
    if std::env::var_os("ARBITER_WRITE_FIXTURES").is_some() {
        std::fs::write(data("shapes.pgn"), &pgn).unwrap();
    }
    assert_eq!(pgn, std::fs::read_to_string(data("shapes.pgn")).unwrap());
    // The Seven Tag Roster first, in its order; the rest as they came.
    let names: Vec<&str> = pgn
        .lines()
        .take_while(|l| l.starts_with('['))
        .map(|l| l[1..].split(' ').next().unwrap())
        .collect();
    assert_eq!(names, ["Event", "Black", "Result", "Annotator", "SetUp", "FEN"]);

    // Our reader: the same game.
    let again = ChessGames::new(pgn.as_bytes()).next().unwrap().unwrap();
    assert_eq!(again.tree, game.tree);
    assert_eq!(again.start_fen, game.start_fen);

    // python-chess: the same main line, comments and tags.
    let oracle = std::fs::read_to_string(data("shapes.pgn.python-chess.txt")).unwrap();
    let mut moves = Vec::new();
    let mut comments = Vec::new();
    let mut tags = Vec::new();
    for line in oracle.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        match f[0] {
            "tag" => tags.push((f[1].to_string(), f[2].to_string())),
            "move" => {
                moves.push(f[1].to_string());
                comments.push(f[3].replace("\\n", "\n"));
            }
            "result" => assert_eq!(f[1], "1-0"),
            "errors" => assert_eq!(f[1], "0", "python-chess found errors"),
            _ => panic!("unknown oracle line {line:?}"),
        }
    }
    let mut pos: shakmaty::Chess = shakmaty::fen::Fen::from_ascii(game.start_fen.as_bytes())
        .unwrap()
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap();
    let mut ours = Vec::new();
    for m in game.tree.main_line() {
        ours.push(m.to_uci(shakmaty::CastlingMode::Standard).to_string());
        shakmaty::Position::play_unchecked(&mut pos, *m);
    }
    assert_eq!(moves, ours);
    let our_comments: Vec<String> = game
        .tree
        .main_line_nodes()
        .map(|id| game.tree.comment(id).unwrap_or("").to_string())
        .collect();
    // Compare words: a reader may keep a line break where another keeps a space.
    let words = |c: &str| c.split_whitespace().collect::<Vec<_>>().join(" ");
    for (i, (theirs, ours)) in comments.iter().zip(&our_comments).enumerate() {
        if ours.contains('}') {
            continue;
        }
        assert_eq!(words(theirs), words(ours), "comment of ply {}", i + 1);
    }
    // python-chess keeps a tag value's escapes as written (1.11), so compare the raw values.
    let raw: Vec<(String, String)> = pgn
        .lines()
        .take_while(|l| l.starts_with('['))
        .map(|l| {
            let (k, v) = l[1..l.len() - 1].split_once(' ').unwrap();
            (k.to_string(), v[1..v.len() - 1].to_string())
        })
        .collect();
    for (k, v) in &raw {
        if k == "Event" || k == "Black" || k == "Annotator" {
            assert!(tags.contains(&(k.clone(), v.clone())), "{k}: {tags:?}");
        }
    }
}
