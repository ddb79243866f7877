"""`pasur check` and `pasur rules` through click's CliRunner, every bad-input path included."""

import json

import pytest
from click.testing import CliRunner

from pasur_cli.cli.app import main
from pasur_cli.engine.rules import OPTION_NAMES, PRESETS


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_check_lists_captures_as_json():
    result = run("check", "5s", "--table", "AC 2D 4H 5C", "--rules", "pagat", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert set(data) == {"played", "table", "rules", "captures", "count", "truncated", "trail", "legal", "reason"}
    assert data["played"] == "5S" and data["table"] == ["AC", "2D", "4H", "5C"] and data["rules"] == "pagat"
    assert data["captures"] == [{"take": ["AC", "5C"], "sur": False}, {"take": ["2D", "4H"], "sur": False}]
    assert (data["count"], data["truncated"], data["trail"], data["legal"], data["reason"]) == (2, False, False, None, None)


def test_check_sur_and_custom_rules():
    data = json.loads(run("check", "5♠", "--table", "a♣,2♦ 4♥ 5c", "--json").output)
    assert data["captures"] == [{"take": ["AC", "2D", "4H", "5C"], "sur": True}] and data["rules"] == "standard"
    data = json.loads(run("check", "JS", "--table", "3D 5H", "--rule", "jack_sur=false", "--json").output)
    assert data["rules"] == "custom" and data["captures"] == [{"take": ["3D", "5H"], "sur": False}]


def test_check_trail():
    result = run("check", "JS", "--table", "QH KC", "--ascii")
    assert result.exit_code == 0 and "trailed" in result.output and "JS" in result.output
    data = json.loads(run("check", "JS", "--json").output)
    assert data["trail"] and data["captures"] == [] and data["count"] == 0


def test_check_take_legal_and_illegal():
    result = run("check", "7d", "--table", "5c 4h", "--take", "4h")
    assert result.exit_code == 0 and "legal" in result.output
    result = run("check", "7d", "--table", "5c 4h", "--take", "5c", "--json")
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["legal"] is False and data["reason"] == "7D + 5C = 12, not 11."
    result = run("check", "7d", "--table", "5c 4h", "--take", "5c")
    assert result.exit_code == 1 and "7♦ + 5♣ = 12, not 11" in result.output
    result = run("check", "4s", "--table", "4h 7c", "--take", "", "--json")
    assert result.exit_code == 1 and "must capture" in json.loads(result.output)["reason"]


@pytest.mark.parametrize("args,words", [
    (["check", "4x", "--table", "2c"], "'4x' is not a card"),
    (["check", "4s", "--table", "4s 5c"], "both the played card and on the table"),
    (["check", "4s", "--table", "5c 5c"], "named twice"),
    (["check", "4s", "--table", "5c", "--take", "7c"], "not on the table"),
    (["check", "4s", "--table", "5c", "--rule", "nope=1"], "not a rule option"),
    (["check", "4s", "--table", "5c", "--rule", "sur_points=lots"], "whole number"),
    (["check", "4s", "--table", "5c", "--rule", "teams"], "NAME=VALUE"),
    (["check", "4s", "--table", "5c", "--rules", "house"], "not a preset"),
    (["rules", "house"], "not a preset"),
])
def test_bad_input_exits_2(args, words):
    result = run(*args)
    assert result.exit_code == 2
    assert words in result.output


def test_rules_lists_every_option():
    result = run("rules")
    assert result.exit_code == 0
    for name in OPTION_NAMES:
        assert name in result.output
    data = json.loads(run("rules", "pagat", "--json").output)
    assert data["presets"] == {"pagat": PRESETS["pagat"].as_dict()} and set(data["meanings"]) == set(OPTION_NAMES)
