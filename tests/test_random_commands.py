"""Random input thrown at the CLI: never a traceback, exit codes 0, 1 or 2 only, and a refused
command leaves the database exactly as it was."""

import os
import random
import tempfile

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from tier import sized

from pasur_cli.cli.app import main
from pasur_cli.engine.captures import legal_captures
from pasur_cli.engine.cards import DECK
from pasur_cli.store.database import Store

CODES = [c.code for c in DECK]
card_text = st.one_of(st.sampled_from(CODES), st.sampled_from(["10♦", "qh", "1s", "T♣", "11c", "", "Z", "7", "♠"]),
                      st.text(max_size=5))
cards_text = st.lists(card_text, max_size=6).map(" ".join)
names = st.sampled_from(["Ali", "Sara", "Reza", "Mina", "Nobody", "", "A&B", "سارا"])
command = st.one_of(
    st.tuples(st.just("play"), card_text).map(list),
    st.tuples(st.just("play"), card_text, st.just("--take"), cards_text).map(list),
    st.tuples(st.just("play"), card_text, st.just("--by"), names).map(list),
    st.just(["LEGAL"]), st.just(["LEGAL"]), st.just(["LEGAL"]),
    st.tuples(st.just("deal"), cards_text).map(list),
    st.just(["DEAL"]),
    st.tuples(st.just("undo"), st.sampled_from(["1", "2", "0", "-1", "x", "99"])).map(list),
    st.tuples(st.just("tally"), st.just("--count"), st.text(max_size=30)).map(list),
    st.tuples(st.just("tally"), st.just("--pile"), names.map(lambda n: n + "="), cards_text)
    .map(lambda t: [t[0], t[1], t[2] + t[3]]),
    st.tuples(st.just("tally"), st.just("--surs"), st.text(max_size=8)).map(list),
    st.tuples(st.just("check"), card_text, st.just("--table"), cards_text).map(list),
    st.tuples(st.just("check"), card_text, st.just("--table"), cards_text, st.just("--take"), cards_text).map(list),
    st.sampled_from([["show"], ["score"], ["matches"], ["show", "--json"], ["score", "--json"]]),
    st.tuples(st.just("new"), st.lists(names, max_size=5)).map(lambda t: [t[0], *t[1]]),
    st.tuples(st.just("new"), names, names, st.just("--rule"), st.text(max_size=12)).map(list),
    st.tuples(st.just("--match"), st.sampled_from(["1", "2", "x", "-3"]), st.just("show")).map(list),
    st.lists(st.text(max_size=10), max_size=4),
)


def legal_now(db: str, rng: random.Random) -> list[str]:
    """A legal next action for the current match: a table when one is awaited, else a play."""
    store = Store(db)
    try:
        mid = store.match_ids()[0]
        match = store.match(mid)[1]
    finally:
        store.close()
    if match.finished:
        return ["show"]
    if match.deal is None:
        return ["DEAL"]
    deal = match.deal
    card = rng.choice([c for c in DECK if c not in deal.where])
    options = legal_captures(card, deal.table, match.rules).options
    take = rng.choice(options) if options else ()
    return ["play", card.code, "--take", " ".join(c.code for c in take)]


def fresh_table(rng: random.Random) -> list[str]:
    return rng.sample([c for c in CODES if c[0] not in "JQK"], 4)


def snapshot(db: str) -> bytes | None:
    return open(db, "rb").read() if os.path.exists(db) else None


@sized(12)  # each example is up to 30 commands
@given(st.lists(command, min_size=1, max_size=30), st.integers(0, 10**6), st.booleans())
def test_random_command_sequences(commands, seed, start_with_match):
    rng = random.Random(seed)
    runner = CliRunner()
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "pasur.db")
        env = {"PASUR_DB": db, "NO_COLOR": "1"}
        if start_with_match:
            assert runner.invoke(main, ["new", "Ali", "Sara", "--rules", rng.choice(["standard", "pagat"])],
                                 env=env).exit_code == 0
        for args in commands:
            if args == ["LEGAL"]:
                args = legal_now(db, rng) if os.path.exists(db) and snapshot(db) else ["show"]
            if args == ["DEAL"]:
                args = ["deal", *fresh_table(rng)]
            before = snapshot(db)
            result = runner.invoke(main, args, env=env)
            assert result.exit_code in (0, 1, 2), (args, result.output, result.exception)
            if result.exception is not None:
                assert isinstance(result.exception, SystemExit), (args, repr(result.exception))
            assert "Traceback" not in result.output
            if result.exit_code != 0:
                after = snapshot(db)
                assert after == before, args


@sized(30)
@given(st.text(max_size=40))
def test_random_strings_as_cards(text):
    runner = CliRunner()
    for args in (["check", text, "--table", "4H 7C"], ["check", "5S", "--table", text],
                 ["check", "5S", "--table", "4H 7C", "--take", text], ["rules", text]):
        result = runner.invoke(main, args)
        assert result.exit_code in (0, 1, 2), (args, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), (args, repr(result.exception))


# -- promise 6: no traceback, ever, for any argv or stdin ------------------------------------
HOSTILE_TOKENS = ["9223372036854775808", "9223372036854775807", "-9223372036854775809", "²", "٣", "9" * 5000,
                  "Infinity", "NaN", "-1", "0", "1e9", "", " ", "\t", "\udcff", "\udcffBob", "A\x9b2J", "\u202eA",
                  "\ufeff", "Ali\x00", "--", "-", "--yes", "--again", "--force", "--json", "--ascii", "=", "Ali=",
                  "Ali: clubs=²", "Ali: clubs=" + "9" * 5000, "Ali=" + "9" * 5000, "Ali=Infinity", ":memory:",
                  "file:x.db", "/dev/zero", "/dev/null", "/", ".", "2S KH", "10♦", "7C", "5C", "9D", "3H", "KS"]
COMMANDS = ["new", "deal", "play", "undo", "tally", "show", "score", "matches", "export", "import", "delete",
            "check", "rules", "session"]
OPTIONS = ["--match", "--expect", "--take", "--by", "--count", "--pile", "--surs", "--db", "--rule", "--rules",
           "--dealer", "-o", "--partial"]
token = st.one_of(st.sampled_from(HOSTILE_TOKENS), st.sampled_from(OPTIONS), st.text(max_size=12),
                  st.integers(-2**70, 2**70).map(str))


@pytest.fixture(scope="module")
def started(tmp_path_factory):
    """A database holding one match with deal 1's table entered, kept as pristine bytes."""
    folder = tmp_path_factory.mktemp("hostile")
    env = {"PASUR_DB": str(folder / "pasur.db"), "NO_COLOR": "1"}
    runner = CliRunner()
    assert runner.invoke(main, ["new", "Ali", "Sara"], env=env).exit_code == 0
    assert runner.invoke(main, ["deal", "5C", "9D", "3H", "KS"], env=env).exit_code == 0
    return (folder / "pasur.db").read_bytes()


@sized(40)
@given(st.sampled_from(COMMANDS), st.lists(token, max_size=6), st.text(max_size=40), st.booleans())
def test_hostile_argv_and_stdin_never_end_in_a_traceback(started, command, args, stdin, in_front):
    """Random argv and stdin thrown at every command in-process: the exception is SystemExit (a
    click refusal or exit) and nothing else, the exit code 0, 1 or 2, and a refusal changes
    nothing in the database."""
    runner = CliRunner()
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "pasur.db")
        env = {"PASUR_DB": db, "NO_COLOR": "1", "PASUR_BUSY_TIMEOUT": "0.05"}
        with open(db, "wb") as f:
            f.write(started)
        argv = [*args[:2], command, *args[2:]] if in_front else [command, *args]
        before = snapshot(db)
        cwd = os.getcwd()
        os.chdir(tmp)  # a relative -o or --db lands in the temporary folder
        try:
            result = runner.invoke(main, argv, env=env, input=stdin)
        finally:
            os.chdir(cwd)
        assert result.exception is None or isinstance(result.exception, SystemExit), (argv, repr(result.exception))
        assert result.exit_code in (0, 1, 2), (argv, result.output)
        assert "Traceback" not in result.output
        if result.exit_code != 0:
            assert snapshot(db) == before, argv
