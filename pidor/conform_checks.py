"""The conformance kit's checks: each reads the records of its scenarios
(:class:`~pidor.conform_relay.Record`: every frame the bot sent and got, with times) and
passes, or fails naming the frame that went wrong. PROTOCOL.md is the rule book; the
sections are cited where a check enforces one of its rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .client import PROTOCOL_VERSION
from .conform_relay import UNKNOWN_EVENT, UNKNOWN_PUSH, Frame, Record
from .match.launch import telling_line

__all__ = ["CHECKS", "Result", "run_checks"]


@dataclass
class Result:
    name: str
    passed: bool
    detail: str
    scenario: str | None = None
    frame: Frame | None = None

    def to_dict(self) -> dict:
        frame = None if self.frame is None else {"dir": self.frame.dir, "message": self.frame.msg,
                                                 "note": self.frame.note}
        return {"check": self.name, "passed": self.passed, "detail": self.detail, "scenario": self.scenario,
                "frame": frame}


class Failure(Exception):
    def __init__(self, detail: str, record: Record | None = None, frame: Frame | None = None) -> None:
        super().__init__(detail)
        self.detail, self.record, self.frame = detail, record, frame


# --- reading a record -----------------------------------------------------------------------


def _type(frame: Frame) -> str | None:
    return None if frame.msg is None else frame.msg.get("type")


def _event(frame: Frame) -> dict:
    """The event of an ``event`` frame the bot got, else ``{}``."""
    if frame.dir == "s2c" and _type(frame) == "event" and isinstance(frame.msg.get("event"), dict):
        return frame.msg["event"]
    return {}


def _connections(record: Record) -> list[list[Frame]]:
    conns: dict[int, list[Frame]] = {}
    for f in record.frames:
        conns.setdefault(f.conn, []).append(f)
    return [conns[k] for k in sorted(conns)]


def _gone(record: Record) -> str:
    """Why the bot stopped, as a tail for a detail."""
    if record.trouble:
        return f" (the kit failed: {record.trouble})"
    last = telling_line(record.stderr)
    said = f"; its stderr: {last!r}" if last else ""
    if record.missed:
        return f" (the kit stopped the game there{said})"
    if record.exit is not None:
        return f" (it exited with status {record.exit}{said})"
    if record.timed_out:
        return f" (the game did not end in time{said})"
    return said and f" ({said[2:]})"


def _last_got(record: Record) -> Frame | None:
    return next((f for f in reversed(record.frames) if f.dir == "s2c"), None)


def _answers(frames: list[Frame], opens: str, owed: Callable[[dict], bool], answer: tuple[str, ...],
             ends: tuple[str, ...], record: Record, what: str) -> list[tuple[Frame, Frame]]:
    """Match the bot's answers (``answer`` requests) to what asks for them (``opens`` events,
    §5): each answer goes to the latest such event at or before its ``seq``; one owed is
    answered once, before it ends otherwise than by ``ends`` (the clock ran out); one not owed
    is never answered. Returns ``(event frame, answer frame)`` pairs."""
    asks: list[list] = []  # [seq, frame, owed, answers, ended by its clock]
    for f in frames:
        e = _event(f)
        if e.get("type") == opens:
            asks.append([f.msg.get("seq"), f, owed(e), [], False])
        elif e.get("type") in ends and asks:
            asks[-1][4] = asks[-1][4] or (e["type"] == ends[0] and not asks[-1][3])
        elif f.dir == "c2s" and _type(f) in answer:
            seq = f.msg.get("seq")
            if type(seq) is not int:
                raise Failure(f"a {_type(f)} without seq (§5: the state guard)", record, f)
            ask = next((a for a in reversed(asks) if type(a[0]) is int and a[0] <= seq), None)
            if ask is None or not ask[2]:
                raise Failure(f"a {_type(f)} for a {what} it did not owe", record, f)
            ask[3].append(f)
            if len(ask[3]) > 1:
                raise Failure(f"answered the {what} of seq {ask[0]} twice", record, f)
    for seq, f, is_owed, got, timed_out in asks:
        if is_owed and timed_out:
            raise Failure(f"never answered the {what} of seq {seq}: its clock ran out", record, f)
    return [(a[1], a[3][0]) for a in asks if a[3]]


# --- the checks -----------------------------------------------------------------------------


def check_handshake(records: list[Record], budget: float) -> str:
    for rec in records:
        frames = _connections(rec)[0] if rec.frames else []
        sent = [f for f in frames if f.dir == "c2s"]
        if not sent:
            raise Failure("the bot never sent a message" + _gone(rec), rec)
        hello = sent[0]
        if _type(hello) != "hello":
            raise Failure("its first message is not hello (§3)", rec, hello)
        if hello.msg.get("version") != PROTOCOL_VERSION:
            raise Failure(f"hello names version {hello.msg.get('version')!r}, not {PROTOCOL_VERSION!r}", rec, hello)
        if hello.msg.get("token") != rec.token:
            raise Failure("its hello has not the token it was given (PIDOR_TOKEN, or {token} in its command), "
                          "which seats it (§5, tables of pidor match)", rec, hello)
        got = next((f for f in frames if f.dir == "s2c"), None)
        if got is None or _type(got) != "welcome":
            raise Failure("the server did not welcome it", rec, got or hello)
        elsewhere = next((f for f in sent if _type(f) == "create" or _type(f) == "join"
                          and f.msg.get("table") != rec.table), None)
        if elsewhere is not None:
            raise Failure(f"sent {_type(elsewhere)} when its welcome named the table it is seated at (no join: "
                          "§5, tables of pidor match)", rec, elsewhere)
    return f"hello {PROTOCOL_VERSION} with the token it was given, in {len(records)} games"


def check_turns(records: list[Record], budget: float) -> str:
    acts = 0
    for rec in records:
        for frames in _connections(rec):
            turns: set = set()
            acted: set = set()  # seqs acted on, less those whose action was refused
            ids: dict = {}  # request id -> the seq of that action
            for f in frames:
                kind = _type(f)
                if f.dir == "s2c" and kind == "turn" and f.msg.get("seat") == rec.seat:
                    turns.add(f.msg.get("seq"))
                elif f.dir == "s2c" and kind == "error":  # a refused action is acted on again (§5)
                    rid = f.msg.get("id")
                    if rid is None:
                        acted.clear()  # (an action without id: which one is not known)
                    elif rid in ids:
                        acted.discard(ids.pop(rid))
                elif f.dir == "c2s" and kind == "act":
                    seq = f.msg.get("seq")
                    if type(seq) is not int:
                        raise Failure("an action without seq (§5: the state guard)", rec, f)
                    if seq not in turns:
                        raise Failure(f"acted on seq {seq}, where it was sent no turn", rec, f)
                    if seq in acted:
                        raise Failure(f"acted twice on the turn of seq {seq} (§5: once per seq)", rec, f)
                    acted.add(seq)
                    if f.msg.get("id") is not None:
                        ids[f.msg["id"]] = seq
                    acts += 1
    if not acts:
        raise Failure("the bot never acted" + _gone(records[0]), records[0], _last_got(records[0]))
    return f"{acts} actions, each on a turn it was sent, with its seq, once"


def check_rearm(records: list[Record], budget: float) -> str:
    waits: dict[str, float] = {}
    for rec in records:
        frames = rec.frames
        for i, f in enumerate(frames):
            if f.dir != "c2s" or f.note not in ("made stale", "made impossible"):
                continue
            k = next((j for j in range(i + 1, len(frames)) if frames[j].conn == f.conn
                      and frames[j].dir == "s2c" and _type(frames[j]) == "error"), None)
            if k is None:
                raise Failure(f"the kit {f.note} an action, but no error came back" + _gone(rec), rec, f)
            error = frames[k]
            code = error.msg.get("code")
            seq = f.msg.get("seq")  # (as the bot sent it: the turn's)
            again = next((g for g in frames[k + 1:] if g.conn == f.conn and g.dir == "c2s" and _type(g) == "act"
                          and g.msg.get("seq") == seq), None)
            if again is None:
                raise Failure(f"never acted again on the turn of seq {seq} after its action was refused ({code})"
                              + _gone(rec), rec, error)
            wait = again.t - error.t
            if wait > budget:
                raise Failure(f"acted again {wait:.2f} s after the refusal ({code}); the budget is {budget} s", rec, error)
            waits[code] = wait
    missing = {"stale", "impossible_action"} - waits.keys()
    if missing:
        rec = records[0]
        raise Failure(f"the game ended before the kit could refuse: {', '.join(sorted(missing))}" + _gone(rec),
                      rec, _last_got(rec))
    return ", ".join(f"acted again {w * 1000:.0f} ms after {code}" for code, w in sorted(waits.items()))


def check_windows(records: list[Record], budget: float) -> str:
    owed = passed = unseen = 0
    for rec in records:
        for frames in _connections(rec):
            if not rec.may_call:  # §3: the server passes for it; an answer of its own is refused
                if rec.windows:
                    passed += sum(1 for f in frames if _others_window(_event(f), rec.seat))
                else:  # (minor 2: it is sent no window events; the others' actions open them)
                    unseen += sum(1 for f in frames if _event(f).get("type") == "action"
                                  and _event(f).get("seat") != rec.seat)
                answer = next((f for f in frames if f.dir == "c2s" and _type(f) in ("call", "pass")), None)
                if answer is not None:
                    raise Failure("said hello with may_call false (the server passes for it), then answered "
                                  "a call window itself", rec, answer)
                continue
            owed += sum(1 for f in frames if _owes_window(_event(f), rec))
            _answers(frames, "window", lambda e: _owes_window(e, rec), ("call", "pass"),
                     ("window_closed", "call"), rec, "call window")
    if not owed + passed + unseen:
        raise Failure("no call window was owed: the games did not get far" + _gone(records[0]), records[0])
    said = f"{passed} passed for it by the server (hello may_call false)" if passed else ""
    blind = (f"{unseen} actions of other seats, no window event sent: the server passes for it "
             "(hello may_call and windows false)" if unseen else "")
    answered = f"{owed} call windows owed, each answered once, with its seq" if owed else ""
    return "; ".join(x for x in (answered, said, blind) if x)


def _others_window(e: dict, seat: int | None) -> bool:
    """``e`` opens a call window on an action of another seat than ``seat`` (its ``owing``
    never lists a seat whose hello said may_call false: the server passes for it, §3)."""
    return e.get("type") == "window" and e.get("seat") != seat


def _in_window(e: dict, seat: int | None) -> bool:
    """``e`` opens a call window ``seat`` is in (an action of another seat)."""
    return _others_window(e, seat) and seat in e.get("owing", ())


def _owes_window(e: dict, rec: Record) -> bool:
    """``e`` opens a call window the bot must answer (it did not say it never calls)."""
    return rec.may_call and _in_window(e, rec.seat)


def check_courts(records: list[Record], budget: float) -> str:
    owed = 0
    for rec in records:
        for frames in _connections(rec):
            owed += sum(1 for f in frames if _event(f).get("type") == "court" and rec.seat in _event(f)["voters"])
            for _, vote in _answers(frames, "court", lambda e: rec.seat in e.get("voters", ()), ("vote",),
                                    ("verdict",), rec, "court"):
                if type(vote.msg.get("guilty")) is not bool:
                    raise Failure("a vote whose guilty is not true or false", rec, vote)
    if not owed:
        raise Failure("the bot sat on no court: no cheat was called in its games" + _gone(records[0]), records[0])
    return f"voted once in each of {owed} courts"


def check_honest_only(records: list[Record], budget: float) -> str:
    rec = records[0]
    frames = rec.frames
    offer = next((i for i, f in enumerate(frames) if f.note == "offered a cheat"), None)
    if offer is None:
        raise Failure("the bot's game never reached a turn with a cheat to offer" + _gone(rec), rec, _last_got(rec))
    verdict = next((i for i, f in enumerate(frames) if _event(f).get("type") == "verdict"
                    and _event(f).get("accused") == rec.seat and _event(f).get("outcome") == "guilty"), None)
    if verdict is None:
        raise Failure("never convicted: it did not play the only option its turn offered (a cheat the kit "
                      "planted, then called)" + _gone(rec), rec, frames[offer])
    turn = next((f for f in frames[verdict:] if f.dir == "s2c" and _type(f) == "turn" and f.msg.get("seat") == rec.seat),
                None)
    acts = [(i, f) for i, f in enumerate(frames) if i > verdict and f.dir == "c2s" and _type(f) == "act"]
    if turn is None or not acts:
        raise Failure("never acted after its conviction" + _gone(rec), rec, turn or frames[verdict])
    for i, f in acts:
        reply = next((g for g in frames[i + 1:] if g.dir == "s2c" and _type(g) in ("error", "event")), None)
        if reply is not None and _type(reply) == "error" and reply.msg.get("code") == "must_play_honestly":
            raise Failure("cheated again right after its conviction (T6: must_play_honestly)", rec, f)
        if reply is not None and _type(reply) == "event":
            break  # its next action was accepted: honest by force
    return "convicted of the planted cheat, then played honestly"


def check_payment(records: list[Record], budget: float) -> str:
    paid = 0
    for rec in records:
        for frames in _connections(rec):
            for i, f in enumerate(frames):
                if not (f.dir == "s2c" and _type(f) == "turn" and f.msg.get("seat") == rec.seat):
                    continue
                options = f.msg.get("options") or []
                if not options or any(o.get("type") != "give" for o in options):
                    continue
                seq = f.msg.get("seq")
                act = next((g for g in frames[i + 1:] if g.dir == "c2s" and _type(g) == "act"
                            and g.msg.get("seq") == seq), None)
                if act is None:
                    if any(g.dir == "c2s" and _type(g) == "act" and g.msg.get("seq") == seq for g in frames[:i]):
                        continue  # a repeated turn of one it paid
                    raise Failure(f"never paid: a turn of seq {seq} asked for a card (give)", rec, f)
                action = act.msg.get("action")
                if not isinstance(action, dict) or action.get("type") != "give":
                    raise Failure("answered a payment with something else than give", rec, act)
                paid += 1
    if not paid:
        raise Failure("no payment was asked of the bot in its games", records[0])
    return f"paid {paid} times (give)"


def check_reconnect(records: list[Record], budget: float) -> str:
    rec = records[0]
    conns = _connections(rec)
    drop = next((f for f in rec.frames if f.dir == "drop"), None)
    if drop is None:
        raise Failure("the game ended before the kit closed the connection" + _gone(rec), rec, _last_got(rec))
    token = rec.token
    if len(conns) < 2:
        raise Failure("never came back after the kit closed its connection" + _gone(rec), rec, drop)
    again = conns[1]
    hello = next((f for f in again if f.dir == "c2s"), None)
    if hello is None or _type(hello) != "hello":
        raise Failure("came back without a hello", rec, hello or again[0])
    if hello.msg.get("token") != token:
        raise Failure("came back without its token (§9): a new player has no seat", rec, hello)
    if not any(f.dir == "c2s" and _type(f) == "act" for f in again):
        raise Failure("came back but never acted again" + _gone(rec), rec, _last_got(rec))
    if not rec.done:
        raise Failure("came back but did not play the game to its end" + _gone(rec), rec, _last_got(rec))
    return f"came back with its token {hello.t - drop.t:.2f} s after the drop and played on"


def check_games(records: list[Record], budget: float) -> str:
    stopped = []
    for rec in records:
        if not (rec.done or rec.missed) or not any(f.dir == "c2s" and _type(f) == "act" for f in rec.frames):
            raise Failure(f"did not play {rec.name} to its end" + _gone(rec), rec, _last_got(rec))
        if rec.missed:
            stopped.append(rec.name)
    played = "played " + ", ".join(r.name for r in records)
    return played + (f" (the kit stopped {', '.join(stopped)} at a miss other checks report)" if stopped else "")


def check_forward(records: list[Record], budget: float) -> str:
    rec = records[0]
    for f in rec.frames:
        if f.dir == "s2c" and _type(f) == "error" and f.msg.get("code") in ("bad_request", "unknown_type",
                                                                           "invalid_action"):
            raise Failure(f"sent a request the server refused ({f.msg.get('code')})", rec, f)
    if not rec.done:
        unknown = next((f for f in reversed(rec.frames) if f.note in ("unknown event type", "unknown message type")),
                       None)
        raise Failure("stopped playing among unknown fields and types" + _gone(rec), rec, unknown or _last_got(rec))
    events = sum(_event(f).get("type") == UNKNOWN_EVENT for f in rec.frames)
    pushes = sum(_type(f) == UNKNOWN_PUSH for f in rec.frames)
    return f"played on through {events} unknown events, {pushes} unknown messages and unknown fields"


def check_budget(records: list[Record], budget: float) -> str:
    slowest = (0.0, None, None)
    for rec in records:
        for frames in _connections(rec):
            asked: dict[tuple, Frame] = {}  # what asks for an answer, by (request types, seq): the latest
            for f in frames:
                e = _event(f)
                if e.get("type") == "timeout" and e.get("seat") == rec.seat:
                    raise Failure("the server played for it: its turn clock ran out (T9)", rec, f)
                if f.dir == "s2c" and _type(f) == "turn" and f.msg.get("seat") == rec.seat:
                    asked[("act", f.msg.get("seq"))] = f
                elif _owes_window(e, rec):
                    asked[("pass", f.msg.get("seq"))] = f
                elif e.get("type") == "court" and rec.seat in e.get("voters", ()):
                    asked[("vote", f.msg.get("seq"))] = f
                elif f.dir == "c2s" and _type(f) in ("act", "pass", "call", "vote"):
                    kind = "pass" if _type(f) == "call" else _type(f)
                    ask = asked.pop((kind, f.msg.get("seq")), None)
                    if ask is not None and f.t - ask.t > slowest[0]:
                        slowest = (f.t - ask.t, rec, ask)
    wait, rec, frame = slowest
    if wait > budget:
        raise Failure(f"took {wait:.2f} s to answer; the budget is {budget} s", rec, frame)
    return f"the slowest answer took {wait * 1000:.0f} ms (budget {budget * 1000:.0f} ms)"


#: (name, what it checks, function), in the order of the report.
CHECKS: list[tuple[str, str]] = [
    ("handshake", "hello with the protocol version and the token it was given"),
    ("turns", "acts only on its own turn, with the state guard"),
    ("rearm", "re-arms after stale and after refusals"),
    ("windows", "answers call windows"),
    ("courts", "votes when it sits on a court"),
    ("honest_only", "plays honestly after a conviction"),
    ("payment", "pays a mark (D12/P10)"),
    ("reconnect", "comes back with its token after a drop"),
    ("games", "plays every game type and deck size"),
    ("forward", "ignores unknown fields and types"),
    ("budget", "stays within the time budget"),
]
_FUNCTIONS = {"handshake": check_handshake, "turns": check_turns, "rearm": check_rearm, "windows": check_windows,
              "courts": check_courts, "honest_only": check_honest_only, "payment": check_payment,
              "reconnect": check_reconnect, "games": check_games, "forward": check_forward,
              "budget": check_budget}


def run_checks(names: list[str], records: dict[str, list[Record]], budget: float) -> list[Result]:
    """Each named check over its records (``records[name]``)."""
    out = []
    for name in names:
        try:
            detail = _FUNCTIONS[name](records[name], budget)
        except Failure as f:
            out.append(Result(name, False, f.detail, f.record.name if f.record else None, f.frame))
        else:
            out.append(Result(name, True, detail))
    return out
