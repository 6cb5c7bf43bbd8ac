"""The browser front end, ``skat serve``: a Starlette app (:mod:`skat.web.app`) serving a
JSON API and one static page (``static/``: HTML, CSS and plain JavaScript), run by uvicorn
(:mod:`skat.web.server`). Each browser session plays its own :class:`skat.ui.session.Session`."""
