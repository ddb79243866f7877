"""Refusals before commit, in the library too (issue 27): every public writer checks everything
before its transaction commits, so a refused call raises a PasurError with facts and leaves the
database file byte for byte as it was, and a script that retries after the error records once;
the analysis refuses an effort, most or seed out of range, naming the range."""

import hashlib
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tier import sized

import pasur_cli as pasur
from pasur_cli.engine.advice import GUESSES_MOST, hint
from pasur_cli.store.database import Expected

TABLE = "5C 9D 3H KS"
TALLY = {"type": "tally", "counts": {"Ali": {"clubs": 13, "aces": 4, "jacks": 4, "two_clubs": True,
                                             "ten_diamonds": True}, "Sara": {}}, "surs": {}}


def digest(path: Path) -> tuple[str, ...]:
    """The bytes of the database and of every file SQLite keeps beside it, hashed."""
    found = []
    for name in sorted(p.name for p in path.parent.iterdir() if p.name.startswith(path.name)):
        found.append(name + ":" + hashlib.sha256((path.parent / name).read_bytes()).hexdigest())
    return tuple(found)


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """A database holding match 1 (Ali, Sara) with deal 1's table entered: Sara to play."""
    path = tmp_path_factory.mktemp("base") / "pasur.db"
    book = pasur.Store(str(path), write=True, create=True)
    mid = book.create(["Ali", "Sara"], pasur.PRESETS["pagat"], 0)
    pasur.enter_table(book, mid, pasur.parse_cards(TABLE))
    book.close()
    return path


def copy_of(base: Path, tmp_path: Path, name: str = "pasur.db") -> Path:
    path = tmp_path / name
    shutil.copyfile(base, path)
    return path


def refused_leaves_the_file(path: Path, call) -> pasur.PasurError | None:
    """Run ``call(store)`` on the file; return its PasurError (None when it succeeded), asserting
    that a refusal left every byte as it was. Any other exception fails the test."""
    before = digest(path)
    book = pasur.Store(str(path), write=True)
    try:
        call(book)
    except pasur.PasurError as err:
        book.close()
        assert digest(path) == before, f"refused ({err}) but the file changed"
        assert str(err) and err.template  # a sentence, from a template and its facts
        return err
    book.close()
    return None


def length(path: Path, mid: int = 1) -> int:
    book = pasur.Store(str(path))
    try:
        return book.match(mid)[1].length
    finally:
        book.close()


# -- the two reported cases ------------------------------------------------------------------------
@pytest.mark.parametrize("action", [{"type": "play", "card": "2S"}, {"type": "deal", "table": TABLE.split()}])
def test_enter_tally_of_a_play_or_a_deal_is_refused_before_anything_is_recorded(base, tmp_path, action):
    path = copy_of(base, tmp_path)
    err = refused_leaves_the_file(path, lambda book: pasur.enter_tally(book, 1, dict(action)))
    assert isinstance(err, pasur.NotationError) and err.facts == {"expected": "tally", "kind": action["type"]}
    assert length(path) == 1


def test_a_script_that_retries_after_a_refusal_records_once(base, tmp_path):
    path = copy_of(base, tmp_path)
    assert refused_leaves_the_file(path, lambda book: pasur.enter_tally(book, 1, {"type": "play", "card": "2S"}))
    assert refused_leaves_the_file(path, lambda book: None) is None
    book = pasur.Store(str(path), write=True)
    play, match = pasur.enter_play(book, 1, "2S")  # the retry, the right way
    book.close()
    assert [c.code for c in play.taken] == ["9D"] and match.length == length(path) == 2


@pytest.mark.parametrize("effort", [0, -1, GUESSES_MOST + 1, 1.5, True, "16"])
def test_advise_hint_and_review_refuse_an_effort_out_of_range_naming_it(effort):
    match = pasur.Match(["Ali", "Sara"], pasur.PRESETS["pagat"])
    match.start_deal(TABLE)
    for call in (lambda: pasur.advise(match, "2S 3S 4S 5S", effort=effort),
                 lambda: hint(match, "2S 3S 4S 5S", effort=effort),
                 lambda: pasur.review(match, 1, effort=effort)):
        with pytest.raises(pasur.NotationError) as caught:
            call()
        assert caught.value.facts["name"] == "effort"
        assert f"from 1 to {GUESSES_MOST}" in str(caught.value)


def test_review_and_hint_refuse_most_and_seed_out_of_range():
    match = pasur.Match(["Ali", "Sara"], pasur.PRESETS["pagat"])
    match.start_deal(TABLE)
    with pytest.raises(pasur.NotationError, match="most must be a whole number from 1 to"):
        pasur.review(match, 1, most=0)
    with pytest.raises(pasur.NotationError, match="most must be a whole number from 1 to"):
        hint(match, "2S 3S 4S 5S", most=-3)
    with pytest.raises(pasur.NotationError, match="seed must be of type int"):
        pasur.advise(match, "2S 3S 4S 5S", seed="one")
    with pytest.raises(pasur.NotationError, match="match must be of type"):
        pasur.advise(None, "2S 3S 4S 5S")


def test_the_least_and_the_most_effort_are_accepted():
    match = pasur.Match(["Ali", "Sara"], pasur.PRESETS["pagat"])
    match.start_deal(TABLE)
    least = pasur.advise(match, "2S 3S 4S 5S", effort=1, seed=3)
    assert len(least) == 4 and least == pasur.advise(match, ["2S", "3S", "4S", "5S"], effort=1, seed=3)
    assert len(hint(match, "2S 3S 4S 5S", effort=1, most=1, seed=3)) == 4


def test_create_refuses_what_would_store_a_match_that_cannot_be_read(base, tmp_path):
    path = copy_of(base, tmp_path)
    pagat = pasur.PRESETS["pagat"]
    for args, words in [((["Ali"], pagat, 0), "2, 3 or 4 players"),
                        ((["Ali", "Sara"], pagat, 2), "dealer is one of their seats"),
                        (("Ali", pagat, 0), "players must be of type list | tuple"),
                        ((["Ali", "Sara"], "pagat", 0), "rules must be of type Rules"),
                        ((["Ali", ""], pagat, 0), "cannot be empty"),
                        ((["Ali", "Sara"], pagat, 0, [{"type": "play", "card": "2S", "take": [], "by": None}]),
                         "action 1 (play  2S ) cannot be replayed")]:
        err = refused_leaves_the_file(path, lambda book, args=args: book.create(*args))
        assert err is not None and words in str(err), (args, err)
    err = refused_leaves_the_file(path, lambda book: book.create(["Ali", "Sara"], pagat, 0, [TALLY], times=[]))
    assert err is not None and err.facts == {"count": 1}


# -- the property: arbitrary arguments at every public writer --------------------------------------
JUNK = st.one_of(st.none(), st.booleans(), st.integers(-3, 5), st.integers(-2**70, 2**70), st.floats(),
                 st.text(max_size=6), st.lists(st.sampled_from(["2S", "9D", "5C", "KS", "XX", "2s"]), max_size=5),
                 st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=4), st.integers(), max_size=2))
ACTIONS = st.one_of(
    st.just(TALLY), st.just({"type": "play", "card": "2S"}), st.just({"type": "deal", "table": TABLE.split()}),
    st.fixed_dictionaries({"type": st.sampled_from(["tally", "play", "deal", "bet"])},
                          optional={"card": JUNK, "take": JUNK, "table": JUNK, "counts": JUNK, "surs": JUNK,
                                    "piles": JUNK, "partial": JUNK, "by": JUNK}),
    JUNK)
MATCH_IDS = st.one_of(st.just(1), st.just(2), JUNK)
EXPECTS = st.one_of(st.none(), st.just("now"), st.builds(Expected, st.none(), st.integers(0, 3)), JUNK)
CALLS = st.one_of(
    st.tuples(st.just("enter_table"), MATCH_IDS, st.one_of(st.just(TABLE.split()), JUNK), EXPECTS),
    st.tuples(st.just("enter_play"), MATCH_IDS, st.one_of(st.sampled_from(["2S", "7D", "9D"]), JUNK),
              st.one_of(st.none(), JUNK), st.one_of(st.none(), st.sampled_from(["Sara", "Ali", "Sa"]), JUNK), EXPECTS),
    st.tuples(st.just("enter_tally"), MATCH_IDS, ACTIONS, EXPECTS),
    st.tuples(st.just("take_back"), MATCH_IDS, st.one_of(st.integers(-1, 3), JUNK), EXPECTS),
    st.tuples(st.just("delete"), MATCH_IDS, EXPECTS),
    st.tuples(st.just("create"), st.one_of(st.just(["Ali", "Sara"]), st.lists(st.text(max_size=3), max_size=5), JUNK),
              st.one_of(st.just(pasur.PRESETS["pagat"]), JUNK), st.one_of(st.integers(-1, 4), JUNK),
              st.one_of(st.lists(ACTIONS, max_size=2), JUNK)),
)


def invoke(book, call) -> None:
    """One writer's call as drawn: ``"now"`` as an expect stands for the match's revision now."""
    name, *args = call
    if name != "create" and args[-1] == "now":
        args[-1] = book.stored_revision(1)
    if name == "create":
        book.create(*args)
    elif name == "delete":
        book.delete(*args)
    elif name == "enter_play":
        pasur.enter_play(book, args[0], args[1], args[2], args[3], expect=args[4])
    else:
        getattr(pasur, name)(book, *args)


@sized(60)
@given(CALLS)
def test_every_public_writer_refuses_with_a_pasur_error_and_leaves_the_file_as_it_was(base, tmp_path_factory, call):
    path = copy_of(base, tmp_path_factory.mktemp("writer"))
    err = refused_leaves_the_file(path, lambda book: invoke(book, call))
    if err is None:
        return  # recorded: whatever it did went through the engine's checks
    # a valid call after the refusal records exactly once
    before = length(path)
    book = pasur.Store(str(path), write=True)
    try:
        pasur.enter_play(book, 1, "2S")
    finally:
        book.close()
    assert length(path) == before + 1


# -- every public function, given arguments of any type ---------------------------------------------
def public_functions() -> list[str]:
    import inspect
    return [name for name in pasur.__all__ if inspect.isfunction(getattr(pasur, name))
            and name not in ("enter_table", "enter_play", "enter_tally", "take_back")]  # the writers: above


ANY = st.one_of(JUNK, st.just(pasur.PRESETS["pagat"]), st.just(pasur.parse_card("5C")),
                st.just(pasur.parse_cards("AC 2D 4H")), st.just({"Ali": 3, "Sara": 7}), st.just(TALLY),
                st.just({"Ali": pasur.PileCount(clubs=3)}), st.just([(1, pasur.Match(["Ali", "Sara"], pasur.PRESETS["pagat"]))]))


@sized(60)
@given(st.sampled_from(public_functions()), st.lists(ANY, min_size=1, max_size=4))
def test_every_public_function_refuses_an_argument_of_the_wrong_type_with_a_pasur_error(name, args):
    import inspect
    function = getattr(pasur, name)
    needed = [p for p in inspect.signature(function).parameters.values()
              if p.default is p.empty and p.kind is p.POSITIONAL_OR_KEYWORD]
    if name == "advise":  # a search of a real position is not what is asked here
        args = [None, *args]
    try:
        function(*(args + [None] * len(needed))[:len(needed)])
    except pasur.PasurError as err:
        assert str(err)
