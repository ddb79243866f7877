"""`pasur rules`: every rule option, its value in each preset, and what it means."""

from __future__ import annotations

import click

from pasur_cli.cli.app import PasurCommand, complete_presets, json_option
from pasur_cli.engine.errors import NotationError
from pasur_cli.engine.rules import PRESETS
from pasur_cli.text import render, shapes


@click.command(cls=PasurCommand)
@click.argument("preset", required=False, shell_complete=complete_presets)
@json_option
def rules(preset: str | None, as_json: bool) -> None:
    """Every rule option with its value in each preset (or in PRESET) and what it means."""
    if preset is not None and preset.lower() not in PRESETS:
        raise NotationError("{preset!r} is not a preset; choose one of {presets}.", preset=preset,
                            presets=", ".join(PRESETS))
    names = [preset.lower()] if preset else list(PRESETS)
    if as_json:
        click.echo(shapes.dumps(shapes.rules_json(names)))
    else:
        from pasur_cli.cli.screen import page, terminal_size
        page(render.rules_text(names, terminal_size().columns))
