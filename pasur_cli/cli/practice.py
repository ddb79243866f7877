"""`pasur practice`'s work: where the positions come from (``marked_decisions``), what an option is
worth there (``option_values``), reading a play as the session reads one, and the loop that asks
each position in turn, judges the answer and keeps it in the record book. Nothing here changes a
match: the only write is the answer's row (pasur_cli.store.practice)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from pasur_cli.cli.questions import ask_capture
from pasur_cli.cli.typed import read_line
from pasur_cli.engine.errors import IllegalPlayError, NotationError, PasurError
from pasur_cli.engine.names import find_name, name_key
from pasur_cli.engine.reading import whole_number
from pasur_cli.engine.typos import read_cards
from pasur_cli.store.errors import DamagedError
from pasur_cli.text.i18n import catalog_words

if TYPE_CHECKING:
    from pasur_cli.cli.terminal import Reader
    from pasur_cli.engine.advice import Advice
    from pasur_cli.engine.cards import Card
    from pasur_cli.engine.match import Match
    from pasur_cli.engine.practice import DealKey, Decision
    from pasur_cli.store.database import Store
    from pasur_cli.text.render import Look

Option = tuple["Card", tuple["Card", ...]]
QUIT = ("q", "quit", "exit")  # and the session's word for quit in the reader's language


class Leave(Exception):
    """The player asked to leave the practice (``q``, the session's quit words)."""


class Cancelled(Exception):
    """The player cancelled the answer at the capture question (Ctrl-C there, as in the session)."""


def matches_of(store: Store, match_id: int | None) -> dict[int, Match]:
    """The matches practised, each replayed from its whole log, by id in the book's order: match
    ``match_id`` alone when given (raises NoMatchError or DamagedError for it), else every match
    that can be read (a damaged one is left out: ``pasur matches`` names it)."""
    if match_id is not None:
        return {match_id: store.load(match_id, full=True).replay()}
    found: dict[int, Match] = {}
    for mid in sorted(store.match_ids()):
        try:
            found[mid] = store.load(mid, full=True).replay()
        except DamagedError:
            continue
    return found


def player_named(matches: dict[int, Match], name: str, match_id: int | None) -> str:
    """The player ``name`` names, as the match spells it (``--match``: any beginning its session
    takes), else as the first match that has them spells it. Raises IllegalPlayError for a name
    no match has (or, in one match, a stranger or a beginning of several names)."""
    if match_id is not None:
        return matches[match_id].player_named(name)
    for match in matches.values():
        found = find_name(match.players, name)
        if found is not None:
            return found
    raise IllegalPlayError("no match in the database has a player named {name}.", name=name.strip())


def played_deals(matches: dict[int, Match], player: str | None = None) -> list[DealKey]:
    """Every finished deal of ``matches`` (of those ``player`` played in, when given) that was
    played (not tallied), as (match, deal), in order."""
    return [(mid, r.number) for mid, match in matches.items() if player is None or find_name(match.players, player)
            for r in match.results if not r.tallied]


def marked_decisions(store: Store, player: str | None, deal: DealKey,
                     making: Callable[[int], None] | None = None) -> list[Decision]:
    """The marked decisions of ``player`` (everyone's when None) in one finished deal (match id,
    number), in order: the one place practice reads reviews from. The deal's kept review is read
    (store.reviews), else it is made as `pasur review` makes it and kept (``cli.advice.reviewed``;
    ``making`` is told the deal's number first).
    Raises PasurError as ``review``."""
    from pasur_cli.cli.advice import reviewed
    from pasur_cli.engine.practice import marked
    mid, number = deal
    reviews, _damaged = reviewed(store, mid, lambda match: [number], lambda: store if store.write else None, making)
    return marked(mid, reviews[0], player)


def option_values(decision: Decision, board: Match, hand: list[Card]) -> tuple[Advice, ...]:
    """Every legal option of ``hand`` at ``decision``'s position (``board``) with its value, best
    first: the review's own values when it kept them (a review made by this pasur weighs every
    option of a marked play), else weighed now as `pasur hint` weighs a hand. Raises PasurError as
    ``hint``."""
    if decision.review.options:
        return decision.review.options
    from pasur_cli.engine.advice import hint
    return hint(board, hand)


def quit_words() -> dict[str, str]:
    """The words that leave (by ``name_key``): q, quit, exit and the session's word for quit."""
    words = [*QUIT, *catalog_words("session command word: quit")]
    return {name_key(w): "quit" for w in words}


def read_play(text: str, board: Match, hand: list[Card], options: list[Option],
              ask: Callable[[Card], list[Card] | None]) -> Option | None:
    """The option typed in ``text`` (None: an empty line): an option's number, or cards as the
    session reads them (``7c 4d``, ``sara 7c``; a capture with a choice is asked with ``ask``).
    Raises Leave for q; NotationError for what is not a play or a number out of range;
    IllegalPlayError for a card not in ``hand`` or a play the referee refuses."""
    deal = board.deal
    assert deal is not None
    line = read_line(text, quit_words(), board.players)
    if line is None:
        return None
    if line.command == "quit":
        raise Leave
    if line.command != "play" or not line.words:
        raise NotationError("type a play (e.g. {example}), an option's number, or q to leave.",
                            example=" ".join(c.code.lower() for c in options[0][:1]))
    number = whole_number(line.words[0]) if len(line.words) == 1 else None
    if number is not None:
        if not 1 <= number <= len(options):
            raise NotationError("there is no option {number}: type a number from 1 to {count}.", number=number,
                                count=len(options))
        return options[number - 1]
    card, *rest = read_cards(line.words, hand, deal.table)
    if card not in hand:
        raise IllegalPlayError("{card} is not in the hand of {player} here: {hand}.", card=card, player=deal.turn,
                               hand=tuple(hand))
    take = rest or ask(card)
    return card, deal.verify_play(card, take, line.by)


class Practice:
    """One practice: the positions in order, where to read a line and how to write."""

    def __init__(self, store: Store, matches: dict[int, Match], look: Look, read: Reader, at_terminal: bool,
                 echo: Callable[[str], None], refuse: Callable[[Exception], None], width: int) -> None:
        self.store, self.matches, self.look, self.read = store, matches, look, read
        self.at_terminal, self.echo, self.refuse, self.width = at_terminal, echo, refuse, width
        self.found = self.answered = 0

    def run(self, order: Iterator[Decision]) -> None:
        """Ask every position of ``order`` in turn until the player leaves (q, Ctrl-C or the end of
        input), then say how many were found."""
        from pasur_cli.text.practice import done_text, summary_text
        try:
            for number, decision in enumerate(order, 1):
                self.one(number, decision)
            self.echo(done_text(self.look))
        except (Leave, EOFError, KeyboardInterrupt):
            if self.at_terminal:
                self.echo("")
        self.echo(summary_text(self.look, self.found, self.answered))

    def one(self, number: int, decision: Decision) -> None:
        """Show one position, read the answer, judge it, keep it and say how it went."""
        from pasur_cli.engine.advice import options as legal
        from pasur_cli.engine.practice import judge, position
        from pasur_cli.store.practice import record
        from pasur_cli.text.practice import answer_text, position_text
        board, hand = position(self.matches[decision.match_id], decision.deal, decision.play)
        deal = board.deal
        assert deal is not None
        options = legal(deal, hand)
        self.echo(position_text(self.look, number, decision, board, hand, options, self.width))
        card, take = self.answer(board, hand, options)
        answer = judge(option_values(decision, board, hand), card, take)
        record(self.store, decision.key, decision.review.card, answer.found)
        self.answered += 1
        self.found += answer.found
        self.echo(answer_text(self.look, answer, decision))

    def answer(self, board: Match, hand: list[Card], options: list[Option]) -> Option:
        """Read lines until one is a legal option of ``hand``; each refusal is said and the
        question asked again, as it is after Ctrl-C at the capture question. Raises Leave,
        EOFError or KeyboardInterrupt when the player leaves."""
        from pasur_cli.text.practice import prompt_text
        deal = board.deal
        assert deal is not None
        prompt = prompt_text(self.look) if self.at_terminal else ""  # piped: lines are read without one

        def ask(card: Card) -> list[Card] | None:
            try:
                return ask_capture(card, deal, self.read, self.look, self.echo, self.refuse,
                                   prompted=self.at_terminal)
            except KeyboardInterrupt:  # cancels this answer, not the practice
                handled = getattr(self.read, "handled", None)
                if handled is not None:
                    handled()
                self.echo("")
                raise Cancelled from None
        while True:
            try:
                chosen = read_play(self.read(prompt), board, hand, options, ask)
            except PasurError as err:
                self.refuse(err)
                continue
            except Cancelled:
                continue
            if chosen is not None:
                return chosen
