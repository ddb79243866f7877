"""`pasur serve`: a live scoreboard in a web browser, for a TV and the players' phones."""

from __future__ import annotations

import click

from pasur_cli.cli.app import Count, PasurCommand, Refused, current, open_store, store_options
from pasur_cli.cli.extras import extra_command, installed_origin
from pasur_cli.text.i18n import _

DEFAULT_PORT = 8062


def lan_address() -> str:
    """This computer's address on the local network: the one a packet to a private address would
    leave from (a UDP socket is only connected, nothing is sent); 127.0.0.1 when there is none."""
    import socket
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def qr_text(url: str) -> str:
    """``url`` as a QR code drawn with text (half blocks: two rows of modules a line; a quiet zone of
    two modules, so that with the lines around it it fits a terminal of 24 lines)."""
    import io

    import segno
    out = io.StringIO()
    segno.make(url, error="m", micro=False).terminal(out=out, compact=True, border=2)
    return out.getvalue().rstrip("\n")


@click.command(cls=PasurCommand)
@click.option("--port", type=Count(0), default=DEFAULT_PORT, show_default=True, metavar="P",
              help="The port to listen on (0: any free port).")
@click.option("--lan", is_flag=True,
              help="Listen on the local network too, with a secret token in the address (and its QR code)."
              " Without it only this computer can open the page.")
@click.option("--event", "event_name", metavar="NAME",
              help="Show this event: its standings and every table of its current round, live.")
@store_options
@click.pass_context
def serve(ctx: click.Context, port: int, lan: bool, event_name: str | None) -> None:
    """A live scoreboard in the web browser, for a TV and the players' phones.

    The score, the deal's race, the table, the last play and the chart of the running totals,
    updated by itself after every play, undo or tally. Read-only. Without --match it follows the
    match being played; with several tables in play it shows them all, a tile each, and each
    tile opens that table's board, at an address of its own (for a TV per table). With --event
    it shows that event: its standings and a tile for each table of the round. Ctrl-C stops it."""
    import asyncio
    import gc
    import secrets
    import socket

    gc.enable()  # the scoreboard serves for hours: its cycles are collected (see PasurGroup.invoke)

    try:
        import uvicorn

        from pasur_cli.web import connections, quiet
        from pasur_cli.web.app import create_app
    except ImportError as err:
        raise Refused(_("pasur serve needs its extra packages: {command} ({missing} is missing).")
                      .format(command=extra_command(installed_origin(), "serve"), missing=err.name)) from None
    from pasur_cli.text import i18n

    store = open_store(ctx)  # the file must be a pasur database; the page follows it from its own connection
    chosen = ctx.meta.get("pasur.match_id")
    if event_name is not None:
        if ctx.get_parameter_source("match_id") is click.core.ParameterSource.COMMANDLINE:
            raise click.UsageError(_("--event and --match cannot be used together."))
        from pasur_cli.store.events import find_event
        event_name, chosen = find_event(store, event_name).name, None  # the event's page, whatever PASUR_MATCH says
    elif chosen is not None:
        current(ctx, store)  # --match names a match that is there (without it, the page waits for one)
    path = store.path
    store.close()
    plan = connections.Plan.of(connections.raise_open_files())
    token = secrets.token_urlsafe(16) if lan else None
    host = "0.0.0.0" if lan else "127.0.0.1"
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(plan.backlog)  # a viewer that comes before the server runs waits in the queue
    except OSError as err:
        sock.close()
        raise Refused(_("cannot listen on port {port}: {reason}; try another with --port.")
                      .format(port=port, reason=err.strerror or err)) from None
    port = sock.getsockname()[1]
    url = f"http://{lan_address() if lan else '127.0.0.1'}:{port}/" + (f"{token}/" if token else "")

    def banner() -> None:  # once the page has its first state: Ctrl-C from here on stops a running server
        if lan:  # the code first: the address and what to do stay on the screen below it (80x24)
            click.echo(qr_text(url))
        click.echo(_("The scoreboard is at {url}").format(url=url))
        if lan:
            click.echo(_("Anyone on this network with this address (or the QR code) can watch."))
            click.echo(_("The page is read-only: nobody can change anything from it."))
        else:
            click.echo(_("Only this computer can open it; add --lan to show it on phones and a TV."))
        click.echo(_("Ctrl-C stops the server."))

    app, hub = create_app(path, chosen, i18n.language(), token, banner, event_name)

    gate = connections.Gate(plan.bound)

    class Server(uvicorn.Server):
        async def serve(self, sockets: list[socket.socket] | None = None) -> None:
            asyncio.get_running_loop().set_exception_handler(quiet.loop_error)
            await super().serve(sockets)

        def handle_exit(self, sig: int, frame: object) -> None:
            hub.close_soon()  # end every viewer's stream, or uvicorn would wait on them
            super().handle_exit(sig, frame)  # type: ignore[arg-type]

    # the asyncio loop: the bound's margin (one accept burst of ``backlog``) is reckoned for its accept
    config = uvicorn.Config(app, http=connections.door(gate), loop="asyncio", backlog=plan.backlog,
                            timeout_keep_alive=int(connections.KEEP_ALIVE), log_config=quiet.config(),
                            log_level="warning", access_log=False, lifespan="on", timeout_graceful_shutdown=2)
    try:
        Server(config).run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn raises the Ctrl-C again once it has stopped: the way to stop, exit 0
        pass
    finally:
        gate.say()  # what was closed since last said
        sock.close()
