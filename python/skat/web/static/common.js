// What the table (app.js) and the record viewer (viewer.js) share: building elements, cards in
// French or German faces, the two languages of the page, messages and the JSON API.
// The reader's choices are kept in localStorage: "skat-lang" (en, de), "skat-faces" (french,
// german). Every API request carries ?lang=, so the server says its words in that language too.
"use strict";

const SUITS = { C: "♣", S: "♠", H: "♥", D: "♦" };
const LANG = ["en", "de"].includes(localStorage.getItem("skat-lang")) ? localStorage.getItem("skat-lang") : "en";
const FACES = localStorage.getItem("skat-faces") === "german" ? "german" : "french";

// German faces: Eichel (acorns) for clubs, Grün (leaves) for spades, Herz, Schellen (bells) for
// diamonds; Unter and Ober for jack and queen.
const GERMAN_SUITS = {
  C: '<svg viewBox="0 0 20 24" aria-hidden="true"><ellipse cx="10" cy="15" rx="5.5" ry="7.5" fill="#8a5a2b"/><path d="M3.5 11 Q10 2 16.5 11 Z" fill="#5a3a1b"/><path d="M10 3 L10 0.5" stroke="#5a3a1b" stroke-width="1.5"/></svg>',
  S: '<svg viewBox="0 0 20 24" aria-hidden="true"><path d="M10 1.5 C19 8 18 19 10 22.5 C2 19 1 8 10 1.5 Z" fill="#2e8b3a"/><path d="M10 4 L10 23" stroke="#1d5e26" stroke-width="1.2"/></svg>',
  H: '<svg viewBox="0 0 20 24" aria-hidden="true"><path d="M10 21 C1 14 1 6 6 5 C8.5 4.5 10 7 10 7 C10 7 11.5 4.5 14 5 C19 6 19 14 10 21 Z" fill="#c8102e"/></svg>',
  D: '<svg viewBox="0 0 20 24" aria-hidden="true"><circle cx="10" cy="13" r="7.5" fill="#e0a800"/><rect x="3.5" y="11.5" width="13" height="2" fill="#8a6500"/><circle cx="10" cy="17.5" r="1.6" fill="#8a6500"/><path d="M10 5.5 L10 3" stroke="#8a6500" stroke-width="1.5"/></svg>',
};
const GERMAN_RANKS = { J: "U", Q: "O" };

// German words of the page; the English text is the key ({name}-style placeholders).
const GERMAN = {
  "Your seat": "Dein Platz", "forehand": "Vorhand", "middlehand": "Mittelhand", "rearhand": "Hinterhand",
  "Pass it on": "Weiterschieben", "All pass": "Alle passen", "passed in": "eingepasst", "Ramsch: the fewest card points win": "Ramsch: die wenigsten Augen gewinnen",
  "Games": "Spiele", "rated": "gewertet", "Seed": "Seed", "New list": "Neue Liste", "Play with friends": "Mit Freunden spielen",
  "link to this list": "Link zu dieser Liste", "Hint": "Tipp", "Auction": "Reizen",
  "Score sheet": "Spielliste", "Take back": "Zurücknehmen", "Claim the rest": "Rest beanspruchen",
  "Concede the rest": "Rest abgeben", "Resign": "Aufgeben",
  "Analysis: where was it lost?": "Analyse: wo ging es verloren?",
  "Download game (ISS)": "Spiel herunterladen (ISS)", "Download list (ISS)": "Liste herunterladen (ISS)",
  "List statistics": "Listenstatistik", "Next game": "Nächstes Spiel",
  "Analysis with every card open": "Analyse mit allen Karten offen",
  "trick": "Stich", "player": "Spieler", "card": "Karte", "best": "beste", "verdict": "Urteil",
  "points": "Punkte", "declared": "gespielt", "won": "gewonnen", "lost": "verloren",
  "win rate": "Gewinnquote", "suit / grand / null": "Farbe / Grand / Null",
  "Table for three": "Tisch für drei",
  "Share this link with the friends who play with you (anyone who opens it without joining watches):":
    "Teile diesen Link mit den Freunden, die mitspielen (wer ihn öffnet, ohne Platz zu nehmen, schaut zu):",
  "Your name": "Dein Name", "Take a seat": "Platz nehmen",
  "Start the list (the AI takes the free seats)": "Liste starten (die KI nimmt die freien Plätze)",
  "Cards: click to play. Hint shows the Monte Carlo search's view of every legal card. After a game, the analysis replays it with all hands open.":
    "Karten: zum Spielen anklicken. Der Tipp zeigt die Monte-Carlo-Suche zu jeder erlaubten Karte. Nach dem Spiel spielt die Analyse es mit allen Karten offen nach.",
  "Your turn: play a card": "Du bist dran: spiel eine Karte", "Your bid": "Dein Gebot",
  "Hold {bid} or pass?": "{bid} halten oder passen?", "Pick up the skat or play hand": "Skat aufnehmen oder Hand spielen",
  "Put two cards away": "Drück zwei Karten", "Declare your game": "Sag dein Spiel an",
  "{name} is thinking…": "{name} denkt nach…", "Bid": "Reizen", "Play hand": "Hand spielen", "or": "oder",
  "below the bid": "unter dem Reizwert", "Choose two cards to put away": "Wähle zwei Karten zum Drücken",
  "Put away {cards}": "{cards} drücken", "Pick up the skat": "Skat aufnehmen",
  "{card} is not playable now: follow suit if you can.": "{card} ist jetzt nicht erlaubt: Farbe bedienen, wenn du kannst.",
  "lost contact with the server: {error}": "Verbindung zum Server verloren: {error}",
  "Cannot resume list {list}: {error}": "Liste {list} lässt sich nicht fortsetzen: {error}",
  "analysing every card with all hands open…": "jede Karte wird mit allen Karten offen analysiert…",
  "win": "Gewinn", "your points": "deine Augen", "thinking…": "denkt nach…",
  "−{n} card points": "−{n} Augen", "turned the game": "hat das Spiel gedreht", "best play": "beste Spielweise",
  "forced": "erzwungen", "followed the hint": "folgte dem Tipp",
  "trick {n}: {takes} {points} points": "Stich {n}: {takes} {points} Augen",
  "you take": "du bekommst", "{name} takes": "{name} bekommt",
  "You play {contract} · bid {bid}": "Du spielst {contract} · gereizt {bid}",
  "{name} plays {contract} · bid {bid}": "{name} spielt {contract} · gereizt {bid}",
  "You win the auction at {bid}": "Du gewinnst das Reizen bei {bid}",
  "{name} wins the auction at {bid}": "{name} gewinnt das Reizen bei {bid}",
  "bidding: {bid}": "Reizen: {bid}", "bidding": "Reizen",
  "game {game} of {games} · seed {seed}": "Spiel {game} von {games} · Seed {seed}",
  "game": "Spiel", "{played} of {games} · won–lost": "{played} von {games} · gewonnen–verloren",
  "declarer": "Alleinspieler", "defender": "Gegenspieler", "{n} tricks": "{n} Stiche", "to move": "am Zug",
  "put away:": "gedrückt:", "skat": "Skat",
  "This table no longer exists: start a new one from the front page.": "Diesen Tisch gibt es nicht mehr: starte einen neuen auf der Startseite.",
  "table for three · {games} game(s)": "Tisch für drei · {games} Spiel(e)",
  "free (the AI plays if nobody joins)": "frei (die KI spielt, wenn niemand kommt)", " (you)": " (du)",
  "Your name at the table": "Dein Name am Tisch",
  "French cards": "Französisches Blatt", "German cards": "Deutsches Blatt",
  // the record viewer
  "Open an ISS record file (one game a line)": "Öffne eine ISS-Datei (ein Spiel pro Zeile)", "Play": "Spielen",
  "Result": "Ergebnis", "Analysis": "Analyse", "(every card open)": "(alle Karten offen)",
  "Cannot open {name}: {error}": "{name} lässt sich nicht öffnen: {error}",
  "{name}: {n} game(s)": "{name}: {n} Spiel(e)", ", {n} unreadable line(s)": ", {n} unlesbare Zeile(n)",
  "analysing…": "wird analysiert…", "everybody passed": "alle haben gepasst", "unfinished": "nicht beendet",
  "Trick": "Stich", "Trick {n}": "Stich {n}", ": {name} wins": ": {name} bekommt ihn",
  "before the first card ({n})": "vor der ersten Karte ({n})", "card {k} of {n}": "Karte {k} von {n}",
  "Step through the game with ▶ or the → key.": "Geh mit ▶ oder der Taste → durch das Spiel.",
  "no analysis for this card": "keine Analyse für diese Karte", "(the only legal card)": "(die einzige erlaubte Karte)",
  "{outcome}, value {value}, declarer's card points {points}; scores {scores}":
    "{outcome}, Wert {value}, Augen des Alleinspielers {points}; Punkte {scores}",
};

function tr(text, vars = {}) {
  const t = LANG === "de" && GERMAN[text] !== undefined ? GERMAN[text] : text;
  return t.replace(/\{(\w+)\}/g, (_, k) => (vars[k] !== undefined ? String(vars[k]) : `{${k}}`));
}

function translatePage() {
  document.documentElement.lang = LANG;
  document.body.dataset.faces = FACES;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = tr(node.dataset.i18n);
  for (const node of document.querySelectorAll("[data-i18n-placeholder]")) node.placeholder = tr(node.dataset.i18nPlaceholder);
  const langSel = document.getElementById("lang-select");
  if (langSel) {
    langSel.value = LANG;
    langSel.addEventListener("change", () => { localStorage.setItem("skat-lang", langSel.value); window.location.reload(); });
  }
  const faceSel = document.getElementById("faces-select");
  if (faceSel) {
    faceSel.value = FACES;
    faceSel.addEventListener("change", () => { localStorage.setItem("skat-faces", faceSel.value); window.location.reload(); });
  }
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function suitNode(suit, cls) {
  const node = el("span", { class: cls });
  if (FACES === "german") node.innerHTML = GERMAN_SUITS[suit];
  else node.textContent = SUITS[suit];
  return node;
}

function rankText(letterOrText) {
  const r = letterOrText === "T" ? "10" : letterOrText;
  return FACES === "german" && GERMAN_RANKS[r] ? GERMAN_RANKS[r] : r;
}

function cardEl(card, tag = "div", extra = "") {
  const node = el(tag, { class: `card ${extra}`.trim(), dataset: { card: card.card, suit: card.suit },
                         title: card.text, "aria-label": card.text });
  node.append(el("span", { class: "rank", text: rankText(card.rank) }), suitNode(card.suit, "suit"));
  if (tag === "button") node.type = "button";
  return node;
}

function mini(code) {
  const node = el("span", { class: "mini", dataset: { suit: code[0] } });
  node.append(suitNode(code[0], "pip"), rankText(code[1]));
  return node;
}

function cardName(code) {
  return (FACES === "german" ? "" : SUITS[code[0]]) + rankText(code[1]) + (FACES === "german" ? ` ${({ C: "Eichel", S: "Grün", H: "Herz", D: "Schellen" })[code[0]]}` : "");
}

function say(text, error = false) {
  const box = document.getElementById("message");
  box.hidden = !text;
  box.textContent = text || "";
  box.className = error ? "error" : "";
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    if (typeof body === "string") options.body = body;
    else { options.headers["Content-Type"] = "application/json"; options.body = JSON.stringify(body); }
  }
  const url = path + (path.includes("?") ? "&" : "?") + `lang=${LANG}`;
  const response = await fetch(url, options);
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    const message = (data && data.error) || `${response.status} ${response.statusText}`;
    const err = new Error(message);
    err.status = response.status;
    throw err;
  }
  return { status: response.status, data };
}
