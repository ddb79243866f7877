"""Presentation: sentences in the reader's language, cards, tables, charts and JSON shapes."""
