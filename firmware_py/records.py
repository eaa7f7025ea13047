"""Game records: read ours, Little Golem transcripts, JSON move lists and plain token lists; write ours.

Our own format is PGN-like: tag lines, a blank line, then every ply in standard notation with a
number before each of White's plies, and the result::

    [Event "Club night"]
    [White "Ann"]
    [Black "Bob"]
    [Result "0-1"]

    1. e3 f3 2. g3 ...

Reading is forgiving about layout (move numbers, case, `e3f3` / `e3-f3` / `e3:f3`, commas) and
strict about the game: every ply is replayed on a `Board`, and the first bad token raises a
`RecordError` naming its line, its 1-based ply number (counting every token of the record,
passes included) and the token itself. A record is read whole or not at all.

Two things a record may leave out are put back, each only where the rules force it: the 49th
placement (Little Golem does not write it) and a pass by a player who has no move.

>>> game = read_record("e3 f3 g3")
>>> [str(p) for p in game.plies], game.board().turn
(['e3', 'f3', 'g3'], 1)
>>> read_record(write_record(game)).plies == game.plies
True
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from .errors import RecordError
from .rules import BLACK, PASS, PLAYER_NAMES, WHITE, Board, Ply
from .spaces import N_SPACES

RESULTS = {"1-0": WHITE, "0-1": BLACK, "1/2-1/2": "draw", "*": None}
TAG_ORDER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
_OUR_TAG = re.compile(r'\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_LG_TAG = re.compile(r"(\w+)\s*\[([^\]]*)\]")
_MOVE_NUMBER = re.compile(r"^\d+\.+")
_TOKEN = re.compile(r"[^\s,;]+")
_COLOURS = {"w": WHITE, "white": WHITE, "b": BLACK, "black": BLACK}


class Token:
    """One ply as written in a record: its text, where it stands, and the colour it names if any.

    (Plain classes here, not dataclasses: `dataclasses` costs `replay` a tenth of its start-up.)
    """
    __slots__ = ("text", "line", "colour")

    def __init__(self, text: str, line: int | None = None, colour: int | None = None):
        self.text = text
        self.line = line
        self.colour = colour  # JSON records say who plays: 'k3|w'

    def __repr__(self) -> str:
        return f"Token(text={self.text!r}, line={self.line!r}, colour={self.colour!r})"

    def __eq__(self, other) -> bool:
        return (isinstance(other, Token)
                and (self.text, self.line, self.colour) == (other.text, other.line, other.colour))


class GameRecord:
    """A whole, legal game as read from a record.

    plies: every ply of the game, including a 49th placement or passes the record left out.
    resigned: WHITE or BLACK when the record ends with that player's resignation.
    tokens: how many plies the record itself wrote.
    """

    def __init__(self, tags: dict[str, str] | None = None, plies: list[Ply] | None = None,
                 resigned: int | None = None, tokens: int = 0):
        self.tags = {} if tags is None else tags
        self.plies = [] if plies is None else plies
        self.resigned = resigned
        self.tokens = tokens

    def __repr__(self) -> str:
        return (f"GameRecord(tags={self.tags!r}, plies={self.plies!r}, "
                f"resigned={self.resigned!r}, tokens={self.tokens!r})")

    def __eq__(self, other) -> bool:
        return isinstance(other, GameRecord) and vars(self) == vars(other)

    def board(self) -> Board:
        """The position at the end of the game (the plies are known to be legal)."""
        return Board.from_plies(self.plies)


class PartialGame(RecordError):
    """A RecordError that also carries the legal game up to (not including) the bad token."""

    def __init__(self, message, *, ply, token, line, board: Board):
        super().__init__(message, ply=ply, token=token, line=line)
        self.board = board


# -- reading -----------------------------------------------------------------------------------

def read_file(path: str | Path) -> list[GameRecord]:
    """Every game in a file (a JSON file may hold several; other formats hold one).

    OSError if it cannot be read; RecordError for a file that is not UTF-8 text or not a game.
    """
    return read_games(read_text(path))


def read_text(path: str | Path) -> str:
    """The text of a record file; RecordError naming the line and byte if it is not UTF-8."""
    data = Path(path).read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise RecordError(f"line {line}: not UTF-8 text (byte {e.start}: "
                          f"0x{data[e.start]:02x}); records are UTF-8", line=line) from None


def read_record(text: str) -> GameRecord:
    """The one game in `text`; RecordError if there is not exactly one."""
    games = read_games(text)
    if len(games) != 1:
        raise RecordError(f"expected one game, found {len(games)}")
    return games[0]


def read_games(text: str) -> list[GameRecord]:
    """Every game in `text`, in any of the formats this module reads."""
    return [replay_tokens(tokens, tags) for tags, tokens in parse_games(text)]


def parse_games(text: str) -> list[tuple[dict[str, str], list[Token]]]:
    """Split `text` into games of (tags, tokens) without checking any rule."""
    stripped = text.lstrip()
    if stripped[:1] in "[{":
        try:
            data = json.loads(text)
            if data is not None:
                return _parse_json(data, text)
        except RecursionError:  # '[[[[...' a thousand deep: no record is nested like that
            raise RecordError("JSON record: nested too deeply (a record is a list of games "
                              "or of tokens)") from None
        except RecordError:
            raise
        except ValueError:  # not JSON after all: one of the text formats
            pass
    if _OUR_TAG.match(stripped):
        return [_parse_ours(text)]
    if _LG_TAG.match(stripped):
        return [_parse_little_golem(text)]
    return [({}, _tokens(text))]


def _tokens(text: str, first_line: int = 1) -> list[Token]:
    """Movetext tokens with their line numbers; move numbers and `{comments}` dropped."""
    out = []
    text = re.sub(r"\{[^}]*\}", lambda m: "\n" * m.group().count("\n"), text)
    for n, line in enumerate(text.splitlines(), first_line):
        for m in _TOKEN.finditer(line):
            t = _MOVE_NUMBER.sub("", m.group())
            if t:
                out.append(Token(t, n))
    return out


def _parse_ours(text: str):
    tags: dict[str, str] = {}
    lines = text.splitlines()
    body_start = len(lines)
    for i, line in enumerate(lines):
        s = line.strip()
        if not s:
            continue
        m = _OUR_TAG.fullmatch(s)
        if not m:
            body_start = i
            break
        tags[m.group(1)] = m.group(2).replace('\\"', '"').replace("\\\\", "\\")
    tokens = _tokens("\n".join(lines[body_start:]), body_start + 1)
    return tags, tokens


def _parse_little_golem(text: str):
    tags: dict[str, str] = {}
    pos = 0
    stripped = text
    while True:
        m = _LG_TAG.match(stripped, pos)
        if not m:
            ws = re.match(r"\s+", stripped[pos:])
            if ws and _LG_TAG.match(stripped, pos + ws.end()):
                pos += ws.end()
                continue
            break
        tags[m.group(1)] = m.group(2).strip()
        pos = m.end()
    first_line = text.count("\n", 0, pos) + 1
    # keep the columns of the first movetext line so that line numbers stay right
    line_start = text.rfind("\n", 0, pos) + 1
    body = " " * (pos - line_start) + text[pos:]
    return tags, _tokens(body, first_line)


def _parse_json(data, text: str):
    """A list of games {'m': [...], 'win': ...}, one such game, or a bare list of tokens."""
    if isinstance(data, dict):
        data = [data]
    if isinstance(data, list) and all(isinstance(t, str) for t in data):
        data = [{"m": data}]
    if not isinstance(data, list):
        raise RecordError("JSON record: expected a list of games or of tokens")
    games = []
    cursor, line_at_cursor = 0, 1  # a running line count: one pass over the text in all
    for g, game in enumerate(data, 1):
        if not isinstance(game, dict) or not isinstance(game.get("m"), list):
            raise RecordError(f"JSON record: game {g} has no move list 'm'")
        tags = {k: str(v) for k, v in game.items() if k != "m"}
        tokens = []
        for raw in game["m"]:
            if not isinstance(raw, str):
                raise RecordError(f"JSON record: game {g}: token {raw!r} is not a string",
                                  token=str(raw))
            quoted = json.dumps(raw)
            at = text.find(quoted, cursor)
            line = None
            if at >= 0:
                line_at_cursor += text.count("\n", cursor, at)
                cursor = at + len(quoted)  # past it: the same token again is found further on
                line = line_at_cursor
            ply_text, _, colour = raw.partition("|")
            tokens.append(Token(ply_text, line, _COLOURS.get(colour.strip().lower(), colour or None)))
        games.append((tags, tokens))
    return games


def replay_tokens(tokens: list[Token], tags: dict[str, str] | None = None) -> GameRecord:
    """Play `tokens` from the empty board; the GameRecord, or PartialGame at the first bad one."""
    return _replay(tokens, tags)[0]


def _replay(tokens: list[Token], tags: dict[str, str] | None) -> tuple[GameRecord, Board]:
    board = Board()
    resigned = None
    tags = dict(tags or {})
    for number, tok in enumerate(tokens, 1):
        start = board.ply_count

        def fail(why: str) -> PartialGame:
            while board.ply_count > start:  # a pass or 49th placement put back for this token
                board.pop()
            where = f"line {tok.line}, " if tok.line is not None else ""
            return PartialGame(f"{where}ply {number} ({tok.text!r}): {why}", ply=number,
                               token=tok.text, line=tok.line, board=board)

        text = tok.text.strip()
        low = text.lower()
        if low in RESULTS:
            if number != len(tokens):
                raise fail("a result may only stand at the end of the record")
            tags.setdefault("Result", low)
            break
        if resigned is not None:
            raise fail(f"the game ended with {PLAYER_NAMES[resigned]}'s resignation")
        if low == "resign":
            if board.is_over():
                raise fail("the game is over")
            resigned = board.turn if tok.colour is None else tok.colour
            continue
        try:
            ply = Ply.parse(text)
        except ValueError as e:
            raise fail(str(e)) from None
        if tok.colour is not None and tok.colour not in (WHITE, BLACK):
            raise fail(f"unknown colour {tok.colour!r}")
        # The forced 49th placement, when the record goes straight on to moving.
        if board.ply_count == N_SPACES - 1 and not ply.is_placement:
            board._push(board.legal_plies()[0])
        # A pass the record left out: only where the player to move has no move.
        if (ply.is_move and board.phase == 2 and not board.has_moves(board.turn)
                and board.has_moves(1 - board.turn)):
            board._push(PASS)
        if tok.colour is not None and tok.colour != board.turn and not board.is_over():
            raise fail(f"it is {PLAYER_NAMES[board.turn]}'s turn, not "
                       f"{PLAYER_NAMES[tok.colour]}'s")
        why = board._check(ply)
        if why is not None:
            raise fail(why)
        board._push(ply)
    record = GameRecord(tags=tags, plies=list(board.move_stack), resigned=resigned,
                        tokens=len(tokens))
    return record, board


def replay_file(path: str | Path) -> list[tuple[GameRecord | None, Board, RecordError | None]]:
    """(record, final board, error) for each game in a file; error and a partial board if bad.

    A file that cannot be split into games at all gives one entry with an empty board.
    """
    try:
        parsed = parse_games(read_text(path))
    except OSError as e:
        return [(None, Board(), RecordError(f"cannot read {path}: {e}"))]
    except RecordError as e:
        return [(None, Board(), e)]
    out = []
    for tags, tokens in parsed:
        try:
            record, board = _replay(tokens, tags)
        except PartialGame as e:
            out.append((None, e.board, e))
            continue
        out.append((record, board, None))
    return out


# -- writing -----------------------------------------------------------------------------------

def result_of(board: Board, resigned: int | None = None) -> str:
    """The PGN-style result: '1-0', '0-1', '1/2-1/2', or '*' while the game goes on."""
    if resigned is not None:
        return "0-1" if resigned == WHITE else "1-0"
    return {WHITE: "1-0", BLACK: "0-1", "draw": "1/2-1/2", None: "*"}[board.winner()]


def write_record(game: GameRecord | Board, tags: dict[str, str] | None = None,
                 width: int = 79) -> str:
    """Our own format for a game or a board's history (every ply written, passes included)."""
    if isinstance(game, Board):
        if game.ply_count != len(game.move_stack):
            raise ValueError("a board set up with Board.from_stacks has no record to write")
        game = GameRecord(tags={}, plies=list(game.move_stack))
    board = game.board()
    all_tags = dict(game.tags)
    all_tags.update(tags or {})
    if not (all_tags.get("Termination") == "time forfeit" and all_tags.get("Result")):
        all_tags["Result"] = result_of(board, game.resigned)  # a flag's result is not the board's
    ordered = [k for k in TAG_ORDER if k in all_tags] + [k for k in all_tags if k not in TAG_ORDER]
    head = "".join(f'[{k} "{_escape(all_tags[k])}"]\n' for k in ordered)

    words = []
    replay = Board()
    number = 0
    for ply in game.plies:
        if replay.turn == WHITE:  # a number before each of White's plies, kept on its line
            number += 1
            words.append(f"{number}. {ply}")
        else:
            words.append(str(ply))
        replay._push(ply)
    if game.resigned is not None:
        words.append("resign")
    words.append(all_tags["Result"])
    lines, line = [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    lines.append(line)
    return head + "\n" + "\n".join(lines) + "\n"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')
