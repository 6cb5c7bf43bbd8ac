"""The terminal's own words in English and German (``skat play --lang de``).

Every line the terminal prints that is not a phrase of :mod:`skat.ui.words` (actions,
contracts, results, valuations, seat names) is a template here, with the same keys in both
languages and the same ``{fields}``; a test holds the two tables to that. Rich markup (``[bold]``
and the like) is part of the templates. The commands a person types (``help``, ``hint``,
``sheet``, ...) are the same in both languages.

>>> TERMINAL_WORDS["de"]["game_rule"].format(n=1, total=3)
'Spiel 1 von 3'
"""

from __future__ import annotations

HELP_EN = """\
Type the action shown in the prompt: a bid (18), y to hold, p to pass, s to pick up the skat,
a contract (G, C, S, H, D, N, NO; hand: GH, CHS, NOH, ...), two cards to put away (CJ ST), or
a card to play: its number in the prompt, or its name (CJ, HT or H10, ♥10); at a table with
Kontra: kontra or re.

Also at any prompt: hint (or ?) for the AI's advice, sheet for the score sheet, table to show
the table again, help, quit (or q). In card play: undo takes back your last card, claim (as
declarer) claims the rest, concede gives the rest up (as declarer: resign); a claim or a
concession is accepted only when it is certain with every card known."""

HELP_DE = """\
Tippe die Aktion aus der Eingabezeile: ein Gebot (18), y zum Halten, p zum Passen, s zum
Aufnehmen des Skats, ein Spiel (G, C, S, H, D, N, NO; Hand: GH, CHS, NOH, ...), zwei Karten zum
Drücken (CJ ST) oder eine Karte zum Ausspielen: ihre Nummer in der Eingabezeile oder ihren
Namen (CJ, HT oder H10, ♥10); mit Kontra: kontra oder re.

Außerdem jederzeit: hint (oder ?) für den Rat der KI, sheet für die Spielliste, table zeigt den
Tisch noch einmal, help, quit (oder q). Im Kartenspiel: undo nimmt deine letzte Karte zurück,
claim (als Alleinspieler) beansprucht den Rest, concede gibt den Rest ab (als Alleinspieler:
aufgeben); beides wird nur angenommen, wenn es mit allen Karten offen sicher ist. Die
Meldungen zu falschen Eingaben sind englisch."""


def unwrapped(text: str) -> str:
    r"""``text`` with the lines of each paragraph joined, so that the terminal wraps it at its
    own width (paragraphs are separated by blank lines).

    >>> unwrapped("a b\nc\n\nd")
    'a b c\nd'
    """
    return "\n".join(" ".join(p.split("\n")) for p in text.split("\n\n"))


TERMINAL_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "help": unwrapped(HELP_EN),
        "you": "[bold cyan]You[/]",
        "game_rule": "Game {n} of {total}",
        "you_are": "You are [bold]{seat}[/bold]; {dealer} dealt. Seats: {seats}",
        "your_hand": "Your hand",
        "your_hand_in": "Your hand ({contract})",
        "plays_line": "{who} {verb} {contract} (bid {bid}); tricks so far: {n}",
        "open_hand": "Open hand: {cards}",
        "open_hand_of": "Open hand of {who}: {cards}",
        "trick_so_far": "Trick: {cards}",
        "puts_away": "{who} puts two cards away",
        "declares": "{who} {verb} [bold]{contract}[/] (bid {bid})",
        "you_pick_up": "You pick up the skat: {cards}",
        "takes_trick": "  -> {who} {verb} trick {n} ({points} points)",
        "result_rule": "Result",
        "skat_dealt": "Skat dealt: {cards}",
        "put_away": "; put away: {cards}",
        "sheet_title": "Score sheet (Seeger-Fabian), {n} of {total} games",
        "col_declarer": "declarer",
        "col_game": "game",
        "col_value": "value",
        "won_lost": "won / lost",
        "analysing": "analysing every card with all hands open...",
        "analysis_rule": "Analysis of game {n}",
        "col_trick": "trick",
        "col_player": "player",
        "col_card": "card",
        "col_best": "best",
        "col_verdict": "verdict",
        "forced": "[dim]forced[/dim]",
        "hinted": "[cyan]followed the hint[/cyan]",
        "flipped": "[bold red]turned a won game into a lost one[/]",
        "points_lost": "[yellow]-{n} card points[/]",
        "best": "[green]best[/green]",
        "prompt_play": "Play a card{say}: {cards} > ",
        "prompt_or": " (or {word})",
        "prompt_hold": "Hold {bid}? (y = hold, p = pass) > ",
        "prompt_bid": "Your bid (bid {bids}{more}, p = pass) > ",
        "prompt_skat": "Pick up the skat (s) or play hand (see the list, e.g. GH) > ",
        "prompt_ramsch_skat": "Look at the skat and push two cards on (s) or pass it on (p) > ",
        "prompt_discard": "Put two cards away (e.g. {example}) > ",
        "prompt_declare": "Declare ({tokens}) > ",
        "with": "with {n}",
        "without": "without {n}",
        "hand_games": "Hand games",
        "games": "Games",
        "matadors_note": " (matadors without the skat)",
        "contracts_head": "{title}: token and value if won{extra}; your bid is {bid}",
        "below_bid": "  ! below your bid: lost unless a level reached in play lifts it",
        "took_back": "You took back {action}.",
        "no_card_number": "there is no card {n} here; type 1 to {count}",
        "bad_input": "[red]{error}[/red] (help lists what you can type)",
        "thinking_hint": "the AI is thinking about your move...",
        "hint": "[bold]Hint:[/bold] {text}",
        "col_win": "win chance",
        "col_points": "your card points",
        "trick_head": "[bold]Trick {n}[/bold]",
        "ai_thinking": "{name} is thinking...",
        "won_auction": "[bold]You win the auction at {bid}.[/bold]",
        "ramsch_start": "[bold]All passed: a Ramsch. The fewest card points win.[/bold]",
        "after_last": "List complete. a = analysis, save [FILE] = ISS records, Enter or q ="
        " quit > ",
        "after_game": "Enter = next game, a = analysis, save [FILE] = ISS records, sheet,"
        " q = quit > ",
        "not_understood": "[red]{text} is not understood here[/red]",
        "cannot_write": "[red]cannot write {path}: {error}[/red]",
        "written": "{n} game(s) written to {path} (ISS records)",
        "welcome": "[bold]Skat[/bold]: a list of {n} game(s), seed {seed}; opponents {opponents}."
        " Type help at any prompt.",
        "variants": "Table variants: {variants}.",
        "stopped": "Stopped.",
        "not_scored": " The game in progress is not scored.",
        "end_of_input": "\nEnd of input: stopped.",
        "interrupted": "\nInterrupted.",
    },
    "de": {
        "help": unwrapped(HELP_DE),
        "you": "[bold cyan]Du[/]",
        "game_rule": "Spiel {n} von {total}",
        "you_are": "Du sitzt in [bold]{seat}[/bold]; {dealer} hat gegeben. Plätze: {seats}",
        "your_hand": "Deine Karten",
        "your_hand_in": "Deine Karten ({contract})",
        "plays_line": "{who} {verb} {contract} (gereizt bis {bid}); Stiche bisher: {n}",
        "open_hand": "Offene Karten: {cards}",
        "open_hand_of": "Offene Karten von {who}: {cards}",
        "trick_so_far": "Stich: {cards}",
        "puts_away": "{who} drückt zwei Karten",
        "declares": "{who} {verb} [bold]{contract}[/] (gereizt bis {bid})",
        "you_pick_up": "Du nimmst den Skat auf: {cards}",
        "takes_trick": "  -> {who} {verb} Stich {n} ({points} Augen)",
        "result_rule": "Ergebnis",
        "skat_dealt": "Skat: {cards}",
        "put_away": "; gedrückt: {cards}",
        "sheet_title": "Spielliste (Seeger-Fabian), {n} von {total} Spielen",
        "col_declarer": "Alleinspieler",
        "col_game": "Spiel",
        "col_value": "Wert",
        "won_lost": "gewonnen / verloren",
        "analysing": "jede Karte wird mit offenen Karten analysiert ...",
        "analysis_rule": "Analyse von Spiel {n}",
        "col_trick": "Stich",
        "col_player": "Spieler",
        "col_card": "Karte",
        "col_best": "beste",
        "col_verdict": "Urteil",
        "forced": "[dim]erzwungen[/dim]",
        "hinted": "[cyan]dem Tipp gefolgt[/cyan]",
        "flipped": "[bold red]hat ein gewonnenes Spiel verloren gegeben[/]",
        "points_lost": "[yellow]-{n} Augen[/]",
        "best": "[green]beste[/green]",
        "prompt_play": "Spiel eine Karte{say}: {cards} > ",
        "prompt_or": " (oder {word})",
        "prompt_hold": "{bid} halten? (y = halten, p = passen) > ",
        "prompt_bid": "Dein Gebot ({bids}{more}, p = passen) > ",
        "prompt_skat": "Skat aufnehmen (s) oder Hand spielen (siehe Liste, z. B. GH) > ",
        "prompt_ramsch_skat": "Skat ansehen und zwei Karten weiterschieben (s) oder ungesehen"
        " weiterschieben (p) > ",
        "prompt_discard": "Zwei Karten drücken (z. B. {example}) > ",
        "prompt_declare": "Ansagen ({tokens}) > ",
        "with": "mit {n}",
        "without": "ohne {n}",
        "hand_games": "Handspiele",
        "games": "Spiele",
        "matadors_note": " (Spitzen ohne den Skat)",
        "contracts_head": "{title}: Kürzel und Wert bei Gewinn{extra}; gereizt bis {bid}",
        "below_bid": "  ! unter deinem Gebot: verloren, außer eine im Spiel erreichte Stufe hebt"
        " den Wert",
        "took_back": "Du hast {action} zurückgenommen.",
        "no_card_number": "hier gibt es keine Karte {n}; tippe 1 bis {count}",
        "bad_input": "[red]{error}[/red] (help zeigt, was du tippen kannst)",
        "thinking_hint": "die KI denkt über deinen Zug nach ...",
        "hint": "[bold]Tipp:[/bold] {text}",
        "col_win": "Gewinnchance",
        "col_points": "deine Augen",
        "trick_head": "[bold]Stich {n}[/bold]",
        "ai_thinking": "{name} denkt nach ...",
        "won_auction": "[bold]Du hast das Reizen bei {bid} gewonnen.[/bold]",
        "ramsch_start": "[bold]Alle haben gepasst: Ramsch. Die wenigsten Augen gewinnen.[/bold]",
        "after_last": "Liste fertig. a = Analyse, save [DATEI] = ISS-Protokolle, Enter oder q ="
        " Ende > ",
        "after_game": "Enter = nächstes Spiel, a = Analyse, save [DATEI] = ISS-Protokolle,"
        " sheet, q = Ende > ",
        "not_understood": "[red]{text} wird hier nicht verstanden[/red]",
        "cannot_write": "[red]{path} kann nicht geschrieben werden: {error}[/red]",
        "written": "{n} Spiel(e) nach {path} geschrieben (ISS-Protokolle)",
        "welcome": "[bold]Skat[/bold]: eine Liste von {n} Spiel(en), Seed {seed}; Gegner"
        " {opponents}. Tippe help für Hilfe.",
        "variants": "Tischvarianten: {variants}.",
        "stopped": "Beendet.",
        "not_scored": " Das laufende Spiel wird nicht gewertet.",
        "end_of_input": "\nEnde der Eingabe: beendet.",
        "interrupted": "\nAbgebrochen.",
    },
}
"""Template by language and key; the help paragraphs are unwrapped for the terminal to wrap."""

__all__ = ["HELP_DE", "HELP_EN", "TERMINAL_WORDS", "unwrapped"]
