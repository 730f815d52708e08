"""The ``regle`` command: check, compile, play and simulate games written as rules text."""
from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import sys
from pathlib import Path

import regle
from regle.dsl.errors import RulesError
from regle.runtime import IllegalMove, RulesRuntimeError, StateError

EPILOG = """examples:
  regle new mygame.rules                      (a small game to change; --from connect4: a copy of one)
  regle check games/mygame.rules
  regle play games/mygame.rules --seats human,random
  regle play games/mygame.rules --seats random,random --seed 7
  regle simulate games/mygame.rules -n 1000 --agents greedy,random --jobs 2
  regle compile games/mygame.rules -o mygame_engine.py
  regle perft chess --depth 4 --divide          (count what can be played: a move generator's check)

engines: the commands that play use a native engine (the generated one compiled by Cython,
built once per rules text, then cached) where a C compiler works, else the Python one; they
play the same games. --backend python|native|auto (or REGLE_BACKEND) chooses.
"""


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    if args.command in ("play", "simulate", "diff") and regle.KERNELS.startswith("pure (the compiled"):
        print("regle: warning: the compiled kernels are not built, so games run slower; reinstall "
              "regle where a C compiler works to build them (see regle --version)", file=sys.stderr)
    if args.command not in ("list", "studio"):  # the studio writes its file: never a packaged game's
        _games_by_name(args)  # (fmt prints a packaged game's text, never rewrites it)
    try:
        return args.func(args)
    except RulesError as err:
        print(err.render(), file=sys.stderr)
        return 1
    except (RulesRuntimeError, StateError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as err:  # a file to write or read: a missing folder, a directory, no permission
        where = f": {err.filename}" if err.filename else ""
        print(f"regle: {err.strerror or err}{where}", file=sys.stderr)
        return 1


def _games_by_name(args: argparse.Namespace) -> None:
    """FILE arguments that name a game shipped with regle (``connect4``) become its file; a file
    that exists always wins. A word that is neither is said in one line."""
    from regle import games
    args.shipped = set()  # the files given by a shipped game's name (never rewritten in place)
    for attr in ("file", "old", "new", "files"):
        value = getattr(args, attr, None)
        values = value if isinstance(value, list) else [value]
        resolved = []
        for v in values:
            if not isinstance(v, str):
                resolved.append(v)
                continue
            found = games.resolve(v)
            if found == v and not Path(v).exists() and "/" not in v and not v.endswith(".rules"):
                close = difflib.get_close_matches(v, games.names(), n=1, cutoff=0.6)
                raise SystemExit(f"regle: {v!r} is neither a file nor a game that ships with regle"
                                 + (f"; did you mean {close[0]!r}?" if close else "") + " (regle list names them)")
            if found != v:
                args.shipped.add(found)
                args.given = {**getattr(args, "given", {}), found: v}  # to say it back as the user wrote it
            resolved.append(found)
        if value is not None:
            setattr(args, attr, resolved if isinstance(value, list) else resolved[0])


def _positive(text: str) -> int:
    """argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _port(text: str) -> int:
    """argparse type: a TCP port, 0 (any free one) to 65535."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, not {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {value}")
    return value


class _Version(argparse.Action):
    """--version: what runs here (found only when asked: it runs the C compiler once)."""

    def __call__(self, parser, namespace, values, option_string=None):
        from regle import native
        reason = native.unavailable_reason()
        facts = native.toolchain()
        engines = (f"native (Cython {facts['cython']}, {facts['compiler']})" if reason is None
                   else f"python (no native engines: {reason})")
        print(f"regle {regle.__version__}\n  kernels: {regle.KERNELS}\n  engines: {engines}; "
              f"default backend: {native.default_backend()}")
        parser.exit()


def _backend_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--backend", choices=("auto", "python", "native"), default=None,
                   help="which engine plays: native (compiled by Cython, built once per rules text), "
                        "python, or auto (native where a C compiler works; the default, or "
                        "REGLE_BACKEND)")


def _load(path: str, args: argparse.Namespace):
    """regle.load for the commands that play, with --backend, telling of a native build."""
    from regle import loader, native
    loader.say_native = lambda text: print(f"regle: {text}", file=sys.stderr, flush=True)
    try:
        native.default_backend()
    except ValueError as exc:
        raise SystemExit(f"regle: {exc}") from None
    try:
        return regle.load(path, backend=args.backend)
    except native.NativeUnavailable as exc:
        raise SystemExit(f"regle: {exc} (--backend python plays without it)") from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="regle", description="Turn a tabletop game's rules, written as text, into a playable engine.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="show regle's version, its kernels and whether native engines can be built")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("list", help="the games that ship with regle (play one by its name: regle play connect4)",
                       description="List the games installed with regle: the main games, the classics and "
                                   "the variants, with their players and what each is. Every command that "
                                   "takes a FILE takes one of these names too (a file that exists wins).")
    p.add_argument("--json", action="store_true", help="print the list as JSON")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("check", help="check rules files; print each error as FILE:LINE:COL (exit 1 on errors)",
                       description="Parse and check rules files. Prints every error found as "
                                   "FILE:LINE:COL: error: ..., with the line and a caret; prints nothing "
                                   "when the files are clean.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--simulate", type=_positive, metavar="N",
                   help="also play N random games of each file (every player count), checking the "
                        "invariants and evaluating the scores after every decision; report the first "
                        "failure with its rules line and the command that plays it again")
    _backend_option(p)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("lsp", help="a language server for editors (stdio): diagnostics, hover, completion, rename...",
                       description="Serve the Language Server Protocol on standard input and output, for editors "
                                   "(VS Code, Neovim, Emacs: see docs/editors.md): diagnostics as you type, hover, "
                                   "completion (names, keywords, a grid's cells in quotes), go to definition, references, "
                                   "rename across the files a file extends, the outline and formatting. "
                                   "Needs the lsp extra: pip install 'regle[lsp]'.")
    p.set_defaults(func=cmd_lsp)

    p = sub.add_parser("fmt", help="rewrite rules files in the canonical layout (--check: only tell)",
                       description="Rewrite rules files in one canonical layout: two-space indents, aligned "
                                   "table columns, one blank line between declarations. Comments are kept where they were: "
                                   "above a line, or at the end of the line they follow. "
                                   "Formatting twice changes nothing more.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file is not formatted")
    p.add_argument("--stdout", action="store_true", help="print the formatted text instead of rewriting "
                   "(what a game named by its name, connect4, always gets: a shipped file is never rewritten)")
    p.set_defaults(func=cmd_fmt)

    p = sub.add_parser("compile", help="write the generated engine module for a rules file",
                       description="Generate the Python engine module of a rules file. The module imports "
                                   "only regle.runtime and exposes the same API as regle.load().")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", metavar="OUT.py", help="where to write the module (default: stdout)")
    p.add_argument("--native", action="store_true",
                   help="write the native engine's Cython source (OUT.pyx) instead: the same engine with "
                        "typed fields, which regle.load(..., backend='native') compiles and caches")
    p.set_defaults(func=cmd_compile)

    p = sub.add_parser("play", help="play a game in the terminal (humans and/or agents)",
                       description="Play a game in the terminal. Each seat is 'human' or an agent "
                                   "(random, greedy, mcts, mcts:iterations=400). The state is shown after "
                                   "every decision; a human answers with the number of a move or its notation.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--players", type=_positive, help="number of players (default: the game's smallest count)")
    p.add_argument("--seats", default=None, metavar="S1,S2,...",
                   help="who plays each seat: human, random, greedy, mcts[:iterations=N,time=S,...] "
                        "(default: human, then random)")
    p.add_argument("--seed", type=int, default=None, help="seed for the shuffles and the agents (default: random)")
    p.add_argument("--quiet", action="store_true", help="with agents only: print the moves and the result, not every state")
    p.add_argument("--check", action="store_true", help="check the rules' invariants after every decision (debug mode)")
    p.add_argument("--replay", metavar="ID,ID,...",
                   help="play these moves first, by action id (a rules error's 'play it again' command lists "
                        "them), then go on with the seats")
    _backend_option(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("serve", help="play, watch and replay a game in the browser (a local web app)",
                       description="Serve a game as a web page on this machine: people play by clicking "
                                   "(a cell or an item narrows the legal moves; pointing at a move previews "
                                   "it), watch agents play, or replay a game saved by `simulate --out` or a "
                                   "saved state. Each seat's page shows only what that seat may see.",
                       epilog="example:\n  regle serve games/mygame.rules --seats human,mcts:iterations=200\n"
                              "  then open the address it prints; the page that starts a game lists a link for\n"
                              "  each other human seat (it shows that seat's hand); a page without one watches",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", metavar="FILE")
    p.add_argument("--seats", default=None, metavar="S1,S2,...",
                   help="who sits where: human or an agent spec per seat (default: you, then random agents)")
    p.add_argument("--players", type=_positive, default=None, help="player count (default: the game's smallest)")
    p.add_argument("--port", type=_port, default=8000, help="port to listen on, 0 to 65535 (default 8000; 0: any "
                                                         "free port)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 lets anyone on "
                        "the network open the page, and a warning says so)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser window")
    _backend_option(p)
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("studio", help="edit a rules file in the browser beside the game it makes (a live playground)",
                       description="Open a rules file in an editor in the browser, with its game beside it.\n"
                                   "Mistakes show in the text as you type; each change that checks restarts the\n"
                                   "game from the same seed on the Python engine (nothing to build); a panel lists\n"
                                   "what changed since the file was saved, with a quick simulation of both\n"
                                   "versions (200 games between random agents, with 95% intervals); the rulebook\n"
                                   "tab previews the rulebook. Save (Ctrl-S) writes FILE, and nothing else.",
                       epilog="example:\n  regle studio games/mygame.rules\n"
                              "  then open the address it prints (its #k=... part lets that page save)",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", metavar="FILE", help="the rules file to edit (it must exist)")
    p.add_argument("--seats", default=None, metavar="S1,S2,...",
                   help="who sits where in the game beside the text (default: you, then MCTS agents "
                        "thinking half a second a move)")
    p.add_argument("--players", type=_positive, default=None, help="player count (default: the game's smallest)")
    p.add_argument("--seed", type=int, default=1, help="the seed every restarted game uses (default 1)")
    p.add_argument("--port", type=_port, default=8100, help="port to listen on (default 8100; 0: any free port)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser window")
    p.set_defaults(func=cmd_studio)

    p = sub.add_parser("simulate", help="play many seeded games between agents and summarise them",
                       description="Play N seeded games between agents (game i uses seed S+i) and print a "
                                   "summary: win rates with 95% intervals, draws, scores, game length.")
    p.add_argument("file", metavar="FILE", nargs="?")
    p.add_argument("-n", "--games", type=_positive, default=100, help="number of games (default 100)")
    p.add_argument("--players", type=_positive, help="number of players (default: the game's smallest count)")
    p.add_argument("--agents", default="random", metavar="A1,A2,...",
                   help="agent per seat, repeated as needed: random, greedy, mcts[:iterations=N,...] "
                        "(default: random)")
    p.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    p.add_argument("--jobs", "-j", type=_positive, default=1, help="worker processes (default 1; at most the CPU count unless --scheduler "
                        "runs them; results do not depend on it)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the games on a Dask cluster: a scheduler address, or 'local' for a local "
                        "cluster of --jobs workers (needs regle[dask]); results are the same")
    p.add_argument("--fixed-seats", action="store_true",
                   help="keep each agent in its seat (default: rotate seats from game to game)")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument("--out", metavar="FILE.jsonl", help="also write one JSON line per game, each as it ends (in "
                                                        "seed order once the run is done)")
    p.add_argument("--resume", metavar="FILE.jsonl",
                   help="go on with a run stopped early (Ctrl-C, a killed worker, a full disk): play only the "
                        "games missing from FILE, which --out wrote with the same options, and add them to it")
    p.add_argument("--report", metavar="FILE.jsonl", help="summarise games saved with --out instead of playing")
    p.add_argument("--check", action="store_true",
                   help="check the rules' invariants after every decision (slower; stops at the first broken one)")
    _backend_option(p)
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("diff", help="what changed between two versions of a rules file, in the game's terms",
                       description="A semantic diff of two rule sets after resolving extend: added, removed "
                                   "and changed declarations, ignoring layout, comments and declaration order. "
                                   "Exit 0 when they are the same, 1 when they differ, 2 on errors. With "
                                   "--simulate N, also play N seeded games of each and compare the results.")
    p.add_argument("old", metavar="OLD")
    p.add_argument("new", metavar="NEW")
    p.add_argument("--json", action="store_true", help="print the changes (and summaries) as JSON")
    p.add_argument("--simulate", type=_positive, metavar="N", help="play N games of each version with the same seeds")
    p.add_argument("--agents", default="random", metavar="A1,A2,...", help="agents for --simulate (default random)")
    p.add_argument("--players", type=_positive, help="players for --simulate (default: the smallest count)")
    p.add_argument("--seed", type=int, default=0, help="first seed for --simulate (default 0)")
    p.add_argument("--jobs", "-j", type=_positive, default=1, help="worker processes for --simulate")
    _backend_option(p)
    p.set_defaults(func=cmd_diff)

    p = sub.add_parser("rules", help="the rulebook of a rules file (Markdown or one HTML page)",
                       description="Render the rulebook of a rules file from its text: overview, components, "
                                   "setup, the turn step by step, scoring, end and winner, and every stand-in.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--format", choices=("md", "html", "json"), default="md",
                   help="md (default), html, or json: the rulebook as data, with what the rules declare "
                        "(params, enums, tables, places, boards and their geometry, steps and actions)")
    p.add_argument("-o", "--output", metavar="OUT", help="where to write it (default: stdout)")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("new", help="start a rules file: a small complete game to change, or a copy of a shipped one",
                       description="Write a new rules file to start from: a small complete game (players take "
                                   "counters from a pile) that checks clean and plays, each part commented; or, "
                                   "with --from, a copy of a game that ships with regle (regle list names them), "
                                   "to make a variant of. Never overwrites a file unless --force.")
    p.add_argument("target", metavar="FILE", help="the rules file to write (.rules is added when missing)")
    p.add_argument("--from", dest="source", metavar="GAME", help="copy this shipped game (connect4, chess, ...)")
    p.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("perft", help="count the sequences of moves a game allows, to a depth (a move generator's check)",
                       description="Count the sequences of 1, 2, ... DEPTH decisions the game allows from its start "
                                   "(every legal move played in turn): the numbers chess programmers check a move "
                                   "generator with, for any game. A change of the rules that changes them changed "
                                   "what can be played. With --divide, the count below each first move.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--depth", type=_positive, default=3, help="how many decisions deep (default 3)")
    p.add_argument("--divide", action="store_true", help="also the count below each legal move of the start")
    p.add_argument("--players", type=_positive, help="number of players (default: the game's smallest count)")
    p.add_argument("--seed", type=int, default=0, help="the game's seed, for games that shuffle or draw (default 0)")
    _backend_option(p)
    p.set_defaults(func=cmd_perft)

    p = sub.add_parser("cache", help="show or clear the cache of parser tables and generated engines")
    p.add_argument("--clear", action="store_true", help="delete the cache")
    p.set_defaults(func=cmd_cache)
    return parser


# ---- check / compile ---------------------------------------------------------------------
def cmd_new(args) -> int:
    """A rules file to start from: the starter game, or a copy of a shipped game."""
    from regle import games
    target = Path(args.target if args.target.endswith(".rules") else args.target + ".rules")
    if target.exists() and not args.force:
        print(f"regle: {target} exists; choose another name, or add --force to overwrite it", file=sys.stderr)
        return 1
    if args.source is None:
        text = (Path(__file__).with_name("starter.rules")).read_text(encoding="utf-8")
    else:
        source = games.path(args.source)
        if source is None:
            close = difflib.get_close_matches(args.source, games.names(), n=2, cutoff=0.6)
            print(f"regle: no game named {args.source!r} ships with regle"
                  + (f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else "")
                  + " (regle list names them)", file=sys.stderr)
            return 1
        text = source.read_text(encoding="utf-8")
        base = re.search(r'^\s*(?:standin\s+)?extend\s+"([^"\n]*)"', text, re.M)
        if base:
            print(f"regle: {args.source} is a variant: it extends {base.group(1)}, which a copy would not find; "
                  f"copy the game it varies (regle new {target} --from {Path(base.group(1)).stem}) and write "
                  "your changes there, or beside it with extend (docs/language.md, Variants)", file=sys.stderr)
            return 1
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target}: check it with `regle check {target}`, play it with `regle play {target}`",
          file=sys.stderr)
    return 0


def cmd_list(args) -> int:
    """The games that ship with regle, with their players and what they are."""
    from regle import games
    from regle.display import style_for
    from regle.dsl.files import read_source
    from regle.dsl.parser import parse
    from regle.dsl.variants import resolve
    st = style_for(sys.stdout)
    rows = []
    for name in games.names():
        source = read_source(games.path(name))
        rules, _ = resolve(parse(source.text, source.filename), source)
        head = next((d for d in rules.decls if type(d).__name__ == "Game"), None)
        title = head.title if head else name
        lo, hi = (head.min_players, head.max_players) if head else (2, 2)
        rows.append((games.kind(name), name, title, str(lo) if lo == hi else f"{lo}-{hi}", games.summary(name)))
    if args.json:
        print(json.dumps([{"kind": k, "name": n, "title": t, "players": p, "summary": d} for k, n, t, p, d in rows]))
        return 0
    width = max(len(r[1]) for r in rows)
    heading = {"game": "The games", "classic": "Classics", "variant": "Variants (extend a game above)"}
    kind = None
    for k, name, title, players, said in rows:
        if k != kind:
            print(("" if kind is None else "\n") + st.bold(heading[k]))
            kind = k
        print(f"  {name:<{width}}  {players:>3} players  {st.safe(title)}" + (st.dim(f" — {st.safe(said)}") if said else ""))
    print(st.dim("\nplay one: regle play connect4 (or regle.load(\"connect4\") in Python)"))
    return 0


def cmd_check(args) -> int:
    status = 0
    for name in args.files:
        try:
            regle.check_file(name)
            for note in regle.load(name, backend="python").namespace.get("NOTES", ()):
                print(note, file=sys.stderr)  # not an error: the game plays
            if args.simulate:
                _check_by_playing(name, args.simulate, args)
        except RulesError as err:
            print(err.render(), file=sys.stderr)
            status = 1
        except RulesRuntimeError as err:
            print(err, file=sys.stderr)
            status = 1
    return status


def _check_by_playing(name: str, games: int, args) -> None:
    """Play ``games`` random games for each player count, on the engine --backend (or
    REGLE_BACKEND) chooses, with invariants checked and scores evaluated after every decision
    (RulesRuntimeError at the first failure, with the game that shows it)."""
    from regle.runtime.match import play_game
    game = _load(name, args)
    for players in game.players:
        for seed in range(games):
            play_game(game, players, seed, ["random"] * players, check=True)


def cmd_lsp(args) -> int:
    try:
        from regle.lsp import main as serve_lsp
    except ImportError:
        raise SystemExit("regle: the language server needs pygls: pip install 'regle[lsp]'")
    serve_lsp()
    return 0


def cmd_fmt(args) -> int:
    from regle.dsl.files import read_source
    from regle.dsl.printer import format_text
    status = 0
    for name in args.files:
        path = Path(name)
        try:
            text = read_source(path, name).text
            formatted = format_text(text, name)
        except RulesError as err:
            print(err.render(), file=sys.stderr)
            status = 1
            continue
        if args.stdout or (name in getattr(args, "shipped", ()) and not args.check):
            if not args.stdout:  # a game of regle's own, named: printed, its installed file left alone
                print(f"regle: {Path(name).stem} ships with regle: its formatted text follows (its file is left "
                      f"as it is; regle new mine.rules --from {Path(name).stem} makes a copy to change)",
                      file=sys.stderr)
            sys.stdout.write(formatted)
        elif formatted != text:
            if args.check:
                print(f"{name}: not formatted (run: regle fmt {name})", file=sys.stderr)
                status = 1
            else:
                path.write_text(formatted, encoding="utf-8")
                print(f"reformatted {name}", file=sys.stderr)
    return status


def cmd_compile(args) -> int:
    if args.native:
        from regle.compiler.generate import native_source
        from regle.loader import _read
        path = Path(args.file)
        code = native_source(_read(path), str(path), path.stem)
    else:
        code = regle.compile_file(args.file)
    if args.output:
        Path(args.output).write_text(code, encoding="utf-8")
        print(f"wrote {args.output} ({code.count(chr(10))} lines)", file=sys.stderr)
    else:
        sys.stdout.write(code)
    return 0


# ---- perft ---------------------------------------------------------------------------------
def cmd_perft(args) -> int:
    import time
    game = _load(args.file, args)
    start = game.new_game(_players(game, args.players), seed=args.seed)
    print(f"{game.title}: sequences of decisions from the start ({game.backend} engine)")
    print(f"{'depth':>5}{'sequences':>16}{'seconds':>10}{'per second':>14}")
    for depth in range(1, args.depth + 1):
        began = time.perf_counter()
        count = start.perft(depth)
        took = time.perf_counter() - began
        rate = f"{count / took:>14,.0f}" if took > 0 else f"{'-':>14}"
        print(f"{depth:>5}{count:>16,}{took:>10.3f}{rate}", flush=True)
    if args.divide:
        print(f"\nbelow each first move, to depth {args.depth}:")
        moves = start.legal_moves()
        width = max((len(str(m)) for m in moves), default=0)
        total = 0
        for move in moves:
            count = start.copy().advance(move).perft(args.depth - 1)
            total += count
            print(f"  {str(move):<{width}}  {count:,}")
        print(f"  {'total':<{width}}  {total:,} ({len(moves)} moves)")
    return 0


# ---- play ----------------------------------------------------------------------------------
def _players(game, requested: int | None) -> int:
    n = game.players.start if requested is None else requested
    if n not in game.players:
        lo, hi = game.players.start, game.players.stop - 1
        raise SystemExit(f"regle: {game.title} is for {lo if lo == hi else f'{lo} to {hi}'} players, not {n}")
    return n


def cmd_serve(args) -> int:
    from regle.web.server import make_server

    game = _load(args.file, args)
    n, seats = _seats(game, args)
    try:
        server = make_server(game, args.host, args.port, seats, n)
    except OSError as exc:
        raise SystemExit(f"regle: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from None
    from regle.web.guard import is_loopback, is_wildcard
    host, port = server.server_address[:2]
    shown = "localhost" if is_loopback(host) or is_wildcard(host) else (f"[{host}]" if ":" in host else host)
    url = f"http://{shown}:{port}/"
    print(f"{game.title}: {n} players; seats: " + ", ".join(f"P{p + 1} {s}" for p, s in enumerate(seats)))
    if not is_loopback(args.host):
        print(f"regle: warning: listening on {args.host}: anyone who can reach this machine on port {port} "
              "can open the page, start games and watch them (each seat still needs its own link to see its "
              "hand or play)", file=sys.stderr)
    print(f"serving on {url}  (Ctrl-C to stop)", flush=True)
    return _serve_until_stopped(server, url, args.no_browser)


def cmd_studio(args) -> int:
    from regle.web.guard import is_loopback
    from regle.web.studio import make_studio
    path = Path(args.file)
    if not path.is_file():
        from regle import games
        if args.file in games.names():
            raise SystemExit(f"regle: '{args.file}' is a game that ships with regle; the studio edits a file of "
                             f"yours: copy it first (cp {games.path(args.file)} .) and open the copy")
        raise SystemExit(f"regle: {args.file}: no such file (the studio edits an existing rules file)")
    seats = [s.strip() for s in args.seats.split(",")] if args.seats else None
    try:
        server = make_studio(path, args.host, args.port, seats, args.players, args.seed)
    except OSError as exc:
        raise SystemExit(f"regle: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from None
    bench = server.bench
    host, port = server.server_address[:2]
    shown = "localhost" if is_loopback(host) or host in ("0.0.0.0", "::") else host
    url = f"http://{shown}:{port}/#k={bench.key}"
    if bench.problems:
        first = bench.problems[0]
        print(f"{args.file}:{first['line']}:{first['column']}: error: {first['message']} "
              f"(the studio shows it; fix it there)", file=sys.stderr)
    if not is_loopback(args.host):
        print(f"regle: warning: listening on {args.host}: anyone who can reach this machine on port {port} can "
              "watch the game; only the address below saves the file", file=sys.stderr)
    print(f"studio for {path} on {url}  (Ctrl-C to stop; this address saves the file: keep it to yourself)",
          flush=True)
    return _serve_until_stopped(server, url, args.no_browser)


def _serve_until_stopped(server, url: str, no_browser: bool) -> int:
    """Open the page (not under CI) and serve until Ctrl-C."""
    if not no_browser and not os.environ.get("CI"):
        import webbrowser
        webbrowser.open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("stopped")
    finally:
        server.server_close()
    return 0


def _seats(game, args) -> tuple[int, list[str]]:
    """The player count and who sits where (--players, --seats), each agent spec checked."""
    from regle.runtime.agents import make_agent, split_specs
    n = _players(game, args.players)
    seats = split_specs(args.seats) if args.seats is not None else ["human"] + ["random"] * (n - 1)
    if not seats:
        raise SystemExit("regle: --seats names no seat (e.g. --seats human,random or --seats mcts,greedy)")
    if len(seats) != n:
        raise SystemExit(f"regle: --seats names {len(seats)} seats but the game has {n} players")
    for p, spec in enumerate(seats):
        if spec != "human":
            try:
                make_agent(spec, 0)
            except (ValueError, TypeError) as exc:
                raise SystemExit(f"regle: seat {p + 1}: {exc}") from None
    return n, seats


def cmd_play(args) -> int:
    from regle.display import render, style_for
    from regle.runtime.agents import agent_seed, make_agent

    game = _load(args.file, args)
    n, seats = _seats(game, args)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    agents = {}
    for p, spec in enumerate(seats):
        if spec != "human":
            try:
                agents[p] = make_agent(spec, agent_seed(seed, p))
            except (ValueError, TypeError) as exc:
                raise SystemExit(f"regle: seat {p + 1}: {exc}")
    humans = [p for p in range(n) if p not in agents]
    st = style_for(sys.stdout)
    state = game.new_game(players=n, seed=seed)
    # a seed drawn here is said only at the end: with it and the moves, every shuffle is known
    given = f", seed {seed}" if args.seed is not None else ""
    print(st.dim(f"{st.safe(game.title)}: {n} players{given}; seats: "
                 + ", ".join(f"P{p + 1} {s}" for p, s in enumerate(seats))))
    # one human sees their own view; several humans at one terminal see a spectator's view
    # between turns, and each their own only after the terminal is handed over
    viewer = humans[0] if len(humans) == 1 else None
    show_states = not args.quiet
    played: list = []  # the moves played, for the command that plays them again
    try:
        if args.replay:
            _replay(state, args.replay, st, args.check)
        if show_states or humans:
            print(render(state, viewer, st))
        while not state.over:
            p = state.cur
            if p in agents:
                move = state.MOVE(agents[p].choose(state))
                said = move.hidden_from(viewer, p) or state.notation(move)  # another's secret move: its text
                print(st.accent(f"P{p + 1} ({seats[p]}): {st.safe(said)}"))
            else:
                if len(humans) > 1 and not _hand_over(p, st):
                    print("game abandoned")
                    return 0
                if len(humans) > 1:
                    print(render(state, p, st))
                move = _ask(state, p, st)
                if move is None:
                    print("game abandoned")
                    return 0
                print(st.accent(f"P{p + 1}: {st.safe(state.MOVE(move).hidden_from(viewer, p) or str(move))}"))
            heard = len(state.announcements)
            played.append(move)
            state.play(move)
            for _at, text in state.announcements[heard:]:  # a round ending, said by the rules
                print(st.bold(f"** {st.safe(text)} **") + " " + st.dim("scores: " + ", ".join(
                    f"P{q + 1} {'?' if v is None else v}" for q, v in enumerate(state.scores_seen_by(viewer)))))
            if args.check:
                state.require_invariants(f"decision {state.decisions}")
                state.scores
            if show_states or humans:
                print()
                print(render(state, viewer, st))
    except RulesRuntimeError as err:
        replayed = [int(w) for w in (args.replay or "").split(",") if w.strip().isdigit()]
        try:
            ids = ",".join(map(str, replayed + [game.action_space(n).encode(m) for m in played]))
        except ValueError:  # a game without action ids: the seed and seats say the rest
            ids = ""
        raise err.in_game(f"  in the game of seed {seed}, {n} players ({','.join(seats)})\n  play it again: regle play "
                          f"{getattr(args, 'given', {}).get(args.file, args.file)} --players {n} --seed {seed} "
                          f"--seats {','.join(seats)}" + (f" --replay {ids}" if ids else "")
                          + (" --check" if args.check else "")) from err.__cause__
    if not show_states and not humans:
        print(render(state, None, st))
    if args.seed is None:
        print(st.dim(f"seed {seed} (replay with --seed {seed})"))
    return 0


def _replay(state, ids_text: str, st, check: bool) -> None:
    """Play the moves of --replay (action ids, comma-separated) on ``state``, saying each."""
    words = [w.strip() for w in ids_text.split(",") if w.strip()]
    if not all(w.isdigit() and len(w) <= 12 for w in words):
        raise SystemExit("regle: --replay takes action ids separated by commas (e.g. --replay 4,0,8)")
    for k, word in enumerate(words, 1):
        if state.over:
            raise SystemExit(f"regle: --replay: the game is over after {k - 1} moves; move {k} ({word}) is one too many")
        mover = state.cur
        try:
            move = state._move_of_id(int(word))
        except IllegalMove as err:
            raise SystemExit(f"regle: --replay: move {k} ({word}) is not legal here: {err}") from None
        print(st.dim(f"{k}. P{mover + 1}: {st.safe(state.notation(move))}"))
        state.advance(move)
        if check:
            state.require_invariants(f"decision {state.decisions}")
            state.scores  # as check --simulate does: a score that fails, fails here too


def _hand_over(player: int, st) -> bool:
    """Between two humans at one terminal: clear the screen and wait for the next player, so
    that nobody sees another's private cards. False when the input has ended."""
    if sys.stdout.isatty():
        print("\033[2J\033[H", end="")
    else:
        print("\n" * 3, end="")
    try:
        input(st.bold(f"Pass the terminal to P{player + 1}, then press Enter. "))
    except EOFError:
        return False
    if sys.stdout.isatty():
        print("\033[2J\033[H", end="")
    return True


def _ask(state, player: int, st):
    legal = state.legal_moves()

    def show_moves() -> None:
        print(st.bold(f"P{player + 1}, your move:"))
        for i, m in enumerate(legal, 1):
            print(f"  {i:>3}. {st.safe(str(m))}")

    show_moves()
    while True:
        try:
            answer = input(f"P{player + 1}> ").strip()
        except EOFError:
            return None
        if answer in ("q", "quit", "exit"):
            return None
        if answer in ("?", "help", ""):
            print("  type the number of a move or its text; 'q' quits")
            continue
        if answer.isdigit() and 1 <= int(answer) <= len(legal):
            return legal[int(answer) - 1]
        try:
            return state.move_from_text(answer)
        except IllegalMove as err:
            if "could be any of" in str(err):  # a text several moves share: say which ones
                print(f"  {st.safe(str(err))}")
                continue
        # forgiving: the same text in other case or spacing, when it names one move
        folded = " ".join(answer.lower().split())
        alike = [m for m in legal if " ".join(str(m).lower().split()) == folded]
        if len(alike) == 1:
            return alike[0]
        # the same words and numbers in another order ("merge 4+1" for "merge 1+4"), when that
        # names one move
        words = _words(answer)
        alike = [m for m in legal if _words(str(m)) == words]
        if len(alike) == 1:
            return alike[0]
        close = difflib.get_close_matches(answer, [str(m) for m in legal], n=3, cutoff=0.6)
        print(f"  {st.safe(repr(answer))} is not a legal move here"
              + (f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else "."))
        show_moves()


def _words(text: str) -> list[str]:
    """A move's text as a bag of words, numbers and signs, in no order, any case."""
    return sorted(re.findall(r"\w+|[^\w\s]", text.lower()))


# ---- simulate ------------------------------------------------------------------------------
def cmd_simulate(args) -> int:
    from regle import simulate as sim

    if args.report:
        cut: list[str] = []
        try:
            records = list(sim.read_jsonl(args.report, cut))
        except ValueError as exc:
            raise SystemExit(f"regle: {exc}") from None
        for said in cut:
            print(f"regle: {said}", file=sys.stderr)
        if not records:
            raise SystemExit(f"regle: {args.report} holds no games")
        summary = sim.summarise(records)
        _print_summary(summary, args.json, title=f"report of {args.report}")
        return 0
    if not args.file:
        raise SystemExit("regle simulate: give a rules FILE (or --report FILE.jsonl)")
    if args.resume and args.out and Path(args.out).resolve() != Path(args.resume).resolve():
        raise SystemExit("regle: --resume adds the missing games to the file it resumes; leave out --out")
    rules_path = str(Path(args.file).resolve())  # workers load the same cached engine
    game = _load(rules_path, args)
    n = _players(game, args.players)
    agents = _agent_specs(args.agents)
    if args.games < 1:
        raise SystemExit("regle: -n must be at least 1")
    out_path = args.resume or args.out
    before: list[dict] = []
    if args.resume:
        before = _resumed(args, n, agents)
    try:  # a bad path is said before playing; a resumed file is added to, never emptied
        out = open(out_path, "a" if args.resume else "w", encoding="utf-8") if out_path else None
    except OSError as exc:
        raise SystemExit(f"regle: cannot write {out_path}: {exc.strerror or exc}") from None
    progress = None if args.json else sim.progress_bar(sys.stderr)
    executor = client = cluster = None
    if args.scheduler:
        client, cluster = sim.dask_executor(args.scheduler, args.jobs)
        executor = client.get_executor()
    title = f"{game.title}: {args.games} games, seeds {args.seed}..{args.seed + args.games - 1}"
    if before:
        title += f" ({len(before)} resumed from {args.resume})"

    def save(found: list[dict]) -> None:  # each game as it ends: a stop or a kill loses none
        if out is not None:
            try:
                out.write("".join(json.dumps(r) + "\n" for r in found))
                out.flush()
            except OSError as exc:
                raise _SaveFailed(exc) from None

    try:
        # the batches load the game themselves: with auto, a native engine built in the
        # background meanwhile takes over from the next batch (the same games either way)
        records, seconds = sim.simulate(rules_path, args.games, n, agents, seed=args.seed,
                                        jobs=max(1, args.jobs), rotate=not args.fixed_seats, progress=progress,
                                        executor=executor, check=args.check, backend=args.backend,
                                        on_records=save, done={r["seed"] - args.seed for r in before})
    except (sim.Interrupted, sim.WorkerDied, _SaveFailed) as stop:
        if out is not None:
            try:
                out.close()
            except OSError:
                pass
        if progress:
            print(file=sys.stderr)
        played = before + getattr(stop, "records", [])
        kept = (f" (every one saved in {out_path}; go on with: {_resume_command(args, out_path)})"
                if out_path else " (run with --out FILE to keep the games, and --resume FILE to go on)")
        if isinstance(stop, _SaveFailed):
            print(f"regle: cannot write {out_path}: {stop.reason}; the games before it are in the file "
                  f"(free some space, then go on with: {_resume_command(args, out_path)})", file=sys.stderr)
            return _stopped(1)
        if isinstance(stop, sim.WorkerDied):
            print(f"regle: {stop}; stopped after {len(played)} of {args.games} games" + kept, file=sys.stderr)
            return _stopped(1)
        print(f"regle: interrupted after {len(played)} of {args.games} games" + kept, file=sys.stderr)
        if played:
            summary = sim.summarise(sorted(played, key=lambda r: r["seed"]), stop.seconds)
            summary["backend"] = game.backend
            summary["interrupted"] = True
            _print_summary(summary, args.json, title=f"{game.title}: {len(played)} of {args.games} games "
                                                      "(interrupted)")
        return _stopped(130)
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    records = sorted(before + records, key=lambda r: r["seed"])
    if out is not None:  # finished: the lines again in seed order, the same file at any --jobs
        out.close()
        _write_sorted(out_path, records)
    summary = sim.summarise(records, seconds)
    if before:  # the speed of what this run played
        played = sum(r["decisions"] for r in records) - sum(r["decisions"] for r in before)
        summary["decisions_per_second"] = played / seconds if seconds > 0 else 0.0
    last = regle.load(rules_path, backend=args.backend).backend
    summary["backend"] = game.backend if last == game.backend else f"{game.backend}, then {last}"
    _print_summary(summary, args.json, title=title)
    return 0


def _stopped(status: int) -> int:
    """End a run stopped early at once, everything said and saved: a process pool whose
    workers were killed may keep its manager thread waiting at the interpreter's exit."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


class _SaveFailed(Exception):
    """A game's line could not be written to --out (a full disk, a removed folder)."""

    def __init__(self, exc: OSError):
        super().__init__(exc)
        self.reason = exc.strerror or str(exc)


def _write_sorted(path: str, records: list[dict]) -> None:
    """Write the games in seed order through a file beside ``path`` that replaces it in one
    step: at any instant, a kill or Ctrl-C leaves either the file as played or as sorted."""
    target = Path(path)
    temporary = target.with_name(f".{target.name}.sorting")
    try:
        with open(temporary, "w", encoding="utf-8") as sorted_out:
            sorted_out.write("".join(json.dumps(r) + "\n" for r in records))
            sorted_out.flush()
            os.fsync(sorted_out.fileno())
        os.replace(temporary, target)
    except OSError as exc:  # the games are all in the file, in the order they ended
        temporary.unlink(missing_ok=True)
        print(f"regle: {path} keeps the games in the order they ended (sorting them failed: "
              f"{exc.strerror or exc})", file=sys.stderr)


def _resumed(args, players: int, agents: list[str]) -> list[dict]:
    """The games of the file to resume, checked against this run's options; a last line cut
    short is taken off the file (its game is played again)."""
    from regle import simulate as sim
    cut: list[str] = []
    try:
        records = list(sim.read_jsonl(args.resume, cut))
    except ValueError as exc:
        raise SystemExit(f"regle: {exc}") from None
    if cut:
        data = Path(args.resume).read_bytes()
        with open(args.resume, "r+b") as f:
            f.truncate(data.rfind(b"\n") + 1)
        print(f"regle: {cut[0]}; that game is played again", file=sys.stderr)
    seen: set[int] = set()
    for r in records:
        i = r.get("seed", None)
        if not isinstance(i, int) or not args.seed <= i < args.seed + args.games:
            raise SystemExit(f"regle: {args.resume} holds a game of seed {i}, outside this run's seeds "
                             f"{args.seed}..{args.seed + args.games - 1}: resume with the options of the first run")
        expected = sim.seats_for(i - args.seed, agents, players, not args.fixed_seats)
        if r["players"] != players or r["agents"] != expected:
            raise SystemExit(f"regle: {args.resume}: the game of seed {i} was played by {', '.join(r['agents'])}, "
                             f"not {', '.join(expected)}: resume with the options of the first run")
        if i in seen:
            raise SystemExit(f"regle: {args.resume} holds the game of seed {i} twice")
        seen.add(i)
    return records


def _resume_command(args, path: str) -> str:
    """The command that plays the games a stopped run is missing."""
    import shlex
    words = ["regle", "simulate", getattr(args, "given", {}).get(args.file, args.file), "-n", str(args.games), "--seed", str(args.seed),
             "--agents", args.agents]
    if args.players:
        words += ["--players", str(args.players)]
    if args.jobs and args.jobs > 1:
        words += ["--jobs", str(args.jobs)]
    if args.fixed_seats:
        words.append("--fixed-seats")
    if args.check:
        words.append("--check")
    if args.backend:
        words += ["--backend", args.backend]
    words += ["--resume", path]
    return " ".join(shlex.quote(w) for w in words)


def _agent_specs(text: str) -> list[str]:
    """The agents of --agents, each one tried once so that a bad option is said up front."""
    from regle.runtime.agents import make_agent, split_specs
    agents = split_specs(text)
    if not agents:
        raise SystemExit("regle: --agents names no agent (e.g. --agents random or --agents mcts,greedy)")
    for spec in set(agents):
        try:
            make_agent(spec, 0)
        except (ValueError, TypeError) as exc:
            raise SystemExit(f"regle: {exc}")
    return agents


def _print_summary(summary: dict, as_json: bool, title: str) -> None:
    if as_json:
        print(json.dumps(summary, indent=None, sort_keys=True))
        return
    from regle.display import style_for
    st = style_for(sys.stdout)
    print(st.bold(title))
    print(f"  agents        {', '.join(summary['agents'])}")
    if "backend" in summary:
        print(f"  engine        {summary['backend']}" + (" (compiled by Cython)" if summary["backend"].endswith("native") else ""))
    print(f"  decisions     mean {summary['mean_decisions']:.1f}, median {summary['median_decisions']}")
    if "decisions_per_second" in summary:
        print(f"  speed         {summary['decisions_per_second']:,.0f} decisions/s "
              f"({summary['games'] / summary['seconds']:,.1f} games/s)")
    print(f"  draws         {summary['draws']} ({summary['draw_rate']:.1%})")
    if summary.get("shared_wins"):
        print(f"  shared wins   {summary['shared_wins']} games had several winners (a tie the rules share): "
              "each counts as a win for every winner, so the win rates add up to more than 100%")
    print("  seat    wins    win rate   95% interval       mean score  (sd)")
    for p in range(summary["players"]):
        lo, hi = summary["win_rate_ci95"][p]
        print(f"  P{p + 1:<5} {summary['wins'][p]:>5}    {summary['win_rate'][p]:>7.1%}   "
              f"[{lo:.1%}, {hi:.1%}]".ljust(52) + f"{summary['mean_scores'][p]:>8.2f}  ({summary['score_stdev'][p]:.2f})")
    if len(summary["agent_wins"]) > 1:
        print("  agent          games   win rate   95% interval")
        for spec, a in summary["agent_wins"].items():
            lo, hi = a["win_rate_ci95"]
            print(f"  {spec:<14} {a['games']:>5}   {a['win_rate']:>7.1%}   [{lo:.1%}, {hi:.1%}]")


# ---- rules ----------------------------------------------------------------------------------
def cmd_rules(args) -> int:
    from regle.rulebook import rulebook
    regle.check_file(args.file)  # the rulebook of rules that do not check would mislead
    text = rulebook(args.file, args.format)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


# ---- diff -----------------------------------------------------------------------------------
def _resolved(path: str):
    from regle.dsl.files import read_source
    from regle.dsl.parser import parse
    from regle.dsl.variants import resolve
    source = read_source(path)
    rules, _ = resolve(parse(source.text, path), source)
    regle.check_file(path)  # a diff of rules that do not check would mislead
    return rules


def cmd_diff(args) -> int:
    from regle.dsl.differ import diff
    try:
        old, new = _resolved(args.old), _resolved(args.new)
    except RulesError as err:
        print(err.render(), file=sys.stderr)
        return 2
    changes = diff(old, new)
    result: dict = {"old": args.old, "new": args.new, "same": not changes,
                    "changes": [c.to_json() for c in changes]}
    if args.simulate:
        from regle import simulate as sim
        from regle.stats import compare
        agents = _agent_specs(args.agents)
        summaries = []
        for path in (args.old, args.new):
            rules_path = str(Path(path).resolve())  # workers load the same cached engine
            game = _load(rules_path, args)
            n = _players(game, args.players)
            progress = None if args.json else sim.progress_bar(sys.stderr)
            records, seconds = sim.simulate(rules_path, args.simulate, n, agents, seed=args.seed,
                                            jobs=max(1, args.jobs), progress=progress, backend=game.backend)
            summaries.append((records, sim.summarise(records, seconds)))
        result["simulation"] = compare(summaries[0], summaries[1])
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        from regle.display import style_for
        st = style_for(sys.stdout)
        if not changes:
            print(f"{args.old} and {args.new}: the same rules")
        else:
            print(st.bold(f"{len(changes)} change{'s' if len(changes) != 1 else ''} from {args.old} to {args.new}"))
            for c in changes:
                print("  " + str(c))
        if args.simulate:
            _print_comparison(result["simulation"], args, st)
    return 0 if not changes else 1


def _print_comparison(cmp: dict, args, st) -> None:
    print()
    print(st.bold(f"{args.simulate} games each, seeds {args.seed}..{args.seed + args.simulate - 1}, "
                  f"agents {args.agents}   (* = significant at 5%)"))
    print(f"  {'':<22}{'old':<28}{'new':<28}")
    for row in cmp["rows"]:
        mark = st.accent(" *") if row["significant"] else ""
        print(f"  {row['label']:<22}{row['old']:<28}{row['new']:<28}{mark}")


# ---- cache ----------------------------------------------------------------------------------
def cmd_cache(args) -> int:
    from regle.dsl.parser import cache_dir
    root = cache_dir()
    if args.clear:
        count = regle.clear_cache()
        print(f"removed {count} cached files from {root}")
        kept = getattr(count, "kept", [])
        if kept:
            reasons = sorted({why for _path, why in kept})
            print(f"regle: {len(kept)} cached files could not be removed ({'; '.join(reasons)}), for example "
                  f"{kept[0][0]}", file=sys.stderr)
            return 1
        return 0
    from regle.loader import cached_files
    files = cached_files()
    size = sum(p.stat().st_size for p in files)
    print(f"{root}: {len(files)} files, {size / 1024:.0f} KiB (clear with: regle cache --clear)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
