"""The engine: cards, rules, captures, a deal, a match, scoring, tallies, the record format.

Pure: no file, database, terminal or click, and no process-wide language. Every game decision is
made here; the store keeps matches, the text layer writes sentences, the command line asks.
"""
