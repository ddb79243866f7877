"""Write the example season in this folder: python examples/make_season.py

Six match records (`pasur import` reads each) of one family: Ali, Sara, Reza and Mina, two to
four at a time, teams and solo, pagat and standard rules, one deal tallied, the last match not
finished. Every card is a legal play chosen at random by the engine (tests/simulate.py) from a
fixed seed, so running this again writes the same files.
"""

from __future__ import annotations

import json
import random
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "tests"))

from matchbook import random_actions, random_tally  # noqa: E402

from pasur_cli.engine.match import Match  # noqa: E402
from pasur_cli.engine.rules import parse_rules  # noqa: E402

SEASON = [  # players in seat order, preset, overrides, first dealer, tallied deals, cut after N actions
    (["Ali", "Sara"], "pagat", [], 0, 0.0, None),
    (["Ali", "Sara", "Reza", "Mina"], "standard", [], 1, 0.0, None),
    (["Sara", "Reza", "Ali"], "standard", [], 0, 0.0, None),
    (["Mina", "Ali", "Sara", "Reza"], "standard", [], 2, 0.0, None),
    (["reza", "Mina"], "pagat", [], 1, 0.3, None),
    (["Ali", "Sara", "Reza", "Mina"], "standard", ["teams=false"], 0, 0.0, 70),
]


def main() -> None:
    rng = random.Random(2026)
    when = datetime(2026, 9, 4, 19, 0, tzinfo=UTC)
    for number, (players, preset, overrides, dealer, tallies, cut) in enumerate(SEASON, 1):
        rules = parse_rules(preset, overrides)
        match = Match(players, rules, dealer)
        if tallies:  # the first deal counted from the piles, not entered card by card
            first = random_tally(rng, match)
            match.apply(first)
            actions = [first, *random_actions(rng, match, tallies=0.0)]
        else:
            actions = random_actions(rng, match, tallies=0.0)
        if cut is not None:
            actions = actions[:cut]
        start = when + timedelta(days=7 * (number - 1))
        times = [(start + timedelta(seconds=20 * i)).isoformat() for i in range(1, len(actions) + 1)]
        head = {"format": "pasur-match", "version": 1, "players": players, "dealer": players[dealer],
                "rules": rules.as_dict(), "created": start.isoformat()}
        lines = [json.dumps({"at": at, "action": action}, ensure_ascii=False)
                 for at, action in zip(times, actions, strict=True)]
        # one action a line: a record a person can read and diff
        text = (json.dumps(head, ensure_ascii=False, indent=1)[:-2] + ',\n "actions": [\n  '
                + ",\n  ".join(lines) + "\n ]\n}\n")
        json.loads(text)
        (HERE / f"season-{number}.json").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
