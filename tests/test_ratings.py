"""`pasur stats --ratings` (issue 29): every player rated from every finished match with OpenSkill,
ordered as the results say; teams of two rated as their players, three players as a three-way
result; one player's rating drawn over time."""

from __future__ import annotations

import csv
import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_i18n import OTHERS, assert_no_english

from pasur_cli.engine.ratings import rate, side_ranks
from pasur_cli.engine.stats import Standing

WIN = "clubs=13 aces=4 jacks=4 2c=yes 10d=yes"
NOTHING = "clubs=0 aces=0 jacks=0 2c=no 10d=no"


def standing(mid: int, sides: list[str], totals: list[int], players: list[str] | None = None) -> Standing:
    """A finished match's standing: the side of the highest total won."""
    players = players or sides
    seat_sides = sides if len(players) == len(sides) else [sides[i % 2] for i in range(4)]
    scores = dict(zip(sides, totals, strict=True))
    return Standing(mid, "2026-01-01", tuple(players), tuple(seat_sides), "standard", 3, scores,
                    max(scores, key=scores.__getitem__), {})


@given(st.lists(st.tuples(st.sampled_from(["Ali", "Sara", "Reza", "Mina"]), st.sampled_from(["Ali", "Sara", "Reza", "Mina"]),
                          st.booleans(), st.integers(0, 61)), min_size=1, max_size=30))
def test_one_who_wins_every_match_rates_above_one_who_loses_every_match(games):
    """Among random results of others, Winner wins every match they play and Loser loses every one
    (each plays at least once): Winner's rating, and mean, are above Loser's."""
    standings = [standing(0, ["Winner", "Loser"], [62, 10])]
    for number, (a, b, first_wins, loser_total) in enumerate(games, 1):
        if a == b:
            b = "Winner" if number % 3 == 0 else "Loser"
        sides = [a, b]
        if "Winner" in sides or "Loser" in sides:  # Winner wins, Loser loses, whoever the other is
            first_wins = sides[0] == "Winner" or sides[1] == "Loser"
        totals = [62, loser_total] if first_wins else [loser_total, 62]
        standings.append(standing(number, sides, totals))
    ratings = rate(standings)
    names = [r.name for r in ratings.players]
    winner, loser = (ratings.of_player(n)[0] for n in ("Winner", "Loser"))
    assert names.index("Winner") < names.index("Loser")
    assert winner.mu > loser.mu and winner.conservative > loser.conservative
    assert winner.won == winner.matches and loser.won == 0
    keys = [(-r.conservative, r.sigma) for r in ratings.players]
    assert keys == sorted(keys)  # by mu - 3 sigma, the more certain first among equals


def test_unfinished_matches_are_not_rated():
    going_on = Standing(2, "2026-01-01", ("Ali", "Sara"), ("Ali", "Sara"), "standard", 2, {"Ali": 30, "Sara": 10},
                        None, {})
    ratings = rate([standing(1, ["Ali", "Sara"], [62, 10]), going_on])
    assert ratings.matches == 1 and [r.matches for r in ratings.players] == [1, 1]


def test_a_three_player_match_is_a_three_way_result():
    s = standing(1, ["Ali", "Sara", "Reza"], [40, 62, 20])
    assert side_ranks(s) == [2, 1, 3]
    ratings = rate([s])
    assert [r.name for r in ratings.players] == ["Sara", "Ali", "Reza"]
    mus = [r.mu for r in ratings.players]
    assert mus[0] > 25 > mus[2] and mus[0] > mus[1] > mus[2]


def test_a_tie_behind_the_winner_is_a_shared_place():
    s = standing(1, ["Ali", "Sara", "Reza"], [40, 62, 40])
    assert side_ranks(s) == [2, 1, 2]
    ali, reza = (rate([s]).of_player(n)[0] for n in ("Ali", "Reza"))
    assert ali.mu == pytest.approx(reza.mu) and ali.sigma == pytest.approx(reza.sigma)


def test_teams_of_two_are_rated_as_their_players():
    s = standing(1, ["Ali & Reza", "Sara & Mina"], [62, 30], players=["Ali", "Sara", "Reza", "Mina"])
    ratings = rate([s])
    assert {r.name for r in ratings.players} == {"Ali", "Reza", "Sara", "Mina"}
    ali, reza, sara = (ratings.of_player(n)[0] for n in ("Ali", "Reza", "Sara"))
    assert ali.mu == pytest.approx(reza.mu) and ali.mu > 25 > sara.mu and ali.won == 1 and sara.won == 0


def tally_win(pasur, players, winner_seat=0, solo=False):
    """A match of one deal that the side of ``winner_seat`` wins, entered as players would."""
    args = ["new", *players, "--rule", "fixed_deals=1", *(["--solo"] if solo else [])]
    assert pasur(*args).exit_code == 0
    counts = []
    sides = players if len(players) != 4 or solo else [f"{players[0]}", f"{players[1]}"]
    for seat, name in enumerate(sides):
        counts += ["--count", f"{name}: {WIN if seat == winner_seat else NOTHING}"]
    result = pasur("tally", *counts)
    assert result.exit_code == 0, result.output


def test_stats_ratings_of_two_three_and_four_player_matches(pasur):
    tally_win(pasur, ["Ali", "Sara"])
    tally_win(pasur, ["Ali", "Sara", "Reza"], winner_seat=0)
    tally_win(pasur, ["Ali", "Sara", "Reza", "Mina"], winner_seat=0)  # Ali & Reza against Sara & Mina
    tally_win(pasur, ["Mina", "Reza"], winner_seat=0)
    assert pasur("new", "Ali", "Sara").exit_code == 0  # unfinished: not rated
    data = json.loads(pasur("stats", "--ratings", "--json").stdout)
    assert data["matches"] == 4 and data["model"] == "openskill PlackettLuce"
    players = {p["name"]: p for p in data["players"]}
    assert {n: (p["matches"], p["won"]) for n, p in players.items()} == {
        "Ali": (3, 3), "Sara": (3, 0), "Reza": (3, 1), "Mina": (2, 1)}
    assert data["players"][0]["name"] == "Ali" and data["players"][-1]["name"] == "Sara"
    assert [p["rank"] for p in data["players"]] == [1, 2, 3, 4]
    rows = list(csv.reader(io.StringIO(pasur("stats", "--ratings", "--csv").stdout)))
    assert rows[0] == ["rank", "name", "rating", "mu", "sigma", "matches", "won"]
    assert [r[1] for r in rows[1:]] == [p["name"] for p in data["players"]]
    text = pasur("stats", "--ratings").stdout
    assert text.index("Ali") < text.index("Sara") and "Rated from 4 finished matches" in text
    only = json.loads(pasur("stats", "--ratings", "--player", "sara", "--json").stdout)["players"]
    assert only == [{**players["Sara"], "rank": 4}]


def test_a_player_s_rating_over_time_is_drawn(pasur):
    tally_win(pasur, ["Ali", "Sara"])
    tally_win(pasur, ["Ali", "Sara"])
    result = pasur("stats", "--ratings", "--player", "ali", "--chart", "--ascii")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Ali: rating ") and lines[0].endswith("after 2 matches.")
    assert "matches played" in result.stdout


@pytest.mark.parametrize("args,code,says", [
    (["stats", "--chart"], 2, "give --player NAME"),
    (["stats", "--ratings", "--json", "--csv"], 2, "choose one of"),
    (["stats", "--ratings", "--player", "Nobody"], 1, "no finished match in the database has a player named Nobody"),
    (["stats", "--player", "Nobody", "--chart"], 1, "named Nobody"),
])
def test_refusals(pasur, db, args, code, says):
    tally_win(pasur, ["Ali", "Sara"])
    before = db.read_bytes()
    result = pasur(*args)
    assert result.exit_code == code and says in result.stderr
    assert db.read_bytes() == before


def test_no_finished_match_rates_nobody(pasur):
    assert pasur("new", "Ali", "Sara").exit_code == 0
    assert pasur("stats", "--ratings").stdout.strip() == "No finished match yet: nothing to rate."
    assert json.loads(pasur("stats", "--ratings", "--json").stdout)["players"] == []


def test_ratings_in_every_language(pasur):
    tally_win(pasur, ["Ali", "Sara"])
    for code in OTHERS:
        result = pasur("--lang", code, "stats", "--ratings")
        assert result.exit_code == 0
        assert_no_english(result.stdout.replace("OpenSkill", "").replace("Plackett-Luce", ""), code)
        chart = pasur("--lang", code, "stats", "--player", "Ali", "--chart")
        assert_no_english(chart.stdout, code)
