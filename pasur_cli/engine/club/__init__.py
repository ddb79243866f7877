"""A club night: an event's entrants, its rounds' pairings and its standings, computed from plain
values (no files, no terminals): the store keeps the rows, the text layer writes them."""
