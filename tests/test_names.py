"""Players' names as Persian, German and Spanish keyboards type them: the zero-width joiners of
Persian spelling are kept, every other control or format character is refused naming its code
point and its kind (never Unicode's English name for it), and a name typed with the Arabic yeh
and kaf is the name stored with the Persian ones wherever a typed name meets a player."""

from __future__ import annotations

import json
import unicodedata

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from pasur_cli.engine.errors import IllegalPlayError, Words
from pasur_cli.engine.match import Match
from pasur_cli.engine.names import check_players, name_key
from pasur_cli.engine.rules import PRESETS

ZWNJ, ZWJ = "\u200c", "\u200d"
MEHRANGIZ = "مهر" + ZWNJ + "انگیز"  # Mehr-angiz as a Persian keyboard types it
KINDS = {"a control character", "a format character", "a text direction mark", "a line break", "a lone surrogate"}
BIDI = [chr(c) for c in (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))]
LETTERS = st.characters(categories=("Lu", "Ll", "Lo"), exclude_characters="\u115f\u1160\u3164\uffa0")
REFUSED = st.one_of(st.characters(categories=("Cc", "Cf", "Zl", "Zp"), exclude_characters=ZWNJ + ZWJ),
                    st.sampled_from(BIDI))


def insert(text: str, extra: list[tuple[int, str]]) -> str:
    for at, ch in extra:
        text = text[:at] + ch + text[at:]
    return text


@given(st.text(LETTERS, min_size=1, max_size=10), st.lists(st.tuples(st.integers(0, 12), st.sampled_from(ZWNJ + ZWJ)),
                                                          min_size=1, max_size=4))
def test_a_name_may_hold_the_joiners_of_persian_words(name, joiners):
    spelt = insert(name, joiners)
    assume(name_key(spelt) != name_key("Bob"))
    stored = check_players([spelt, "Bob"])[0]
    assert stored == unicodedata.normalize("NFC", spelt).strip()
    assert stored.count(ZWNJ) + stored.count(ZWJ) == len(joiners)  # kept, every one
    match = Match([stored, "Bob"], PRESETS["standard"])
    assert match.player_named(name) == match.player_named(spelt) == stored  # typed with or without them


@given(st.text(LETTERS, min_size=0, max_size=8), REFUSED, st.integers(0, 8))
def test_any_other_control_or_format_character_is_refused_naming_its_code_point_and_kind(name, bad, at):
    with pytest.raises(IllegalPlayError) as caught:
        check_players([insert(name, [(at, bad)]), "Bob"])
    err = caught.value
    assert err.facts["code"] == f"U+{ord(bad):04X}"
    assert isinstance(err.facts["what"], Words) and err.facts["what"].template in KINDS
    if bad in BIDI:
        assert err.facts["what"].template == "a text direction mark"
    assert unicodedata.name(bad, "\0").lower() not in str(err).lower()  # never Unicode's English name


def test_joiners_alone_show_nothing():
    for name in (ZWNJ, ZWJ + ZWNJ, " " + ZWNJ + " "):
        with pytest.raises(IllegalPlayError, match="shows nothing"):
            check_players([name, "Bob"])


PERSIAN = "ابپتثجچحخدذرزژسشصضطظعغفقکگلمنوهی"


@given(st.text(st.sampled_from(PERSIAN), min_size=1, max_size=8), st.data())
def test_arabic_yeh_and_kaf_spell_the_persian_name(name, data):
    arabic = "".join(data.draw(st.sampled_from({"ی": "یيى", "ک": "کك"}.get(ch, ch))) for ch in name)
    assert name_key(arabic) == name_key(name)
    match = Match([name, "Bob"], PRESETS["standard"])
    assert match.player_named(arabic) == name
    with pytest.raises(IllegalPlayError, match=r"named twice|are the same name"):  # one name, so two players cannot have it
        check_players([name, arabic])


def test_names_that_differ_only_by_a_joiner_are_one_name():
    with pytest.raises(IllegalPlayError, match="are the same name"):
        check_players(["Ali", "A" + ZWNJ + "li"])


# -- every place a typed name meets a player ------------------------------------------------------
ALI, ALI_ARABIC = "علی", "علي"
MEHR_TYPED = "مهرانگيز"  # without the non-joiner, with the Arabic yeh


def test_new_accepts_a_persian_name_with_its_non_joiner(pasur, db):
    result = pasur("new", MEHRANGIZ, "سارا")
    assert result.exit_code == 0, result.output
    assert json.loads(pasur("export").output)["players"] == [MEHRANGIZ, "سارا"]


def test_a_typed_name_finds_its_player_everywhere(pasur, db):
    assert pasur("new", ALI, MEHRANGIZ, "--dealer", MEHR_TYPED).exit_code == 0  # --dealer
    assert json.loads(pasur("export").output)["dealer"] == MEHRANGIZ
    pasur("deal", "5C", "9D", "3H", "KS")
    played = pasur("play", "2S", "--by", ALI_ARABIC)  # --by
    assert played.exit_code == 0, played.output
    pasur("undo")
    pasur("undo")
    tallied = pasur("tally", "--count", f"{ALI_ARABIC}: clubs=8 aces=2 jacks=1 two_clubs=yes",  # tally NAME:
                    "--count", f"{MEHR_TYPED}: clubs=5 aces=2 jacks=3 ten_diamonds=yes", "--surs", f"{ALI_ARABIC}=1")
    assert tallied.exit_code == 0, tallied.output
    assert json.loads(pasur("score", "--json").output)["totals"] == {ALI: 17, MEHRANGIZ: 8}
    listed = json.loads(pasur("matches", "--json", "--player", ALI_ARABIC).output)  # matches --player
    assert [m["match"] for m in listed] == [1]
    stats = pasur("stats", "--json", "--player", MEHR_TYPED)  # stats --player
    assert stats.exit_code == 0, stats.output
    assert [r["name"] for r in json.loads(stats.output)["players"]] == [MEHRANGIZ]


def test_the_session_takes_a_typed_name_for_the_side_to_correct(pasur, db):
    pasur("new", ALI, "Sara", "--rules", "pagat")
    answers = ["tally", "clubs=8 aces=2 jacks=1 two_clubs=yes", "0", "clubs=4 aces=2 jacks=3 ten_diamonds=yes", "0",
               ALI_ARABIC, "clubs=9 aces=2 jacks=1 two_clubs=yes", "0"]
    result = pasur("session", input="\n".join(answers) + "\n")
    assert "is not a side or player" not in result.output
    assert json.loads(pasur("score", "--json").output)["totals"] == {ALI: 12, "Sara": 8}


def test_a_record_names_its_dealer_with_the_arabic_yeh(pasur, db, tmp_path):
    pasur("new", "Bob", ALI, "--dealer", ALI)
    record = json.loads(pasur("export").output)
    record["dealer"] = ALI_ARABIC
    path = tmp_path / "m.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    imported = pasur("import", path, "--again")  # into the file it came from
    assert imported.exit_code == 0, imported.output
    assert json.loads(pasur("export", "--match", "2").output)["dealer"] == ALI
