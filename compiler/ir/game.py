"""The lowered game: everything the engine template needs, already checked and typed.

As the lowering (:mod:`lower`) leaves it, the same for both engines, the game's expressions and
blocks of statements are trees (:mod:`nodes`, :mod:`statements`; the fields marked *tree*
below), each block after a comment naming its rules line. :func:`written.write_game` turns them
into one engine's code (``written``) just before the template lays the module out.
"""
from __future__ import annotations

import attrs


@attrs.define
class TableIR:
    name: str
    const: str  # Python prefix for its tuples, e.g. T_CONTRACT
    columns: list  # [(column name, display kind, values tuple)]
    count: int
    show_lines: list  # body of show_<table>(i)
    line: int
    cell_tables: list = attrs.Factory(list)  # [(column, 256-byte translation)] for grid projections
    detail_lines: list = attrs.Factory(list)  # body of detail_<table>(i), when the table has one
    #: columns of whole numbers (not truths) within 62 bits: natively also a typed array of C
    #: numbers, ``_v_C_<table>__<column>``, which the native lowering reads instead
    c_columns: list = attrs.Factory(list)


@attrs.define
class EnumIR:
    name: str
    const: str
    members: list
    wild: int | None
    symbols: list = attrs.Factory(list)  # one character per member ('' when none)
    figures: list = attrs.Factory(list)  # how pages draw each member ('' when the rules say not; "disc:X" on a disc)


@attrs.define
class ZoneIR:
    name: str
    attr: str
    per: str | int | None  # None, "player", or a count of enum members
    hidden: bool
    private: bool
    kind: str
    capacity: int | None
    init_code: object  # tree: its first contents (None: empty)
    line: int
    per_turn: bool = False  # emptied as each turn begins (a set of marks that lasts a turn)
    per_step: bool = False  # emptied as each step of a turn begins
    unordered: bool = False  # a multiset: views list it in one order, whatever order it came in
    #: for observations: (lowest value, how many values: a number, "n" for the seats, or None
    #: for numbers without declared values)
    values: tuple = (0, None)


@attrs.frozen
class FootprintIR:
    """An ensure's condition remembered in a position, with the cells it read there: a trial
    whose writes miss them takes the value remembered (compiler/passes/ensure_memo.py)."""
    memo: int
    cells: int  # how many cells its grid has
    grid: str  # the attribute of the grid it reads (g_board)
    line: int  # the rules line of the (first) ensure
    cond: object  # the condition's tree with its reads noted (written as code by write_game)
    xray: bool = False  # natively, whether a walk of it looks past the cell that stopped it
    fills: tuple = ()  # natively, the tests its walks ask of a piece put in a cell they passed: (names, code)

    def fill_names(self) -> list[str]:
        """The names the fills' tests read besides the code (each once): C locals of ``_xfill``."""
        return list(dict.fromkeys(name for names, _code in self.fills for name in names))


@attrs.define
class GridIR:
    name: str
    attr: str
    const: str  # prefix of its geometry constants, e.g. G_TRAY
    per: str | int | None
    hidden: bool
    private: bool
    kind: str  # element display kind
    shape: str  # square | lanes | hex
    width: int
    height: int
    cells: int
    adj: list
    rows: list
    names: list
    dirs: list
    exits: list
    line: int
    columns: list = attrs.Factory(list)  # per cell: its column (x) counted from the west
    sides: list = attrs.Factory(list)  # per side of the board: the cells along it
    side_names: list = attrs.Factory(list)  # the sides' own names, clockwise from the south ("s", "w", ...)
    numbers: bool = False  # a grid of numbers: a list of ints, not a bytearray of codes
    values: object = 0  # for observations: how many values a cell may hold (a number, or "n")
    layout: tuple = ("square", ())  # for drawing: cell shape and centres (geometry.layout)
    numbered: dict = attrs.Factory(dict)  # a numbered grid: number (from 1) -> cell
    lines: list = attrs.Factory(list)  # a board of points and lines: per line, its cells in order
    line_ids: list = attrs.Factory(list)  # and per point, the lines through it; per line, its cells (geometry.point_line_tables)
    line_cells: list = attrs.Factory(list)
    leaps: list = attrs.Factory(list)  # (name, offsets, table) of each leap the rules use (LEAP_1_2)
    ways: int = 0  # how many reachable() calls on it keep the last ways found (WAYS_0, WAYS_1...)
    marks: bool = False  # walls: the ways found in a position are marked on them (MARKS; lower/kept_ways.py)
    corners: list = attrs.Factory(list)  # walls read by K.walls_hang: per wall, its two corners (CORNERS)
    around: list = attrs.Factory(list)  # and per corner: on the edge (1), then the walls that end there (AROUND)
    side_masks: bool = False  # a side is given to reachable()/distance(): each side's cells as a mask
    base: str | None = None  # walls: the board whose cells they stand between
    ends: list = attrs.Factory(list)  # walls: per wall, its two cells of the board
    slots: list = attrs.Factory(list)  # walls: per (board cell * directions + d), the wall crossed (-1 none)
    line_bits: list = attrs.Factory(list)  # in_a_row's lines as bits (geometry.line_steps), when used
    per_turn: bool = False  # emptied as each turn begins (marks that last a turn)
    per_step: bool = False  # emptied as each step of a turn begins


@attrs.define
class CounterIR:
    name: str
    attr: str
    per: str | int | None
    init_code: object  # tree: its first value
    line: int
    kind: str = "int"  # what it holds, for displays: int, player, bool, cell:GRID, enum:E, item:T
    per_turn: bool = False  # set back to its first value as each turn begins
    per_step: bool = False  # set back to its first value as each step of a turn begins
    private: bool = False  # per player, each seat sees its own value only
    #: observations give it one-hot over this many values (a cell, member, item, piece; "n": a
    #: seat); None: a number (or a truth), given as it is
    values: int | str | None = None
    per2: int | None = None  # a counter of two keys: the members of its second key (a row per first key)

    @property
    def table_per(self):
        """``per`` as the COUNTERS table gives it: a pair (per, members) for two keys."""
        return self.per if self.per2 is None else (self.per, self.per2)


@attrs.define
class ActionIR:
    index: int
    name: str
    step: int
    say_lines: list  # body of the notation function
    arg_names: list
    moves: tuple  # its part of the move generator: statement nodes (compiler/write/moves.py)
    do_lines: list   # tree: the statements that apply the effects
    after: str       # code run after the effects (advance the turn)
    line: int
    is_pass: bool = False
    #: what the other seats see of one of its moves (None: the move itself, as everyone does)
    secret: str | None = None
    #: ``ids as NAME``: the index of the action whose ids its moves take (compiler/lower/shared_ids.py)
    ids_of: int | None = None
    long_lines: list = attrs.Factory(list)  # body of the long notation (for telling moves apart)
    clash: str = "False"  # Python condition: may two moves of this action read the same?
    skeleton: str = ""    # the notation with its placeholders blanked
    #: per argument, its domain for action ids: ("value", size, lowest), ("players",),
    #: ("group", colours, cells) or ("line", cells, directions, longest + 1)
    domains: list = attrs.Factory(list)
    #: per argument, its display kind ("cell:board", "item:card", "enum:colour", "int"...)
    arg_kinds: list = attrs.Factory(list)
    #: the effects' locals that always hold whole numbers: C numbers in the native engine
    c_locals: list = attrs.Factory(list)
    gen_locals: dict = attrs.Factory(dict)  # the move generator's locals -> whether each holds whole numbers
    #: tree: ``ensure``'s trial (compiler/lower/ensure.py): the statements before it, the effects
    #: before ``ensure`` and its condition (returned), what a ``finally`` puts back (None: the
    #: trial runs on a copy), its rules line; () without ``ensure``
    ensure_lines: tuple = ()
    ensure_locals: list = attrs.Factory(list)
    forced: bool = False  # ``forced action``: its moves, when it has any, are the step's only ones
    #: tree: the body of ``_sayin_N``, the notation read in the position the move is listed in
    #: (compiler/lower/notation.py); [] when it follows from the move alone
    sayin_lines: list = attrs.Factory(list)
    sayin_locals: list = attrs.Factory(list)


@attrs.define
class StepIR:
    index: int
    name: str
    kind: str  # decision | when | optional | repeat | auto
    line: int
    cond_code: object  # tree: the step's condition (None: always)
    actions: list  # ActionIR (including pass/skip)
    pass_action: ActionIR | None
    body_lines: list  # tree: the statements of an automatic step
    comment: str = ""  # "# line N: <rules text>"
    shared_code: object = None  # tree: computed by the condition, passed to the move generator
    move_lines: tuple = ()  # tree: the move generator's statements (compiler/write/moves.py)
    keyed: dict | None = None  # natively, how it fills the buffer of keys instead (moves.keyed_moves)
    c_locals: list = attrs.Factory(list)  # natively, the move generator's locals that are C numbers
    unordered: bool = False  # unordered repeat step: a round of its moves is one choice, in no order


@attrs.define
class GameIR:
    name: str
    title: str
    rules_file: str
    rules_hash: str
    min_players: int
    max_players: int
    first_code: object  # tree: the seat that plays first
    params: list  # [(name, value)]
    enums: list
    tables: list
    zones: list
    grids: list
    patterns: list  # (rows, cols, cells bytes)
    pattern_texts: list
    counters: list
    setup_lines: list  # tree: the statements of the setup
    steps: list
    actions: list
    end_conds: list  # [(comment, tree)]
    score_clauses: list  # [(name, line, tree)]
    score_var: str
    winner_keys: list  # [(line, tree, the seat's local)]
    ties: str
    invariants: list  # [(name, line, tree)]
    kinds: dict  # display kind -> bound (enum size / item count)
    score_secrecy: list = attrs.Factory(list)
    flows: list = attrs.Factory(list)
    ends_by_statement: bool = False  # some effect says `end game`
    #: the item kinds play keeps: each item of one lies in exactly one place (saved states)
    conserved_items: list = attrs.Factory(list)
    reveals: bool = False  # a `reveal` statement: the state keeps the places it revealed
    shown_at_end: list = attrs.Factory(list)  # hidden or private places everyone sees at the end
    notices: list = attrs.Factory(list)  # [NoticeIR] (lower/notices.py): words a page shows
    reads_stuck: bool = False  # an end condition reads `stuck` (a turn ended with no decision)
    remembers: bool = False  # a secret move notes items its player saw go out of its sight (``seen``)
    rolls: bool = False  # random() draws during play: the state keeps their log (``rolls``)
    #: per repeated(...) set of places: (their code, whether the mover counts)
    histories: list = attrs.Factory(list)
    has_next_player: bool = False  # some effect says `next player` (else seats go in order)  # (place, place) pairs elements move between  # per clause: "public", "owner" or "nobody"
    zone_per_enum: dict = attrs.Factory(dict)
    quiet: list = attrs.Factory(list)  # names not drawn by regle play
    edges: dict = attrs.Factory(dict)  # grid name -> the enum naming its sides
    under: dict = attrs.Factory(dict)  # grid name -> the grid lying on top of it
    looks: dict = attrs.Factory(dict)  # grid name -> how pages draw it ("checkered", "points")
    grounds: dict = attrs.Factory(dict)  # grid name -> the colour pages draw its cells in
    zone_columns: dict = attrs.Factory(dict)  # zone name -> the column of its items pages lay it out by
    pattern_enums: dict = attrs.Factory(dict)  # "item:table" -> the enum of its pattern column
    enum_params: dict = attrs.Factory(dict)  # enum -> {list param indexed by it: values}
    #: tracks: (name, grid, rules line, its cells in order, each grid cell's place on it or -1, loop)
    tracks: list = attrs.Factory(list)
    item_patterns: dict = attrs.Factory(dict)  # "item:table" -> the constant of its pattern column
    #: [(comment, condition's tree, the winner's tree, "draw" or None)]: an end condition
    #: that names its winner
    end_winners: list = attrs.Factory(list)
    #: module-level functions compiled from defines: (name, parameter codes, comment, tree: its
    #: body as (the value's tree, the names it is given, its rules line, its lets as assignments),
    #: C signature)
    functions: list = attrs.Factory(list)
    #: natively, the ensures remembered in a position ([FootprintIR]: compiler/passes/ensure_memo.py)
    footprints: list = attrs.Factory(list)
    #: natively, the grid whose written cells the state notes for its end conditions' line
    #: searches (its field, ``g_board``; compiler/passes/cells_written.py), or None
    journal: str | None = None
    #: native lowering only: methods of the state that compute aggregates with a loop
    #: (name, parameter codes, comment, body lines)
    helpers: list = attrs.Factory(list)
    #: the mark of each seat in drawn grids ("X", "O"), empty for P1, P2...
    marks: list = attrs.Factory(list)
    #: the winner's ranks as the rules write them (most score, fewest count(hand[p])): what a
    #: page says decided a tie
    winner_said: list = attrs.Factory(list)
    seats: list = attrs.Factory(list)  # the seats' names as the rules give them (seats white, black), or none
    seat_sides: list = attrs.Factory(list)  # the side each seat sits at (seats white at south), None where unsaid
    colours: list = attrs.Factory(list)  # one per seat, for drawing (colour words or #rrggbb)
    #: zone -> (lo, hi): the numbers a zone of numbers is declared to hold
    zone_values: dict = attrs.Factory(dict)
    #: whether the rules use chance (shuffle, random)
    has_chance: bool = False
    #: the most decisions a game may take (``max decisions N``, else the engine's limit)
    max_decisions: int = 100_000
    #: notes for the author (rendered FILE:LINE:COL: note: ...), e.g. why there are no action ids
    notes: list = attrs.Factory(list)
    end_shapes: list = attrs.Factory(list)
    announces: bool = False  # some effect says `announce "..."`
    #: for the native engine: written by its emitter (its code calls the C forms the native
    #: template defines; rendered as Python only to be verified, with a Python twin of each)
    native_lowered: bool = False
    #: natively, how many memos of in_a_row_since a state keeps (``s._memo_k``, made by ``s._memo(k, size)``)
    memos: int = 0
    #: natively, the C globals bound to the runtime helpers the lowered code calls
    bound_calls: dict = attrs.Factory(dict)
    #: the Python engine's shared move tuples: (action tag, the cells of each argument's grid),
    #: one table ``_MOVES_<tag>`` each (compiler/write/moves.py, ``ops.move_table``)
    move_tables: list = attrs.Factory(list)
    #: the trees above written as code (compiler/write/written.py), for the engine ``native_lowered`` says
    written: bool = False

    @property
    def same_fields(self) -> tuple[str, ...]:
        """The fields a copy of a state takes as they are (numbers, and tuples or bytes never
        changed in place), in copy(), _keep_into() and the Python engine's keep_slots plan
        alike; ``legal`` is the state's list of moves (natively its keys, copied)."""
        return ("n", "seed", "cur", "step", "turns", "decisions", "over", "legal", "nxt", "repeats") \
            + (("announced",) if self.announces else ()) + (("revealed",) if self.reveals else ()) \
            + (("seen",) if self.remembers else ()) \
            + (("stuck",) if self.reads_stuck else ()) \
            + tuple(f"hist_{k}" for k in range(len(self.histories)))
