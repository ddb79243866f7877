"""`pasur serve`'s live scoreboard: a read-only web page that follows a match as it is played.

``state`` builds what the page shows from the store, as the JSON that ``show --json``,
``score --json`` and ``log --json`` print; ``app`` is the server (Starlette on uvicorn, the
``serve`` extra): the page, that JSON, and server-sent events pushed by one watcher of the
database; ``static/`` is the page itself (HTML, CSS and JavaScript, no build step, nothing from
elsewhere).
"""
