//! DhtmlXQ / UBB text: hand-written blocks and the 93 CCBridge library games rewritten as
//! DhtmlXQ read to the same moves, tags, comments and variations; damaged text gives errors or
//! issues, never a panic.

use records::dhtmlxq::{read_dhtmlxq, read_dhtmlxq_block, read_dhtmlxq_blocks, DhtmlXqError};
use records::{MoveTree, NodeId, XiangqiRecord};
use xiangqi::notation::to_iccs;
use xiangqi::Move;

const ROOT: NodeId = MoveTree::<Move>::ROOT;
const STANDARD: &str = "8979695949392919097717866646260600102030405060708012720323436383";
const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn main_line(r: &XiangqiRecord) -> String {
    r.tree.main_line().map(|&m| to_iccs(m)).collect::<Vec<_>>().join(" ")
}

fn children(r: &XiangqiRecord, n: NodeId) -> Vec<String> {
    r.tree
        .children(n)
        .map(|c| to_iccs(r.tree.node(c).mv.unwrap()))
        .collect()
}

/// ICCS (`h2e2`) to DhtmlXQ digits (`7747`): same file number, y counted from the top.
fn dhtml(iccs: &str) -> String {
    iccs.split_whitespace()
        .map(|m| {
            let b = m.as_bytes();
            let xy = |f: u8, r: u8| format!("{}{}", f - b'a', 9 - (r - b'0'));
            format!("{}{}", xy(b[0], b[1]), xy(b[2], b[3]))
        })
        .collect()
}

const OPENING: &str = "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 h0h6 h7i7 h6g6 i7i8";

fn sample_block() -> String {
    format!(
        "[DhtmlXQ]\n\
         [DhtmlXQ_ver]www_dpxq_com[/DhtmlXQ_ver]\n\
         [DhtmlXQ_title]测试对局[/DhtmlXQ_title]\n\
         [DhtmlXQ_event]网络赛[/DhtmlXQ_event]\n\
         [DhtmlXQ_date]2024-01-02[/DhtmlXQ_date]\n\
         [DhtmlXQ_place]北京[/DhtmlXQ_place]\n\
         [DhtmlXQ_round]第3轮[/DhtmlXQ_round]\n\
         [DhtmlXQ_red]张三[/DhtmlXQ_red]\n\
         [DhtmlXQ_redteam]甲队[/DhtmlXQ_redteam]\n\
         [DhtmlXQ_black]李四[/DhtmlXQ_black]\n\
         [DhtmlXQ_blackteam]乙队[/DhtmlXQ_blackteam]\n\
         [DhtmlXQ_result]红胜[/DhtmlXQ_result]\n\
         [DhtmlXQ_open]中炮对屏风马[/DhtmlXQ_open]\n\
         [DhtmlXQ_type]实战全局[/DhtmlXQ_type]\n\
         [DhtmlXQ_binit]{STANDARD}[/DhtmlXQ_binit]\n\
         [DhtmlXQ_movelist]{}[/DhtmlXQ_movelist]\n\
         [DhtmlXQ_comment0]开局前||第二行[/DhtmlXQ_comment0]\n\
         [DhtmlXQ_comment1]炮二平五[/DhtmlXQ_comment1]\n\
         [DhtmlXQ_comment10]车９进１[/DhtmlXQ_comment10]\n\
         [DhtmlXQ_move_0_5_1]{}[/DhtmlXQ_move_0_5_1]\n\
         [DhtmlXQ_comment1_6]变着[/DhtmlXQ_comment1_6]\n\
         [DhtmlXQ_move_1_7_2]{}[/DhtmlXQ_move_1_7_2]\n\
         [/DhtmlXQ]",
        dhtml(OPENING),
        // 5. b0c2 (instead of i0h0) b9c7 b2b6
        dhtml("b0c2 b9c7 b2b6"),
        // in that line, 7. c3c4 instead of b2b6
        dhtml("c3c4 c6c5"),
    )
}

#[test]
fn hand_written_game_with_tags_comments_and_variations() {
    let text = sample_block();
    let r = read_dhtmlxq_block(&text).unwrap();
    assert!(r.issues.is_empty(), "{:?}", r.issues);
    assert_eq!(r.start_fen, START_FEN);
    assert_eq!(main_line(&r), OPENING);
    for (tag, value) in [
        ("Title", "测试对局"),
        ("Event", "网络赛"),
        ("Date", "2024-01-02"),
        ("Site", "北京"),
        ("Round", "第3轮"),
        ("Red", "张三"),
        ("RedTeam", "甲队"),
        ("Black", "李四"),
        ("BlackTeam", "乙队"),
        ("Result", "1-0"),
        ("Opening", "中炮对屏风马"),
        ("GameType", "实战全局"),
    ] {
        assert_eq!(r.tags.get(tag), Some(value), "{tag}");
    }
    assert_eq!(r.tags.get("ver"), None);

    assert_eq!(r.tree.comment(ROOT), Some("开局前\n第二行"));
    let main: Vec<NodeId> = r.tree.main_line_nodes().collect();
    assert_eq!(r.tree.comment(main[0]), Some("炮二平五"));
    assert_eq!(r.tree.comment(main[9]), Some("车９进１"));

    // Branch 1: an alternative to ply 5 (i0h0).
    assert_eq!(children(&r, main[3]), ["i0h0", "b0c2"]);
    let b1 = r.tree.children(main[3]).nth(1).unwrap();
    let b1_ply6 = r.tree.node(b1).first_child.unwrap();
    assert_eq!(to_iccs(r.tree.node(b1_ply6).mv.unwrap()), "b9c7");
    assert_eq!(r.tree.comment(b1_ply6), Some("变着"));
    // Branch 2 hangs from branch 1: an alternative to its ply 7 (b2b6).
    assert_eq!(children(&r, b1_ply6), ["b2b6", "c3c4"]);
    let c3c4 = r.tree.children(b1_ply6).nth(1).unwrap();
    assert_eq!(children(&r, c3c4), ["c6c5"]);
    assert_eq!(r.tree.len(), 1 + 10 + 3 + 2);

    // The same through the page reader.
    let all = read_dhtmlxq(&text).unwrap();
    assert_eq!(all, vec![r]);
}

#[test]
fn cbl_games_written_as_dhtmlxq_read_to_the_same_moves() {
    let path = testdata::record_file("xiangqi-xqf/cbl-expected.tsv");
    let expected = std::fs::read_to_string(&path).unwrap();
    let rows: Vec<Vec<&str>> = expected.lines().skip(1).map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 93);
    // One page holding every game, with HTML between the blocks, as a dpxq page would.
    let mut page = String::from("<html><head><title>1956</title></head><body>\n");
    for row in &rows {
        let result = match row[4] {
            "1-0" => "红胜",
            "0-1" => "黑胜",
            "1/2-1/2" => "和棋",
            _ => "未知",
        };
        page.push_str(&format!(
            "<div class=\"game\"><p>{}</p>\n<script>\n[DhtmlXQ]\n[DhtmlXQ_title]{}[/DhtmlXQ_title]\n\
             [DhtmlXQ_red]{}[/DhtmlXQ_red]\n[DhtmlXQ_black]{}[/DhtmlXQ_black]\n\
             [DhtmlXQ_result]{result}[/DhtmlXQ_result]\n[DhtmlXQ_binit]{STANDARD}[/DhtmlXQ_binit]\n\
             [DhtmlXQ_movelist]{}[/DhtmlXQ_movelist]\n[/DhtmlXQ]\n</script></div>\n",
            row[1],
            row[1],
            row[2],
            row[3],
            dhtml(row[7])
        ));
    }
    page.push_str("</body></html>\n");
    let games = read_dhtmlxq(&page).unwrap();
    assert_eq!(games.len(), 93);
    for (g, row) in games.iter().zip(&rows) {
        let n = row[0];
        assert!(g.issues.is_empty(), "game {n}: {:?}", g.issues);
        assert_eq!(g.tags.get("Title"), Some(row[1]), "game {n}");
        assert_eq!(g.tags.get("Red"), Some(row[2]), "game {n}");
        assert_eq!(g.tags.get("Black"), Some(row[3]), "game {n}");
        assert_eq!(g.tags.get("Result"), Some(row[4]), "game {n}");
        assert_eq!(g.start_fen.split(' ').take(2).collect::<Vec<_>>().join(" "), row[5]);
        assert_eq!(g.tree.main_line().count(), row[6].parse::<usize>().unwrap(), "game {n}");
        assert_eq!(main_line(g), row[7], "game {n}");
    }
}

#[test]
fn results() {
    for (text, pgn) in [
        ("红胜", "1-0"),
        ("黑胜", "0-1"),
        ("和棋", "1/2-1/2"),
        ("未知", "*"),
        ("", "*"),
    ] {
        let block = format!(
            "[DhtmlXQ][DhtmlXQ_result]{text}[/DhtmlXQ_result][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]"
        );
        let r = read_dhtmlxq_block(&block).unwrap();
        assert_eq!(r.tags.get("Result"), Some(pgn), "{text}");
        assert!(r.issues.is_empty(), "{text}: {:?}", r.issues);
    }
    let r = read_dhtmlxq_block("[DhtmlXQ][DhtmlXQ_result]whatever[/DhtmlXQ_result][/DhtmlXQ]").unwrap();
    assert_eq!(r.tags.get("Result"), Some("*"));
    assert_eq!(r.issues.len(), 1);
    // No binit and no moves: the standard start, an empty tree.
    assert_eq!(r.start_fen, START_FEN);
    assert!(r.tree.is_empty());
}

#[test]
fn red_list_written_from_the_left_is_the_same_position() {
    let from_left = "0919293949596979891777062646668600102030405060708012720323436383";
    let text = format!(
        "[DhtmlXQ][DhtmlXQ_binit]{from_left}[/DhtmlXQ_binit][DhtmlXQ_movelist]{}[/DhtmlXQ_movelist][/DhtmlXQ]",
        dhtml(OPENING)
    );
    let r = read_dhtmlxq_block(&text).unwrap();
    assert_eq!(r.start_fen, START_FEN);
    assert_eq!(main_line(&r), OPENING);
}

/// An endgame: red king e0 (49), red rook a0 (09), red pawn e4 (45); black king d9 (30), black
/// horse c7 (22); every other piece off the board (99).
fn endgame_binit() -> String {
    let mut red = ["99"; 16];
    red[0] = "09"; // rook
    red[4] = "49"; // king
    red[11] = "45"; // pawn
    let mut black = ["99"; 16];
    black[4] = "30"; // king
    black[1] = "22"; // horse
    red.concat() + &black.concat()
}

#[test]
fn non_standard_binit_with_captured_pieces_and_black_to_move() {
    // Black moves first: the horse c7 to b5, then red rook a0 a5.
    let text = format!(
        "[DhtmlXQ][DhtmlXQ_binit]{}[/DhtmlXQ_binit][DhtmlXQ_movelist]{}[/DhtmlXQ_movelist][/DhtmlXQ]",
        endgame_binit(),
        dhtml("c7b5 a0a5")
    );
    let r = read_dhtmlxq_block(&text).unwrap();
    assert!(r.issues.is_empty(), "{:?}", r.issues);
    assert_eq!(r.start_fen, "3k5/9/2n6/9/9/4P4/9/9/9/R3K4 b - - 0 1");
    assert_eq!(main_line(&r), "c7b5 a0a5");

    // The same position with red to move.
    let text = format!(
        "[DhtmlXQ][DhtmlXQ_binit]{}[/DhtmlXQ_binit][DhtmlXQ_movelist]{}[/DhtmlXQ_movelist][/DhtmlXQ]",
        endgame_binit(),
        dhtml("a0a5 c7b5")
    );
    let r = read_dhtmlxq_block(&text).unwrap();
    assert_eq!(r.start_fen, "3k5/9/2n6/9/9/4P4/9/9/9/R3K4 w - - 0 1");
}

#[test]
fn page_with_several_blocks_and_html_around() {
    let game = |moves: &str, red: &str| {
        format!(
            "[DhtmlXQ]<br />[DhtmlXQ_red]{red}[/DhtmlXQ_red]<br />[DhtmlXQ_movelist]{}[/DhtmlXQ_movelist]<br />[/DhtmlXQ]",
            dhtml(moves)
        )
    };
    let page = format!(
        "<!DOCTYPE html><html><body><h1>棋谱</h1>\n<div>{}</div>\n<p>中间的文字 [b]粗体[/b]</p>\n\
         <div>{}</div>\n<div>{}</div></body></html>",
        game("h2e2 h9g7", "A&amp;B"),
        game("c3c4", "乙"),
        // The last block has lost its closing tag.
        game("b0c2", "丙").replace("[/DhtmlXQ]", "")
    );
    let games = read_dhtmlxq(&page).unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(main_line(&games[0]), "h2e2 h9g7");
    assert_eq!(games[0].tags.get("Red"), Some("A&B"));
    assert_eq!(main_line(&games[1]), "c3c4");
    assert_eq!(main_line(&games[2]), "b0c2");
    assert_eq!(games[2].tags.get("Red"), Some("丙"));

    // Field tags in either case, and a field without its closing tag.
    let r = read_dhtmlxq_block("[dhtmlxq][DHTMLXQ_RED]甲[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/dhtmlxq]").unwrap();
    assert_eq!(r.tags.get("Red"), Some("甲"));
    assert_eq!(main_line(&r), "h2e2");
    // Fields alone, without the wrapper, as some forum posts carry them.
    let r = read_dhtmlxq_block("[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]").unwrap();
    assert_eq!(main_line(&r), "h2e2");
}

#[test]
fn illegal_moves_become_issues_and_drop_their_line_only() {
    // Ply 3 (h0h5: a horse moving like a rook) is illegal; the variation at ply 2 still reads.
    let text = format!(
        "[DhtmlXQ][DhtmlXQ_movelist]{}[/DhtmlXQ_movelist][DhtmlXQ_move_0_2_1]{}[/DhtmlXQ_move_0_2_1]\
         [DhtmlXQ_comment5]lost[/DhtmlXQ_comment5][/DhtmlXQ]",
        dhtml("h2e2 h9g7 h0h5 i9h9"),
        dhtml("b9c7 h0g2")
    );
    let r = read_dhtmlxq_block(&text).unwrap();
    assert_eq!(main_line(&r), "h2e2 h9g7");
    let first = r.tree.main_line_nodes().next().unwrap();
    assert_eq!(children(&r, first), ["h9g7", "b9c7"]);
    assert_eq!(r.tree.len(), 5);
    let plies: Vec<Option<usize>> = r.issues.iter().map(|i| i.ply).collect();
    assert_eq!(plies, [Some(3), Some(5)], "{:?}", r.issues);
    assert!(r.issues[0].message.contains("h0h5"), "{}", r.issues[0].message);
}

#[test]
fn variation_numbered_one_off_is_placed_where_its_move_fits() {
    // Named as starting at ply 1, but b9c7 is black's: it belongs at ply 2.
    let text = format!(
        "[DhtmlXQ][DhtmlXQ_movelist]{}[/DhtmlXQ_movelist][DhtmlXQ_move_0_1_1]{}[/DhtmlXQ_move_0_1_1][/DhtmlXQ]",
        dhtml("h2e2 h9g7 h0g2"),
        dhtml("b9c7 b0c2")
    );
    let r = read_dhtmlxq_block(&text).unwrap();
    let first = r.tree.main_line_nodes().next().unwrap();
    assert_eq!(children(&r, first), ["h9g7", "b9c7"]);
    assert_eq!(r.issues.len(), 1, "{:?}", r.issues);
    assert_eq!(r.issues[0].ply, Some(2));

    // A variation hanging from a branch that does not exist is reported and skipped.
    let text = format!(
        "[DhtmlXQ][DhtmlXQ_movelist]{}[/DhtmlXQ_movelist][DhtmlXQ_move_7_1_8]{}[/DhtmlXQ_move_7_1_8][/DhtmlXQ]",
        dhtml("h2e2"),
        dhtml("b2e2")
    );
    let r = read_dhtmlxq_block(&text).unwrap();
    assert_eq!(r.tree.len(), 2);
    assert_eq!(r.issues.len(), 1, "{:?}", r.issues);
}

#[test]
fn errors() {
    assert!(matches!(
        read_dhtmlxq("<html>nothing here</html>"),
        Err(DhtmlXqError::NoBlock)
    ));
    assert!(matches!(read_dhtmlxq_block(""), Err(DhtmlXqError::NoBlock)));

    let short = "[DhtmlXQ][DhtmlXQ_binit]8979695949[/DhtmlXQ_binit][/DhtmlXQ]";
    let e = read_dhtmlxq(short).unwrap_err();
    assert!(matches!(e, DhtmlXqError::BadBinit { block: 0, .. }), "{e}");
    assert!(e.to_string().contains("64 digits"), "{e}");

    let overlap = STANDARD.replacen("79", "89", 1);
    let e = read_dhtmlxq_block(&format!("[DhtmlXQ][DhtmlXQ_binit]{overlap}[/DhtmlXQ_binit][/DhtmlXQ]")).unwrap_err();
    assert!(matches!(e, DhtmlXqError::BinitOverlap { x: 8, y: 9, .. }), "{e}");

    // No red king.
    let kingless = format!("{}99{}", &STANDARD[..8], &STANDARD[10..]);
    let e = read_dhtmlxq_block(&format!("[DhtmlXQ][DhtmlXQ_binit]{kingless}[/DhtmlXQ_binit][/DhtmlXQ]")).unwrap_err();
    assert!(matches!(e, DhtmlXqError::Position { .. }), "{e}");

    // A bad block among good ones: the page reader names it, the block reader keeps the rest.
    let page = format!(
        "{}\n{short}\n{}",
        "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]",
        "[DhtmlXQ][DhtmlXQ_movelist]2324[/DhtmlXQ_movelist][/DhtmlXQ]"
    );
    assert!(matches!(
        read_dhtmlxq(&page),
        Err(DhtmlXqError::BadBinit { block: 1, .. })
    ));
    let each = read_dhtmlxq_blocks(&page);
    assert_eq!(each.len(), 3);
    assert_eq!(main_line(each[0].as_ref().unwrap()), "h2e2");
    assert!(each[1].is_err());
    assert_eq!(main_line(each[2].as_ref().unwrap()), "c6c5");
    assert_eq!(each[2].as_ref().unwrap().start_fen.split(' ').nth(1), Some("b"));

    // Stray characters in a move list.
    let r = read_dhtmlxq_block("[DhtmlXQ][DhtmlXQ_movelist]7747 7062x7770[/DhtmlXQ_movelist][/DhtmlXQ]").unwrap();
    assert_eq!(main_line(&r), "h2e2 h9g7");
    assert_eq!(r.issues.len(), 1, "{:?}", r.issues);
}

#[test]
fn every_prefix_and_scrambled_text_never_panics() {
    let text = sample_block();
    for (i, _) in text.char_indices() {
        let _ = read_dhtmlxq(&text[..i]);
        let _ = read_dhtmlxq_block(&text[i..]);
    }
    let chars: Vec<char> = text.chars().collect();
    let alphabet: Vec<char> = "[]/_0123456789DhtmlXQ_move_commentbinit|红 \n".chars().collect();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..3000 {
        let mut c = chars.clone();
        for _ in 0..(next() % 6 + 1) {
            let p = next() as usize % c.len();
            c[p] = alphabet[next() as usize % alphabet.len()];
        }
        let s: String = c.into_iter().collect();
        let _ = read_dhtmlxq_blocks(&s);
    }
}
