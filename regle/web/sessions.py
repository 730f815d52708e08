"""The games of one ``regle serve``: who sits where, who may act as which seat, and agents that
play on a worker thread of their own, never inside a request.

Seats belong to people: each human seat of a game gets a secret token when the game is made
(the creator's page keeps its own and shows the others as links to hand out). A request acts
and sees as a seat only with that seat's token; without one it is a spectator, who sees what
is public. Every state has a version (the moves played): a move names the version it was chosen
on, and a stale one is refused.

Bounds (documented in docs/web.md): ``MAX_GAMES`` games, of which ``MAX_AGENT_GAMES`` with
agents still playing; an agent thinks at most ``MAX_THINK`` seconds a decision; one worker
thread plays every agent of the server, one decision at a time, game after game.
"""
from __future__ import annotations

import html
import secrets
import threading
import time
from http import HTTPStatus
from typing import Any

from regle.runtime.agents import agent_seed, make_agent, parse_spec
from regle.runtime.engine import Game, IllegalMove
from regle.runtime.ops import line_head

from .guard import Refused
from .highlight import deciding_cells
from .render import seat_colour, seat_name, table_html

MAX_GAMES = 500
MAX_AGENT_GAMES = 100
MAX_THINK = 5.0  # seconds of one agent decision, whatever its options say
IDLE_KEPT = 3600.0  # a game with a move in the last hour is never dropped for a new one
AGENT_PACE = 0.5  # seconds between two agent moves when only agents play (people watch)
MAX_WAITERS = 64  # requests waiting at once for a game to change (long polls)


class Session:
    """One game on the server: its state, its seats and their tokens, and what happened last."""

    def __init__(self, game: Game, players: int, seats: list[str], seed: int, state=None):
        self.game = game
        self.seats = seats
        self.seed = seed
        self.state = state if state is not None else game.new_game(players, seed=seed)
        self.agents = {}
        for p, spec in enumerate(seats):
            if spec != "human":
                agent = make_agent(spec, agent_seed(seed, p))
                if hasattr(agent, "cap"):
                    agent.cap = MAX_THINK
                self.agents[p] = agent
        self.tokens = {p: secrets.token_urlsafe(18) for p in range(len(seats)) if p not in self.agents}
        self.id = ""
        self.log: list[str] = []  # notations of the moves played, with their seat
        #: per move of the log: what the other seats see of it (a secret action's text), or None
        self.secrets: list[tuple[int, str] | None] = []
        self.states = [self.state.copy()]  # the state after each move: history and undo
        self.lasts: list[dict | None] = [None]  # the move that led to each of them
        self.last: dict | None = None
        self.version = 0
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)
        self.created = self.touched = time.monotonic()
        self.moved_at: float | None = None
        self.paused = False
        self.steps = 0  # single agent decisions asked for while paused
        self.pace = AGENT_PACE if not self.tokens else 0.0
        self.due = 0.0  # when the next agent move may be played
        self.closed = False
        self.next: dict[int | None, dict] = {}  # seat (None: spectators) -> the game played next
        self.takeback: dict | None = None  # a seat's request to take its last move back

    # -- who is asking ------------------------------------------------------------------------
    def seat_of(self, token: str | None) -> int | None:
        """The seat whose token this is (None: a spectator)."""
        if not token:
            return None
        for seat, own in self.tokens.items():
            if secrets.compare_digest(own.encode(), token.encode("utf-8", "replace")):
                return seat
        raise Refused(HTTPStatus.FORBIDDEN, "this link's seat token is not one of this game's")

    @property
    def agents_only(self) -> bool:
        return not self.tokens

    # -- playing ------------------------------------------------------------------------------
    def apply(self, move, seat: int) -> None:
        """Play ``move`` for ``seat`` (the lock held) and tell whoever waits."""
        before = self.state.view(None)
        text = self.state.notation(move)
        secret = self.state.MOVE(move).hidden_from(None, seat) if not isinstance(move, str) else None
        self.state.play(move)
        self.log.append(f"P{seat + 1}: {text}")
        self.secrets.append(None if secret is None else (seat, secret))
        after = self.state.view(None)
        self.last = {"seat": seat, "text": text, "cells": _changed_cells(self.game, before, after),
                     "motion": _motion(self.game, before, after)}
        self.states.append(self.state.copy())
        self.lasts.append(self.last)
        self.takeback = None  # a move answers any request to take one back
        self.version += 1
        self.moved_at = self.touched = time.monotonic()
        self.due = self.moved_at + self.pace
        self.changed.notify_all()

    def undo(self, seat: int) -> None:
        """Take the game back to ``seat``'s last decision (the lock held). Against agents it
        happens at once; where other people play, it is a request they accept or decline."""
        if not self._moves_of(seat):
            raise Refused(HTTPStatus.CONFLICT, "you have no move to take back")
        if self.state.is_over:
            raise Refused(HTTPStatus.CONFLICT, "the game is over: start a new one (its moves stay in the history)")
        if any(p not in self.agents for p in range(len(self.seats)) if p != seat):
            self.takeback = {"by": seat}
            self._changed()
            return
        self._take_back(seat)

    def answer_takeback(self, seat: int, accept: bool) -> None:
        """Another player's answer to a take-back request (the lock held)."""
        if self.takeback is None:
            raise Refused(HTTPStatus.CONFLICT, "nobody asked to take a move back")
        by = self.takeback["by"]
        if seat == by:
            raise Refused(HTTPStatus.CONFLICT, "the other players answer your request, not you")
        self.takeback = None
        if accept:
            self._take_back(by)
        else:
            self._changed()

    def _moves_of(self, seat: int) -> list[int]:
        return [i for i, line in enumerate(self.log) if line.startswith(f"P{seat + 1}: ")]

    def _changed(self) -> None:
        self.version += 1
        self.touched = time.monotonic()
        self.changed.notify_all()

    def _take_back(self, seat: int) -> None:
        keep = self._moves_of(seat)[-1]
        self.state = self.states[keep].copy()
        del self.log[keep:], self.secrets[keep:], self.states[keep + 1:], self.lasts[keep + 1:]
        self.last = self.lasts[keep]
        self._changed()

    def can_undo(self, seat: int | None) -> bool:
        return (seat is not None and seat not in self.agents and self.takeback is None and not self.state.is_over
                and bool(self._moves_of(seat)))

    def recent(self) -> list[dict]:
        """The cells each seat's latest move changed (the last turn of every seat, outlined)."""
        out, seen = [], set()
        for last in reversed(self.lasts):
            if last is not None and last["seat"] not in seen:
                seen.add(last["seat"])
                out.append({"seat": last["seat"], "cells": last["cells"]})
            if len(seen) == len(self.seats):
                break
        return out

    def agent_to_play(self) -> bool:
        return not self.closed and not self.state.is_over and self.state.current_player in self.agents

    def close(self) -> None:
        with self.lock:
            self.closed = True
            self.changed.notify_all()

    # -- what a seat sees ---------------------------------------------------------------------
    def payload(self, viewer: int | None, at: int | None = None) -> dict[str, Any]:
        """The game as ``viewer`` sees it; ``at``: as it was after that many moves (history)."""
        if at is not None:
            if not 0 <= at <= len(self.log):
                raise Refused(HTTPStatus.BAD_REQUEST, f"'at' is a move number from 0 to {len(self.log)}")
            if at < len(self.log):
                return self._past(viewer, at)
        state = self.state
        current = state.current_player
        data = self._drawn(state, viewer, len(self.log), self.last)
        data.update({
            "over": state.is_over, "winners": state.winners if state.is_over else [],
            "can_undo": self.can_undo(viewer), "takeback": self.takeback, "recent": self.recent(),
            "step": state.step_name if not state.is_over else None, "agent_to_play": self.agent_to_play(),
            "next": self.next.get(viewer) or (self.next.get(None) if viewer is None else None),
        })
        if viewer is not None and not state.is_over and current == viewer:
            data["moves"] = _moves(self.game, state, viewer)
        if state.is_over:  # everything is public at the end: the scores and what made them
            data["result"] = {"scores": state.scores,
                              "parts": [[list(part) for part in state._score_parts(p)] for p in range(state.n)],
                              "cells": deciding_cells(self.game, state), "tie_break": tie_break(self.game, state)}
        return data

    def _past(self, viewer: int | None, at: int) -> dict[str, Any]:
        """A position of the game's history, as ``viewer`` sees it (seen as it was then: no
        secret that was hidden then is shown); nothing can be played on it."""
        data = self._drawn(self.states[at], viewer, at, self.lasts[at])
        data.update({"over": self.state.is_over, "winners": [], "can_undo": False, "takeback": None,
                     "recent": [], "step": None, "agent_to_play": False, "next": None, "past": True})
        return data

    def _drawn(self, state, viewer: int | None, at: int, last: dict | None) -> dict[str, Any]:
        """What every page of the game shows of ``state``, the position after ``at`` moves."""
        return {"id": self.id, "version": self.version, "title": self.game.title, "turn": state.turns + 1,
                "current": state.current_player, "viewer": viewer,
                "seats": [{"seat": p, "name": seat_name(self.game, p), "kind": s,
                           "colour": seat_colour(self.game.namespace, p)} for p, s in enumerate(self.seats)],
                "html": table_html(state, viewer), "last": self._seen_last(last, viewer),
                "log": self._seen_log(viewer), "at": at, "moves": [],
                "agents_only": self.agents_only, "paused": self.paused, "pace": self.pace,
                "notices": notices(self.game, state), **self._standing(state, viewer)}

    def _seen_log(self, viewer: int | None) -> list[str]:
        """The moves played as ``viewer`` sees them: another seat's secret move by its text."""
        return [line if hidden is None or hidden[0] == viewer else f"P{hidden[0] + 1}: {hidden[1]}"
                for line, hidden in zip(self.log, self.secrets)]

    def _seen_last(self, last: dict | None, viewer: int | None) -> dict | None:
        """The latest move as ``viewer`` sees it (a secret one of another seat by its text)."""
        k = next((i for i, kept in enumerate(self.lasts) if kept is last), 0) - 1  # lasts[k + 1]: log[k]'s
        hidden = self.secrets[k] if 0 <= k < len(self.secrets) else None
        if last is None or hidden is None or hidden[0] == viewer:
            return last
        return {**last, "text": hidden[1]}

    def _standing(self, state, viewer: int | None) -> dict[str, Any]:
        """What the rules announced (a round ending...), and the scores just after the latest
        announcement as ``viewer`` saw them then: the page's summary of it. Nothing for games
        that announce nothing."""
        said = state.announcements
        if not said:
            return {}
        at = said[-1][0]  # announced during move number at, so as it stood in states[at]
        then = self.states[at] if at < len(self.states) else state
        return {"announced": [[k, text] for k, text in said],
                "standing": {"at": at, "scores": then.scores_seen_by(viewer),
                             "parts": [[list(part) for part in parts] for parts in then.score_parts_seen_by(viewer)]}}


def _changed_cells(game: Game, before: dict, after: dict) -> list[list]:
    """[grid, instance, cell] of every cell whose drawn content changed (as a spectator sees)."""
    out = []
    for name, _attr, per, *_ in game.grids:
        a, b = before["zones"][name], after["zones"][name]
        if isinstance(a, dict) or isinstance(b, dict):
            continue
        places = list(zip(a, b)) if per else [(a, b)]
        for i, (x, y) in enumerate(places):
            if isinstance(x, dict) or isinstance(y, dict):
                continue
            out += [[name, i, c] for c, (u, v) in enumerate(zip(x, y)) if u != v]
    return out


def _motion(game: Game, before: dict, after: dict) -> list[list]:
    """How the page animates a move: [grid, instance, cell, how, from] for each cell that got a
    piece ("in", sliding from cell ``from`` when one piece alike left a cell of the same board,
    else arriving or, on a lane board, falling) or had its piece changed ("turn": a disc
    turned over, a card replaced)."""
    out = []
    for name, _attr, per, _hidden, _private, kind, shape, *_ in game.grids:
        a, b = before["zones"][name], after["zones"][name]
        if kind == "int" or isinstance(a, dict) or isinstance(b, dict):
            continue
        for i, (x, y) in enumerate(zip(a, b) if per else [(a, b)]):
            if isinstance(x, dict) or isinstance(y, dict):
                continue
            left = [c for c, (u, v) in enumerate(zip(x, y)) if u >= 0 and v < 0]
            came = [c for c, (u, v) in enumerate(zip(x, y)) if u < 0 and v >= 0]
            slide = len(left) == 1 and len(came) == 1 and x[left[0]] == y[came[0]]
            where = i if per else None
            for c in came:
                out.append([name, where, c, "in", left[0] if slide else None, shape == "lanes"])
            out += [[name, where, c, "turn", None, False] for c, (u, v) in enumerate(zip(x, y)) if u >= 0 and v >= 0 and u != v]
    return out


def _moves(game: Game, state, seat: int) -> list[dict]:
    """The legal moves of ``seat``: notation, id, what each argument points at (cells, values),
    and the cells it would change (on a copy re-dealt from seat's knowledge)."""
    kinds = game.namespace["Move"].KINDS
    names = game.namespace["Move"].NAMES
    texts = state.notations()
    try:
        ids = state.legal_action_ids()
    except ValueError:  # a game without action ids: moves are still played by notation
        ids = [None] * len(texts)
    seen = state.resample(seat, 0) if game.has_hidden_information else state
    before = seen.view(seat)
    out = []
    for move, text, move_id in zip(state.legal, texts, ids):
        cells, values = [], []
        args = []
        for value, kind in zip(move[1:], kinds[move[0]]):
            if kind.startswith("list:"):  # a subset: each of its values points as one argument would
                args += [(v, kind[5:]) for v in value]
            else:
                args.append((value, kind))
        for value, kind in args:
            if kind.startswith("cell:"):
                cells.append([kind[5:], None, value])
            elif kind.startswith("linemove:"):  # a line of pieces pushed: it starts at its head
                cells.append([kind[9:], None, line_head(value)])
            else:
                values.append([kind, value])
        try:
            after = seen.copy().advance(move).view(seat)
            preview = _changed_cells(game, before, after)
        except Exception:  # noqa: BLE001 - a preview is a courtesy; the move itself is checked when played
            preview = []
        out.append({"text": text, "id": move_id, "action": names[move[0]], "cells": cells, "values": values,
                    "preview": preview})
    return out


def notices(game: Game, state) -> list[dict[str, Any]]:
    """The rules' notices that hold in ``state`` (``notice "check" when ...``): their words and
    the cells they outline. A notice reads only what every seat sees (the compiler refuses
    others), so every page may show it."""
    table = game.namespace.get("NOTICES", ())
    return [{"text": table[k][0], "cells": [[table[k][1], None, c] for c in cells]}
            for k, cells in state.notices()]


def tie_break(game: Game, state) -> str | None:
    """What decided a finished game the first of the winner's ranks left tied (several seats at
    the top score, fewer winners), as the rules write it: "most banked", "a tie goes to white"."""
    scores, winners = state.scores, state.winners
    top = max(scores, default=0)
    if not winners or scores.count(top) <= len(winners):
        return None
    ns = game.namespace
    later = list(ns.get("WINNER_RANKS") or [])[1:]
    ties = ns.get("TIES")
    if later:
        return ", then ".join(later)
    if isinstance(ties, int) and not isinstance(ties, bool):
        seats = ns.get("SEATS") or []
        return f"a tie goes to {seats[ties] if ties < len(seats) else f'P{ties + 1}'}"
    return None


def check_agent(spec: str) -> None:
    """Refuse an agent that would think longer than a server lets one decision take."""
    name, options = parse_spec(spec)
    budget = options.get("time")
    if budget is not None:
        try:
            seconds = float(budget)
        except ValueError:
            return  # make_agent says what is wrong with it
        if seconds > MAX_THINK:
            raise Refused(HTTPStatus.BAD_REQUEST, f"agent {spec!r}: on this server an agent thinks at most "
                                                  f"{MAX_THINK:g} s a decision (time={MAX_THINK:g})")


class Hub:
    """The games of one server and the worker that plays their agents."""

    def __init__(self, game: Game, seats: list[str] | None = None, players: int | None = None):
        self.game = game
        self.players = players or game.players.start
        self.seats = seats or ["human"] + ["random"] * (self.players - 1)
        self.sessions: dict[str, Session] = {}
        self.lock = threading.Lock()
        self.work = threading.Condition(self.lock)
        self.waiters = 0
        self.max_games = MAX_GAMES
        self.max_agent_games = MAX_AGENT_GAMES
        self.stopped = False
        self._rulebook: str | None = None
        self.worker = threading.Thread(target=self._play_agents, name="regle-agents", daemon=True)
        self.worker.start()

    def rulebook(self) -> str:
        """The HTML rulebook of the rules served (made once)."""
        if self._rulebook is None:
            from regle.rulebook import rulebook
            try:
                self._rulebook = rulebook(self.game.rules_file, "html")
            except Exception as exc:  # noqa: BLE001 - a rules text with no file (loads): no rulebook
                self._rulebook = f"<!doctype html><title>No rulebook</title><p>No rulebook: {html.escape(str(exc))}</p>"
        return self._rulebook

    def info(self) -> dict:
        g = self.game
        return {"title": g.title, "name": g.name, "players": [g.players.start, g.players.stop - 1],
                "default_players": self.players, "default_seats": self.seats,
                "limits": {"games": self.max_games, "agent_games": self.max_agent_games,
                           "agent_seconds": MAX_THINK}}

    # -- making games -------------------------------------------------------------------------
    def create(self, body: dict) -> Session:
        players = _int(body.get("players", self.players), "players")
        if players not in self.game.players:
            raise Refused(HTTPStatus.BAD_REQUEST, f"{self.game.title} is for {self.game.players.start} to "
                                                  f"{self.game.players.stop - 1} players, not {players}")
        seats = body.get("seats") or (self.seats if players == self.players else ["human"] * players)
        if not isinstance(seats, list) or len(seats) != players or not all(isinstance(s, str) for s in seats):
            raise Refused(HTTPStatus.BAD_REQUEST, f"'seats' must list {players} seats (human or an agent)")
        seed = _int(body.get("seed", secrets.randbelow(1 << 30)), "seed")
        return self._keep(self._session(players, seats, seed))

    def _session(self, players: int, seats: list[str], seed: int, state=None) -> Session:
        for spec in seats:
            if spec != "human":
                check_agent(spec)
        try:
            return Session(self.game, players, seats, seed, state)
        except (ValueError, TypeError) as exc:  # an unknown agent or a bad option
            raise Refused(HTTPStatus.BAD_REQUEST, str(exc)) from None

    def again(self, session: Session) -> Session:
        """A new game with the same seats; every seat's page of the old one is pointed at it
        (each with its own new token)."""
        fresh = self._keep(self._session(len(session.seats), list(session.seats), secrets.randbelow(1 << 30)))
        with session.lock:
            for seat in range(len(session.seats)):
                token = fresh.tokens.get(seat)
                session.next[seat] = {"id": fresh.id, "token": token}
            session.next[None] = {"id": fresh.id, "token": None}
            session.changed.notify_all()
        return fresh

    def replay(self, body: dict) -> Session:
        if "record" in body:
            record = body["record"]
            if not isinstance(record, dict):
                raise Refused(HTTPStatus.BAD_REQUEST, "'record' is one line of `regle simulate --out`")
            players = _int(record.get("players"), "players")
            agents = record.get("agents")
            if not isinstance(agents, list) or len(agents) != players:
                raise Refused(HTTPStatus.BAD_REQUEST, "the record names no agents for its seats")
            session = self._session(players, [str(a) for a in agents], _int(record.get("seed"), "seed"))
            session.paused = True  # the page steps through it: the same agents, the same seed
            return self._keep(session)
        if "state" in body:
            try:
                state = self.game.state_from_json(body["state"])
            except Exception as exc:  # noqa: BLE001 - a saved state that does not fit
                raise Refused(HTTPStatus.BAD_REQUEST, f"not a saved state of this game: {exc}") from None
            seats = body.get("seats") or ["human"] * state.n
            if not isinstance(seats, list) or len(seats) != state.n or not all(isinstance(s, str) for s in seats):
                raise Refused(HTTPStatus.BAD_REQUEST, f"'seats' must list {state.n} seats (human or an agent)")
            return self._keep(self._session(state.n, seats, state.seed, state))
        raise Refused(HTTPStatus.BAD_REQUEST, "give a 'record' (from simulate --out) or a 'state' (to_json)")

    def _keep(self, session: Session) -> Session:
        """Add a game, within the bounds: when full, the oldest game nobody has moved in goes
        first, then one idle for an hour; a game moved in the last hour is never dropped."""
        with self.lock:
            if session.agents and not session.state.is_over:
                playing = sum(1 for s in self.sessions.values() if s.agents and not s.state.is_over
                              and time.monotonic() - s.touched < IDLE_KEPT)
                if playing >= self.max_agent_games:
                    raise Refused(HTTPStatus.SERVICE_UNAVAILABLE,
                                  f"{playing} games with agents are under way on this server (the limit); "
                                  "finish or leave one first")
            if len(self.sessions) >= self.max_games:
                victim = self._droppable()
                if victim is None:
                    raise Refused(HTTPStatus.SERVICE_UNAVAILABLE,
                                  f"this server holds {len(self.sessions)} games, each moved in the last hour "
                                  "(the limit); try again later")
                self.sessions.pop(victim.id).close()
            sid = secrets.token_hex(8)
            session.id = sid
            self.sessions[sid] = session
            self.work.notify_all()
        return session

    def _droppable(self) -> Session | None:
        now = time.monotonic()
        unmoved = [s for s in self.sessions.values() if s.moved_at is None]
        if unmoved:
            return min(unmoved, key=lambda s: s.touched)
        idle = [s for s in self.sessions.values() if now - s.touched >= IDLE_KEPT]
        return min(idle, key=lambda s: s.touched) if idle else None

    def get(self, sid: str) -> Session:
        session = self.sessions.get(sid)
        if session is None:
            raise Refused(HTTPStatus.NOT_FOUND, f"no game {sid!r} on this server (games nobody moved in may "
                                                "be dropped when the server is full)")
        return session

    # -- acting -------------------------------------------------------------------------------
    def play(self, session: Session, seat: int | None, body: dict) -> None:
        """A person's move (the session's lock held): from the seat whose token came with it,
        on the version of the game it was chosen on."""
        move = body.get("move")
        version = body.get("version")
        state = session.state
        if seat is None:
            raise Refused(HTTPStatus.FORBIDDEN, "a spectator cannot play: open the seat's own link to play")
        if isinstance(version, bool) or not isinstance(version, int):
            raise Refused(HTTPStatus.BAD_REQUEST, "'version' must say which version of the game the move was "
                                                  "chosen on (the 'version' of the page)")
        if version != session.version:
            raise Refused(HTTPStatus.CONFLICT, "the game has moved on since this move was chosen; look again")
        if state.is_over:
            raise Refused(HTTPStatus.CONFLICT, "the game is over")
        if seat != state.current_player:
            raise Refused(HTTPStatus.CONFLICT, f"it is P{state.current_player + 1}'s turn, not yours (P{seat + 1})")
        try:
            if isinstance(move, int) and not isinstance(move, bool):
                chosen = state._move_of_id(move)
            elif isinstance(move, str):
                chosen = state.move_from_text(move)
            else:
                raise Refused(HTTPStatus.BAD_REQUEST, "'move' is a notation (text) or an action id (number)")
        except (IllegalMove, ValueError) as exc:
            raise Refused(HTTPStatus.UNPROCESSABLE_ENTITY, str(exc)) from None
        session.apply(chosen, seat)
        with self.lock:
            self.work.notify_all()

    def control(self, session: Session, seat: int | None, body: dict) -> None:
        """Pause, resume, step or pace the agents of a game: its seats may, and anyone may in a
        game of agents only."""
        if seat is None and not session.agents_only:
            raise Refused(HTTPStatus.FORBIDDEN, "only the game's players control its agents")
        if "paused" in body:
            if not isinstance(body["paused"], bool):
                raise Refused(HTTPStatus.BAD_REQUEST, "'paused' is true or false")
            session.paused = body["paused"]
        if "pace" in body:
            pace = body["pace"]
            if isinstance(pace, bool) or not isinstance(pace, (int, float)) or not 0 <= pace <= 10:
                raise Refused(HTTPStatus.BAD_REQUEST, "'pace' is 0 to 10 seconds between agent moves")
            session.pace = float(pace)
        if body.get("step") is True:
            session.steps += 1
        with self.lock:
            self.work.notify_all()

    def wait(self, session: Session, after: int, seconds: float = 20.0) -> None:
        """Hold a request until the game changes from version ``after`` (a long poll), within a
        bound on how many wait at once."""
        with self.lock:
            if self.waiters >= MAX_WAITERS:
                return
            self.waiters += 1
        try:
            with session.changed:
                end = time.monotonic() + seconds
                while session.version == after and not session.closed and not session.next:
                    left = end - time.monotonic()
                    if left <= 0:
                        break
                    session.changed.wait(left)
        finally:
            with self.lock:
                self.waiters -= 1

    # -- the agents' worker -------------------------------------------------------------------
    def _ready(self, now: float) -> tuple[Session | None, float | None]:
        """The game whose agent should move now (the longest waiting), or when one will."""
        best, soonest = None, None
        for s in self.sessions.values():
            if not s.agent_to_play() or (s.paused and not s.steps):
                continue
            due = s.due if not s.steps else 0.0
            if due <= now:
                if best is None or due < best.due:
                    best = s
            elif soonest is None or due < soonest:
                soonest = due
        return best, soonest

    def _play_agents(self) -> None:
        while True:
            with self.lock:
                while True:
                    if self.stopped:
                        return
                    session, soonest = self._ready(time.monotonic())
                    if session is not None:
                        break
                    self.work.wait(None if soonest is None else max(0.0, soonest - time.monotonic()))
            self._one_decision(session)

    def _one_decision(self, session: Session) -> None:
        """One agent decision, thought on a copy without holding the game (people may look at
        it meanwhile), then played if the game is still where it was."""
        with session.lock:
            if not session.agent_to_play():
                return
            version, seat = session.version, session.state.current_player
            copy = session.state.copy()
            agent = session.agents[seat]
        try:
            move = agent.choose(copy)
        except Exception as exc:  # noqa: BLE001 - a rules error while an agent thinks: the game stops there
            with session.lock:
                session.paused = True
                session.last = {"seat": seat, "text": f"error: {exc}", "cells": []}
                session.version += 1
                session.changed.notify_all()
            return
        with session.lock:
            if session.closed or session.version != version:
                return
            if session.steps:
                session.steps -= 1
            try:
                session.apply(move, seat)
            except Exception as exc:  # noqa: BLE001 - reported on the page, the server goes on
                session.paused = True
                session.last = {"seat": seat, "text": f"error: {exc}", "cells": []}
                session.version += 1
                session.changed.notify_all()

    def stop(self) -> None:
        with self.lock:
            self.stopped = True
            for s in self.sessions.values():
                s.closed = True
            self.work.notify_all()


def _int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Refused(HTTPStatus.BAD_REQUEST, f"'{name}' must be a whole number")
    return value
