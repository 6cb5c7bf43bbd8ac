// The record viewer: opens an ISS record file through the server (POST /api/records), lists its
// games and steps through one card by card with every hand shown, next to the open-handed
// analysis of each card. Plain JavaScript, no build step (helpers: common.js); the API is in
// skat/web/app.py.
"use strict";

const SEATS = ["forehand", "middlehand", "rearhand"];
let file = null;       // the listing of the open file
let game = null;       // the game shown (GET /api/records/{id}/games/{n})
let analysis = null;   // its analysis, once computed
let step = 0;          // cards played so far in the view

// ----- the file -------------------------------------------------------------------------

async function openFile(event) {
  const chosen = event.target.files[0];
  if (!chosen) return;
  say("");
  try {
    const text = await chosen.text();
    const { data } = await api("POST", `/api/records?name=${encodeURIComponent(chosen.name)}`, text);
    file = data;
    document.body.dataset.loaded = "true";
    drawListing();
    await showGame(1);
  } catch (e) {
    say(tr("Cannot open {name}: {error}", { name: chosen.name, error: e.message }), true);
  }
}

function resultText(g) {
  if (g.passed) return "passed";
  if (g.won === null) return "unfinished";
  return `${g.won ? "won" : "lost"} ${g.value > 0 ? "+" : ""}${g.value}`;
}

function drawListing() {
  const info = document.getElementById("file-info");
  info.textContent = tr("{name}: {n} game(s)", { name: file.name, n: file.games.length }) +
    (file.errors.length ? tr(", {n} unreadable line(s)", { n: file.errors.length }) : "");
  const body = document.querySelector("#games tbody");
  body.replaceChildren(...file.games.map((g) => el("tr", {
    dataset: { game: g.game }, onclick: () => showGame(g.game) },
    el("td", { text: g.game }),
    el("td", { text: g.declarer === null ? "-" : g.names[g.declarer] }),
    el("td", { text: g.contract || "-" }),
    el("td", { text: resultText(g) }))));
  document.getElementById("bad-lines").replaceChildren(
    ...file.errors.slice(0, 20).map((e) => el("li", { text: `line ${e.line}: ${e.message}` })));
}

async function showGame(n) {
  try {
    const { data } = await api("GET", `/api/records/${file.id}/games/${n}`);
    game = data;
    analysis = null;
    step = 0;
    document.getElementById("board").hidden = false;
    for (const row of document.querySelectorAll("#games tbody tr"))
      row.classList.toggle("current", Number(row.dataset.game) === n);
    drawFacts();
    draw();
    loadAnalysis(n);
  } catch (e) {
    say(e.message, true);
  }
}

async function loadAnalysis(n) {
  document.getElementById("summary").replaceChildren(el("li", { text: tr("analysing…") }));
  document.getElementById("moves").replaceChildren();
  try {
    for (;;) {
      const { status, data } = await api("GET", `/api/records/${file.id}/games/${n}/analysis?wait=20`);
      if (!game || game.game !== n) return;          // another game was opened meanwhile
      if (status === 200) { analysis = data; break; }
    }
    document.getElementById("summary").replaceChildren(...analysis.summary.map((s) => el("li", { text: s })));
    document.getElementById("moves").replaceChildren(...analysis.moves.map((m) => el("li", {
      class: m.costly ? "costly" : "", value: m.number, dataset: { number: m.number },
      onclick: () => { step = m.number; draw(); } }, `${game.names[m.seat]}, ${m.text}`)));
    draw();
  } catch (e) {
    document.getElementById("summary").replaceChildren(el("li", { text: e.message }));
  }
}

// ----- drawing --------------------------------------------------------------------------

function startHand(seat) {
  let cards = game.hands[seat].slice();
  if (seat === game.declarer && game.picked_up && game.discard) {
    const away = new Set(game.discard.map((c) => c.card));
    cards = cards.concat(game.skat).filter((c) => !away.has(c.card));
  }
  return cards;
}

function drawFacts() {
  document.getElementById("game-title").textContent =
    `Game ${game.game}` + (game.contract ? `: ${game.names[game.declarer]} plays ${game.contract}` : "");
  document.getElementById("auction").replaceChildren(...game.auction.map((a) =>
    el("li", { text: `${a.seat === null ? "" : game.names[a.seat] + ": "}${a.action}` })));
  const r = game.result;
  const box = document.getElementById("result");
  if (game.passed) { box.textContent = tr("everybody passed"); return; }
  if (!r) { box.textContent = tr("unfinished"); return; }
  box.textContent = tr("{outcome}, value {value}, declarer's card points {points}; scores {scores}", {
    outcome: tr(r.won ? "won" : "lost"), value: r.value, points: r.declarer_points, scores: r.scores.join(" / ") });
}

function draw() {
  const total = game.cards.length;
  step = Math.max(0, Math.min(step, total));
  document.body.dataset.step = String(step);
  const played = new Set(game.cards.slice(0, step).map((c) => c.card));
  const next = game.cards[step];
  for (const seat of [0, 1, 2]) {
    const box = document.getElementById(`seat-${seat}`);
    box.classList.toggle("to-move", !!next && next.seat === seat);
    const badge = seat === game.declarer ? " (declarer)" : "";
    box.replaceChildren(
      el("div", { class: "name", text: `${game.names[seat]}, ${SEATS[seat]}${badge}` }),
      el("div", { class: "cards small" }, ...startHand(seat).map((c) =>
        cardEl(c, "div", played.has(c.card) ? "gone" : ""))));
  }
  const skat = document.getElementById("skat");
  skat.replaceChildren(...game.skat.map((c) => cardEl(c)));
  if (game.discard) skat.append(el("span", { class: "label", text: ` ${tr("put away:")}` }),
                                ...game.discard.map((c) => cardEl(c)));
  const trickBox = document.getElementById("trick-cards");
  const label = document.getElementById("trick-label");
  if (step === 0) {
    trickBox.replaceChildren();
    label.textContent = tr("Trick");
  } else {
    const t = game.cards[step - 1].trick;
    const shown = game.cards.slice(0, step).filter((c) => c.trick === t);
    const complete = shown.length === 3 && shown[0].winner !== null;
    label.textContent = tr("Trick {n}", { n: t }) + (complete ? tr(": {name} wins", { name: game.names[shown[0].winner] }) : "");
    trickBox.replaceChildren(...shown.map((c) => {
      const node = cardEl(c, "div", complete && c.seat === c.winner ? "won" : "");
      node.append(el("span", { class: "who", text: game.names[c.seat] }));
      return node;
    }));
  }
  document.getElementById("step-label").textContent = step === 0
    ? tr("before the first card ({n})", { n: total }) : tr("card {k} of {n}", { k: step, n: total });
  drawVerdict();
  for (const li of document.querySelectorAll("#moves li"))
    li.classList.toggle("current", Number(li.dataset.number) === step);
}

function drawVerdict() {
  const box = document.getElementById("verdict");
  box.className = "panel";
  if (step === 0) { box.textContent = tr("Step through the game with ▶ or the → key."); return; }
  const move = analysis && analysis.moves.find((m) => m.number === step);
  if (!move) { box.textContent = analysis ? tr("no analysis for this card") : tr("analysing…"); return; }
  if (move.costly) box.classList.add("costly");
  const values = Object.entries(move.values).map(([card, v]) => el("span", {
    class: `value${move.best.includes(card) ? " best" : ""}${card === move.card ? " played" : ""}`,
    text: `${SUITS[card[0]]}${card[1] === "T" ? "10" : card[1]} ${v}` }));
  box.replaceChildren(el("div", { text: move.text }),
                      move.forced ? el("div", { text: tr("(the only legal card)") }) : el("div", { class: "values" }, ...values));
}

function go(to) {
  if (!game) return;
  step = to;
  draw();
}

document.addEventListener("DOMContentLoaded", () => {
  translatePage();
  document.getElementById("file-input").addEventListener("change", openFile);
  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("prev").addEventListener("click", () => go(step - 1));
  document.getElementById("next").addEventListener("click", () => go(step + 1));
  document.getElementById("last").addEventListener("click", () => go(game ? game.cards.length : 0));
  document.addEventListener("keydown", (e) => {
    if (!game || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") go(step + 1);
    else if (e.key === "ArrowLeft") go(step - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(game.cards.length);
    else return;
    e.preventDefault();
  });
});
