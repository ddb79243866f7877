"""`pasur log`: a match's history, play by play."""

from __future__ import annotations

import click

from pasur_cli.cli.app import Count, PasurCommand, current, json_option, look, look_options, open_store, store_options
from pasur_cli.cli.screen import terminal_width


@click.command(cls=PasurCommand)
@click.option("--deal", "deal_number", type=Count(1), metavar="N",
              help="Only deal N (1 is the first deal).")
@json_option
@store_options
@look_options
@click.pass_context
def log(ctx: click.Context, deal_number: int | None, as_json: bool) -> None:
    """What happened in the match, play by play: each deal's table, every play with its hand and
    capture, the leftover table, and each deal's score (a tallied deal is one line). With --json,
    a list of events holding the engine's records."""
    from pasur_cli.engine.history import event_dict, match_events, no_such_deal, of_deal
    from pasur_cli.text import render_stats, shapes
    store = open_store(ctx)
    mid, _ = current(ctx, store)
    record, match = store.match(mid)  # a deal in progress that does not replay: damaged, as every command says
    if deal_number is not None and record.start:
        # one deal: replayed from the snapshot of the deal before it (checked), reading its actions alone
        last = len(match.results) + (match.deal is not None)
        if not 0 < deal_number <= last:
            raise no_such_deal(deal_number, last)
        results, start, actions = store.deal_actions(record, deal_number)
        events = of_deal(match_events(record.players, record.rules, record.dealer, actions, results, start),
                         deal_number)
    else:
        record = store.load(mid, full=True)
        record.replay()  # a log that does not replay: the match is damaged, said as every command says it
        events = match_events(record.players, record.rules, record.dealer, record.actions)
        if deal_number is not None:
            events = of_deal(events, deal_number)
    if as_json:
        click.echo(shapes.dumps([event_dict(e) for e in events]))
    else:
        from pasur_cli.cli.screen import page
        page(render_stats.log_text(look(ctx), mid, events, terminal_width()))
