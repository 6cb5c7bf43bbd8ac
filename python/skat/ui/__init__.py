"""Playing against the AI, whatever the front end: a list of games (:mod:`skat.ui.session`),
hints, the post-game analysis (:mod:`skat.ui.analysis`), shared words
(:mod:`skat.ui.common`) and the terminal front end (:mod:`skat.ui.terminal`, ``skat play``).
The browser front end is :mod:`skat.web` (``skat serve``)."""
