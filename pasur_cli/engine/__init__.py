"""The engine: cards, rules, captures, a deal, a match, scoring, tallies, an action's one schema
and table of limits, the record format, a match's events, the record book across matches, names,
reading typed digits and letters, "did you mean", and the analysis (``advice`` on ``playout``).

Pure: no file, database, terminal or click, and no process-wide language. Every game decision is
made here; the store keeps matches, the text layer writes sentences, the command line asks.
"""
