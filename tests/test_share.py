"""The passes that compute a value once (compiler/passes/share.py), on trees made by hand: the cell
lists a define's body builds twice, and the call a step's condition and its moves share."""
from __future__ import annotations

from regle.compiler.ir import nodes as N
from regle.compiler.ir import statements as S
from regle.compiler.ir import types as T
from regle.compiler.write.emit import PythonWriter
from regle.compiler.write.moves import Guard, KernelMoves, nest
from regle.compiler.passes.share import build_once, shape, shared_value, use_shared

CELLS = T.list_of(T.INT)
BOARD = N.Field(T.ANY, 0, "g_board")
MINE = N.Index(T.ANY, 0, N.Field(T.ANY, 0, "g_boards"), N.Local(T.PLAYER, 0, "p_"))


def cells(grid, line=0):
    return N.Cells(CELLS, line, grid, True, True)


def count(var, source, line=0):
    return N.Aggregate(T.INT, line, "count", var, source, N.Local(T.INT, 0, var), None)


def _code(e) -> str:
    return PythonWriter().code(e)


def test_trees_of_the_same_shape_on_other_lines_compare_equal():
    assert shape(cells(BOARD, 3)) == shape(cells(BOARD, 7)) != shape(cells(MINE, 3))


def test_a_list_of_cells_built_twice_in_a_define_is_built_once():
    body = N.Binary(T.INT, 0, "+", count("c_", cells(MINE, 1)), N.Len(T.INT, 0, cells(MINE, 2)))
    built, rewritten = build_once(body, {"p_", "me"}, native=False)
    assert [PythonWriter().lines([b]) for b in built] == [
        ["_cells0 = K.filled_cells(s.g_boards[p_])  # built once for this line"]]
    assert "_cells0" in _code(rewritten) and "filled_cells" not in _code(rewritten)
    # built once already: nothing to share
    assert build_once(cells(MINE), {"p_"}, native=False) == ([], cells(MINE))


def test_a_grid_named_by_what_an_aggregate_binds_is_a_list_per_element():
    per_element = N.Index(T.ANY, 0, N.Field(T.ANY, 0, "g_boards"), N.Local(T.PLAYER, 0, "q_"))
    inner = N.Aggregate(T.INT, 0, "sum", "q_", N.Upto(T.list_of(T.PLAYER), 0, N.Field(T.INT, 0, "n")),
                        N.Binary(T.INT, 0, "+", N.Len(T.INT, 0, cells(per_element)), N.Len(T.INT, 0, cells(per_element))),
                        None)
    assert build_once(inner, {"p_", "me"}, native=False) == ([], inner)


def test_natively_the_lists_inside_an_aggregate_stay_in_its_own_method():
    body = N.Binary(T.INT, 0, "+", count("c_", cells(MINE)), count("d_", cells(MINE)))
    assert build_once(body, {"p_"}, native=True) == ([], body)
    assert build_once(body, {"p_"}, native=False)[0]  # the Python engine shares them


def test_the_largest_call_the_condition_and_the_moves_both_compute_is_shared():
    groups = N.Helper(T.list_of(T.ANY), 0, "K.groups", (BOARD,))
    keys = N.Helper(T.list_of(T.ANY), 0, "ops.group_keys", (groups,))
    cond = N.Binary(T.BOOL, 0, ">", N.Len(T.INT, 0, keys), N.Const(T.INT, 0, 0))
    moves = (KernelMoves(5, "K.tagged", (N.Const(T.INT, 0, 0), N.Helper(T.list_of(T.ANY), 5, "ops.group_keys",
                                                                       (N.Helper(T.list_of(T.ANY), 5, "K.groups", (BOARD,)),)))),)
    shared = shared_value(cond, moves)
    assert shape(shared) == shape(keys)  # not the groups inside it
    assert _code(use_shared(cond, shared)) == "len(_shared) > 0"
    assert PythonWriter().code(use_shared(moves, shared)[0].args[1]) == "_shared"


def test_a_call_that_reads_a_local_or_stands_in_an_aggregate_is_not_shared():
    at = N.Helper(T.list_of(T.ANY), 0, "K.groups", (N.Index(T.ANY, 0, BOARD, N.Local(T.INT, 0, "c_")),))
    cond = N.Binary(T.BOOL, 0, ">", N.Len(T.INT, 0, at), N.Const(T.INT, 0, 0))
    moves = nest([Guard(2, cond), KernelMoves(2, "K.tagged", (N.Const(T.INT, 0, 0), at))])
    assert shared_value(cond, moves) is None
    inside = count("x_", cells(BOARD))
    assert shared_value(N.Binary(T.BOOL, 0, ">", inside, N.Const(T.INT, 0, 0)), (S.Return(1, inside),)) is not None
    assert shared_value(N.Binary(T.BOOL, 0, ">", inside, N.Const(T.INT, 0, 0)),
                        (S.Return(1, N.Aggregate(T.INT, 0, "sum", "y_", cells(BOARD), inside, None)),)) is None
