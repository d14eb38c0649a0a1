#!/usr/bin/env python3
"""What other PGN readers make of the PGN arbiter writes: the oracle fixtures of the PGN tests.

    python3 tools/pgn_oracle.py chess FILE.pgn...    # python-chess (pip install chess)
    python3 tools/pgn_oracle.py cchess FILE.pgn...   # cchess (pip install cchess)

For each FILE.pgn it writes FILE.pgn.python-chess.txt or FILE.pgn.cchess.txt beside it:
tab-separated lines the Rust tests compare with the games they wrote.

python-chess, one line per tag, move and result of the (first) game:
    tag <name> <value> / move <uci> <clock seconds or -> <comment, line breaks as \\n> /
    result <token> / errors <count>
cchess, one line per game (cchess reads one game a file, so the games are split first):
    game <n> <plies read> <ICCS moves read, space-separated>
Lines starting with # name the library and its version.
"""
import os
import sys
import tempfile
from importlib.metadata import version


def python_chess(path):
    import chess.pgn

    with open(path, encoding="utf-8") as f:
        game = chess.pgn.read_game(f)
    lines = [f"# python-chess {version('chess')} reading {os.path.basename(path)}"]
    for name, value in game.headers.items():
        lines.append(f"tag\t{name}\t{value}")
    for node in game.mainline():
        clock = node.clock()
        comment = node.comment.replace("\\", "\\\\").replace("\n", "\\n")
        lines.append(f"move\t{node.move.uci()}\t{'-' if clock is None else format(clock, 'g')}\t{comment}")
    lines.append(f"result\t{game.headers.get('Result', '*')}")
    lines.append(f"errors\t{len(game.errors)}")
    return lines


def games_of(text):
    """The games of a PGN file: a game starts at a tag line after movetext."""
    games, current, in_moves = [], [], False
    for line in text.splitlines(keepends=True):
        if line.startswith("[") and in_moves:
            games.append("".join(current))
            current, in_moves = [], False
        if line.strip() and not line.startswith("["):
            in_moves = True
        current.append(line)
    if current:
        games.append("".join(current))
    return games


def cchess_reading(path):
    import cchess

    with open(path, encoding="utf-8") as f:
        text = f.read()
    lines = [f"# cchess {version('cchess')} reading {os.path.basename(path)}"]
    for n, game_text in enumerate(games_of(text), 1):
        with tempfile.NamedTemporaryFile("w", suffix=".pgn", encoding="utf-8", delete=False) as tmp:
            tmp.write(game_text)
        try:
            game = cchess.read_from_pgn(tmp.name)
            moves = [m for line in game.dump_iccs_moves()[:1] for m in line]
        except Exception as e:  # cchess raises on some input: that is its reading too
            moves = [f"!{type(e).__name__}"]
        finally:
            os.unlink(tmp.name)
        read = [m for m in moves if not m.startswith("!")]
        lines.append(f"game\t{n}\t{len(read)}\t{' '.join(moves)}")
    return lines


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("chess", "cchess"):
        sys.exit(__doc__)
    reader, suffix = (python_chess, "python-chess") if sys.argv[1] == "chess" else (cchess_reading, "cchess")
    for path in sys.argv[2:]:
        out = f"{path}.{suffix}.txt"
        with open(out, "w", encoding="utf-8") as f:
            f.write("\n".join(reader(path)) + "\n")
        print(out)


if __name__ == "__main__":
    main()
