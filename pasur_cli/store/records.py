"""What a stored match is read as: its record (``MatchRecord``: players, rules, the snapshot it
resumes from and the actions after it), what a caller last showed of it (``Expected``, for
``--expect`` and the session), and the refusals every part of the store makes of a match id or a
stored line."""

from __future__ import annotations

from collections.abc import Sequence

from pasur_cli.engine.action import Action, read_line
from pasur_cli.engine.arguments import shown
from pasur_cli.engine.errors import PasurError, Words, shorten
from pasur_cli.engine.match import DealResult, Match
from pasur_cli.engine.rules import Rules
from pasur_cli.engine.values import Value
from pasur_cli.store.errors import DamagedError, NoMatchError


class Expected(Value):
    """What a caller last showed of a match, for ``--expect`` and the session: the match's ``key``
    (None: not checked, as for a bare ``--expect N``) and its ``revision``; ``length`` is the log
    length shown (None when unknown), used only to say what changed."""

    key: str | None
    revision: int
    length: int | None = None

    @property
    def token(self) -> str:
        """The text ``--expect`` takes for it: ``KEY:REVISION``, or the bare revision."""
        return str(self.revision) if self.key is None else f"{self.key}:{self.revision}"


def parse_expected(text: str) -> Expected | None:
    """The Expected that ``--expect`` text names: ``KEY:REVISION`` (as ``show --json`` reports
    "revision") or a bare number; None when it is neither. Digits may be in any script."""
    from pasur_cli.engine.reading import whole_number
    key, sep, number = text.strip().rpartition(":")
    if sep and not _is_key(key):
        return None
    revision = whole_number(number, 40)
    if revision is None or revision > 2**63 - 1:
        return None
    return Expected(key if sep else None, revision)


def _is_key(text: str) -> bool:
    return len(text) == 16 and all(ch in "0123456789abcdef" for ch in text)


class MatchRecord(Value):
    """A stored match: who plays, the rules, the first dealer, the ``touched`` counter it was read
    at, the results of its first ``start`` actions (from snapshots) with the totals and action
    counts at each, and the actions after them (lines and times). A full load has start 0: every
    action, no snapshot."""

    id: int
    created: str
    players: list[str]
    rules: Rules
    dealer: int
    touched: int
    start: int
    results: Sequence[DealResult]
    texts: list[str]
    times: list[str]
    totals: dict[str, int] | None = None
    completed_at: Sequence[int] | None = None
    key: str | None = None  # None in a file of an older schema, read without migrating it
    revision: int = -1  # -1: the log's length (a file of an older schema)

    @property
    def expected(self) -> Expected:
        """What a caller that shows this record expects when it records: this match, this revision."""
        return Expected(self.key, self.revision if self.revision >= 0 else self.length, self.length)

    @property
    def length(self) -> int:
        """How many actions the match's log holds."""
        return self.start + len(self.texts)

    @property
    def actions(self) -> list[Action]:
        """The actions this record holds (all of them after a full load). Raises DamagedError for
        a line that is no action."""
        out = []
        for number, text in enumerate(self.texts, self.start + 1):
            try:
                out.append(read_line(text))
            except (ValueError, TypeError, KeyError):
                raise unreadable(self.id, number, text) from None
        return out

    def replay(self) -> Match:
        """The match resumed from its snapshot (``Match.resume``) and replayed on with the actions
        after it. Raises DamagedError."""
        actions = self.actions
        try:
            if not self.start:
                return Match.replay(self.players, self.rules, self.dealer, actions)
            match = Match.resume(self.players, self.rules, self.dealer, start=self.start, results=self.results,
                                 completed_at=self.completed_at or (), totals=self.totals or {})
            match.replay_more(actions)
            return match
        except Exception as err:  # a stored log the engine cannot replay, for whatever reason, is damaged
            raise DamagedError(self.id, damage_reason(err)) from None


def damage_reason(err: Exception) -> PasurError | str:
    """An exception as the reason a match is damaged: the engine's error itself (a fact the reader's
    language writes), or the kind and text of any other."""
    if isinstance(err, PasurError):
        return err
    text = str(err)
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


def unreadable(match_id: int, number: int, line: str) -> DamagedError:
    """The error for a stored line that is no action: the line itself (shortened) is the reason."""
    return DamagedError(match_id, Words("action {number} is not a line pasur writes ({line!r})",
                                        number=number, line=shorten(line, 60)))


def no_match(match_id: object) -> NoMatchError:
    """The refusal of a match id that names no match."""
    return NoMatchError("there is no match {match}; `pasur matches` lists them.",
                        match=match_id if match_id.__class__ is int else shown(match_id))


def check_id(match_id: object) -> None:
    """Raise NoMatchError for a match id that is no whole number from 1 to SQLite's largest (no
    match has it)."""
    if match_id.__class__ is not int or not 0 < match_id < 2**63:
        raise no_match(match_id)

