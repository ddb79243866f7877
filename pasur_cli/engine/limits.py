"""The one table of limits: what a name, an action and a match may hold.

The engine checks them where its values are made (``names.check_players`` for a match's names,
``action.read_action`` for an action), and the store and the record reader enforce them by
calling those, so a value one of them accepts is one every other accepts.
"""

from __future__ import annotations

NAME_MOST = 40          # characters in a player's name, as stored (NFC, surrounding spaces removed)
NAME_TEXT_MOST = 4 * NAME_MOST  # characters of a name as given, before NFC (a decomposed accent is two)
SIDE_TEXT_MOST = 2 * NAME_TEXT_MOST + 3  # a team's side: two names joined by " & "
TABLE_CARDS = 4         # cards on the initial table
TAKE_MOST = 48          # cards a capture can name (the table can never hold more)
PILE_MOST = 52          # cards in one side's pile
SIDES_MOST = 4          # sides a tally names
SURS_MOST = 48          # surs one side can hold at the end of a deal (at most one a play)
COUNT_KEYS = ("clubs", "aces", "jacks", "two_clubs", "ten_diamonds", "seven_diamonds")
COUNT_MOST = {"clubs": 13, "aces": 4, "jacks": 4}  # the cards of each count there are
# actions one match holds (about 400 deals played card by card, or 20,000 tallied deals): the store
# records no more, and so an import reads no more, and the bytes it reads follow (engine.record)
ACTIONS_MOST = 20_000
