// The Skat table in the browser: draws the state the server sends and posts the person's moves.
// Plain JavaScript, no build step (helpers, languages and card faces: common.js). The API is
// described in skat/web/app.py and docs/play.md.
"use strict";

let state = null;          // the latest state from the server
let sid = null;            // the session id
let polling = false;       // a long poll is running
let selected = new Set();  // cards chosen to put away
let hintCard = null;       // the card the last hint suggests
let shownAnalysis = null;  // the game number whose analysis is shown
let cursor = null;         // the hand card the keyboard points at (its code)
// a table of several people: /room/ID; its secret seat key is kept in localStorage
const room = (window.location.pathname.match(/^\/room\/([^/]+)$/) || [])[1] || null;
let seatKey = room ? localStorage.getItem(`skat-room-${room}`) : null;
let socket = null;

// ----- the session ----------------------------------------------------------------------

function chosenVariants() {
  const words = ["kontra", "bock"].filter((v) => document.getElementById(`new-${v}`).checked);
  const ramsch = document.getElementById("new-ramsch").value;
  return (ramsch ? [...words, ramsch] : words).join(" ");
}

async function newList(event) {
  if (event) event.preventDefault();
  const body = { seat: Number(document.getElementById("new-seat").value),
                 games: Number(document.getElementById("new-games").value) || 3 };
  const seed = document.getElementById("new-seed").value;
  if (seed !== "") body.seed = Number(seed);
  if (document.getElementById("new-rated").checked) body.rated = true;
  body.variants = chosenVariants();
  try {
    const { data } = await api("POST", "/api/sessions", body);
    if (sid) api("DELETE", `/api/sessions/${sid}`).catch(() => {});  // the old list ends
    sid = data.id;
    sessionStorage.setItem("skat-session", sid);
    shownAnalysis = null;
    say("");
    show(data);
  } catch (e) { say(e.message, true); }
}

async function resume() {
  // a list named in the address (?list=ID, the link in the header) or this tab's last list
  const named = new URLSearchParams(window.location.search).get("list");
  const saved = named || sessionStorage.getItem("skat-session");
  if (saved) {
    try {
      const { data } = await api("GET", `/api/sessions/${saved}`);
      sid = saved;
      sessionStorage.setItem("skat-session", sid);
      show(data);
      return;
    } catch (e) {
      sessionStorage.removeItem("skat-session");
      if (named) say(tr("Cannot resume list {list}: {error}", { list: named, error: e.message }), true);
    }
  }
  await newList();
}

async function poll() {
  if (polling) return;
  polling = true;
  try {
    while (state && state.busy) {
      const { data } = await api("GET", `/api/sessions/${sid}?after=${state.version}&wait=10`);
      show(data, false);
    }
  } catch (e) {
    say(tr("lost contact with the server: {error}", { error: e.message }), true);
  } finally {
    polling = false;
  }
}

async function act(token) {
  try {
    const { data } = room
      ? await api("POST", `/api/rooms/${room}/action`, { token: seatKey, action: token })
      : await api("POST", `/api/sessions/${sid}/action`, { action: token });
    selected = new Set();
    say("");
    show(data);
  } catch (e) { say(e.message, true); }
}

async function tableMove(what) {
  try {
    const { data } = await api("POST", `/api/sessions/${sid}/${what}`);
    selected = new Set();
    say("");
    show(data);
  } catch (e) { say(e.message, true); }
}

function drawTableMoves() {
  const toggle = (id, on) => { document.getElementById(id).hidden = !on; };
  toggle("undo-button", state.can_undo);
  toggle("claim-button", state.can_claim && !state.busy);
  toggle("concede-button", state.can_concede && !state.busy);
  const concede = document.getElementById("concede-button");
  concede.textContent = tr(state.can_claim ? "Resign" : "Concede the rest");
}

async function showStats() {
  try {
    const { data } = await api("GET", `/api/sessions/${sid}/stats`);
    document.querySelector("#stats-table tbody").replaceChildren(...data.players.map((p) => el("tr", {},
      el("td", { text: p.name }), el("td", { text: String(p.total) }), el("td", { text: String(p.declared) }),
      el("td", { text: String(p.won) }), el("td", { text: String(p.lost) }),
      el("td", { text: p.win_rate === null ? "-" : `${Math.round(100 * p.win_rate)}%` }),
      el("td", { text: `${p.types.suit} / ${p.types.grand} / ${p.types.null}` }))));
    document.getElementById("stats-plot").src = `/api/sessions/${sid}/stats.png?v=${state.version}`;
    document.getElementById("stats").hidden = false;
  } catch (e) { say(e.message, true); }
}

async function nextGame() {
  try {
    const { data } = room
      ? await api("POST", `/api/rooms/${room}/next`, { token: seatKey })
      : await api("POST", `/api/sessions/${sid}/next`);
    shownAnalysis = null;
    show(data);
  } catch (e) { say(e.message, true); }
}

async function askHint() {
  const box = document.getElementById("hint");
  box.textContent = "thinking…";
  try {
    const { data } = await api("GET", `/api/sessions/${sid}/hint`);
    box.replaceChildren(el("p", { class: "hint-text", text: data.text }));
    hintCard = null;
    if (data.cards.length) {
      hintCard = data.cards[0].card;
      const table = el("table", { class: "hint-table" });
      table.append(el("tr", {}, el("th", { text: tr("card") }), el("th", { text: tr("win") }),
                               el("th", { text: tr("your points") })));
      data.cards.forEach((c, i) => {
        table.append(el("tr", { class: i === 0 ? "best" : "" }, el("td", {}, mini(c.card)),
          el("td", { text: `${Math.round(100 * c.win)}%` }),
          el("td", { text: c.points === null ? "" : c.points.toFixed(1) })));
      });
      box.append(table, el("p", { class: "small", text: `${data.worlds} sampled deals, ${data.seconds.toFixed(2)} s` }));
    }
    drawHand();
  } catch (e) { box.textContent = e.message; }
}

async function showAnalysis() {
  const game = state.finished;
  const box = document.getElementById("analysis");
  box.hidden = false;
  const summary = document.getElementById("analysis-summary");
  summary.replaceChildren(el("li", { text: tr("analysing every card with all hands open…") }));
  document.querySelector("#analysis-table tbody").replaceChildren();
  try {
    let result;
    for (let i = 0; i < 30; i++) {
      result = await api("GET", `/api/sessions/${sid}/analysis?game=${game}&wait=15`);
      if (result.status === 200) break;
    }
    const a = result.data;
    shownAnalysis = game;
    summary.replaceChildren(...a.summary.map((line) => el("li", { text: line })));
    const body = document.querySelector("#analysis-table tbody");
    for (const m of a.moves) {
      const classes = [m.seat === a.you ? "yours" : "", m.costly ? "costly" : "",
                       m.hinted ? "hinted" : m.flipped ? "flip" : m.points_lost ? "points" : ""].join(" ");
      let verdict = "best";
      if (m.forced) verdict = "forced";
      else if (m.hinted) verdict = m.flipped || m.points_lost ? "followed the hint" : "followed the hint: best";
      else if (m.flipped) verdict = "turned a won game into a lost one";
      else if (m.points_lost) verdict = tr("−{n} card points", { n: m.points_lost });
      const best = el("td");
      m.best.forEach((c) => best.append(mini(c), " "));
      body.append(el("tr", { class: classes }, el("td", { text: m.trick }),
        el("td", { text: a.names[m.seat] }), el("td", {}, mini(m.card)), best,
        el("td", { class: "verdict", text: verdict })));
    }
  } catch (e) {
    summary.replaceChildren(el("li", { text: e.message }));
  }
}

// ----- drawing ------------------------------------------------------------------------------

function show(data, startPoll = true) {
  const newGame = !state || state.game !== data.game || state.id !== data.id;
  const moved = !state || state.version !== data.version;
  state = data;
  if (newGame) {
    document.getElementById("hint").replaceChildren();
    document.getElementById("analysis").hidden = true;
    document.getElementById("stats").hidden = true;
  }
  if (moved) { hintCard = null; document.getElementById("hint").replaceChildren(); }
  draw();
  if (startPoll && data.busy && !room) poll();
}

function seatSide(seat) {
  const you = state.you === null ? 0 : state.you;
  if (seat === you) return "bottom";
  return seat === (you + 1) % 3 ? "left" : "right";
}

function drawPlayer(node, p) {
  node.replaceChildren();
  node.classList.toggle("to-move", state.to_move === p.seat && !state.over);
  const name = el("div", { class: "name", text: p.you ? `${p.name}` : p.name });
  if (p.role) name.append(el("span", { class: `badge ${p.role}`, text: tr(p.role) }));
  const tricks = p.tricks === 1 ? (LANG === "de" ? "1 Stich" : "1 trick") : tr("{n} tricks", { n: p.tricks });
  node.append(name, el("div", { class: "meta", text: `${p.position} · ${tricks}` }));
  if (p.you && state.discard && p.role === "declarer" && state.phase !== "discard") {
    const put = el("div", { class: "meta put-away" }, `${tr("put away:")} `);
    state.discard.forEach((c) => put.append(mini(c.card), " "));
    node.append(put);
  }
  if (!p.you) {
    const backs = el("div", { class: "backs" });
    for (let i = 0; i < p.cards; i++) backs.append(el("div", { class: "card back" }));
    node.append(backs);
  }
}

function drawTrick() {
  const trick = document.getElementById("trick");
  const caption = document.getElementById("trick-caption");
  for (const side of ["left", "right", "bottom"]) trick.querySelector(`.slot-${side}`).replaceChildren();
  caption.textContent = "";
  let cards = state.trick;
  trick.classList.remove("last");
  if (!cards.length && state.last_trick) {
    cards = state.last_trick.cards;
    trick.classList.add("last");
    const w = state.players[state.last_trick.winner];
    caption.textContent = tr("trick {n}: {takes} {points} points", { n: state.last_trick.number, takes: w.you ? tr("you take") : tr("{name} takes", { name: w.name }), points: state.last_trick.points });
  }
  for (const c of cards) trick.querySelector(`.slot-${seatSide(c.seat)}`).append(cardEl(c));
}

function drawHand() {
  const hand = document.getElementById("hand");
  hand.replaceChildren();
  const discarding = state.phase === "discard" && state.your_turn;
  const playing = state.phase === "play" && state.your_turn;
  for (const c of state.hand) {
    const node = cardEl(c, "button");
    if (c.from_skat) node.classList.add("from-skat");
    if ((playing && c.legal) || discarding) node.classList.add("legal");
    if (selected.has(c.card)) node.classList.add("selected");
    if (hintCard === c.card && playing) node.classList.add("suggested");
    if (cursor === c.card && (playing || discarding)) node.classList.add("focused");
    node.addEventListener("click", () => clickCard(c));
    hand.append(node);
  }
}

function clickCard(c) {
  if (!state.your_turn || state.busy) return;
  if (state.phase === "play") {
    if (c.legal) act(c.card);
    else say(tr("{card} is not playable now: follow suit if you can.", { card: cardName(c.card) }), true);
  } else if (state.phase === "discard") {
    if (selected.has(c.card)) selected.delete(c.card);
    else if (selected.size < 2) selected.add(c.card);
    drawHand();
    drawActions();
  }
}

function button(label, token, extra = {}) {
  const b = el("button", { type: "button", dataset: { token }, ...extra }, label);
  b.addEventListener("click", () => act(token));
  return b;
}

function drawActions() {
  const box = document.getElementById("actions");
  box.replaceChildren();
  if (!state.your_turn) return;
  const legal = state.legal;
  if (state.phase === "bidding") {
    const bids = legal.filter((a) => a.kind === "bid");
    bids.slice(0, 6).forEach((a) => box.append(button(a.label, a.token, { class: "bid" })));
    if (bids.length > 6) {
      const select = el("select", { id: "more-bids", "aria-label": "higher bids" });
      bids.slice(6).forEach((a) => select.append(el("option", { value: a.token, text: a.label })));
      const go = el("button", { type: "button", text: tr("Bid") });
      go.addEventListener("click", () => act(select.value));
      box.append(select, go);
    }
    for (const a of legal.filter((x) => x.kind === "hold" || x.kind === "pass")) box.append(button(a.label, a.token, { class: a.kind }));
  } else if (state.phase === "skat" && state.ramsch) {
    // Schieberamsch: look at the skat and push two cards on (doubles), or pass it on unseen
    box.append(button(tr("Pick up the skat"), "s", { class: "pickup" }));
    box.append(button(tr("Pass it on"), "p", { class: "pass" }));
  } else if (state.phase === "skat") {
    box.append(button(tr("Pick up the skat"), "s", { class: "pickup" }));
    const hand = legal.filter((a) => a.kind === "declare");
    const select = el("select", { id: "hand-games", "aria-label": "hand games" });
    hand.forEach((a) => select.append(el("option", { value: a.token, text: `${a.label} (${a.value}${a.below_bid ? ", " + tr("below the bid") : ""})` })));
    const go = el("button", { type: "button", id: "play-hand", text: tr("Play hand") });
    go.addEventListener("click", () => act(select.value));
    box.append(el("span", { class: "or", text: "or" }), select, go);
  } else if (state.phase === "declare") {
    for (const a of legal) {
      const label = el("span", { text: a.label });
      const b = button(label, a.token, { class: a.kind });
      if (a.value !== undefined) b.append(el("span", { class: "value", text: `${a.value}` }));
      if (a.below_bid) { b.classList.add("warn"); b.title = "below the bid unless a higher level is reached"; }
      box.append(b);
    }
  } else if (state.phase === "play") {
    // Kontra and Re (a list with that variant): a button beside the cards; the turn stays
    for (const a of legal.filter((x) => x.kind === "kontra" || x.kind === "re")) box.append(button(a.label, a.token, { class: a.kind }));
  } else if (state.phase === "discard") {
    const chosen = [...selected];
    const b = el("button", { type: "button", id: "discard-button", text: chosen.length === 2 ? tr("Put away {cards}", { cards: chosen.map(cardName).join(" ") }) : tr("Choose two cards to put away") });
    b.disabled = chosen.length !== 2;
    b.addEventListener("click", () => act(chosen.join(" ")));
    box.append(b);
  }
}

// ----- the keyboard ---------------------------------------------------------------------
// Number keys press the n-th button of the actions row (bids, hold, pass, pick up, the game
// types); in card play and discarding ← → move a cursor over the cards that can be chosen and
// Enter plays the card (discarding: Space or Enter marks it, Enter with two marked puts them
// away); P passes, H holds, S picks up the skat; U takes the last card back (practice lists).

function numberActions() {
  [...document.querySelectorAll("#actions button")].forEach((b, i) => {
    if (i < 9) { b.dataset.key = String(i + 1); b.setAttribute("aria-keyshortcuts", String(i + 1)); }
  });
}

function choosable() {
  const playing = state.phase === "play";
  return state.hand.filter((c) => !playing || c.legal).map((c) => c.card);
}

function moveCursor(delta) {
  const cards = choosable();
  if (!cards.length) return;
  const at = cards.indexOf(cursor);
  cursor = cards[at < 0 ? (delta > 0 ? 0 : cards.length - 1) : (at + delta + cards.length) % cards.length];
  drawHand();
}

function pressToken(token) {
  const b = document.querySelector(`#actions button[data-token="${token}"]`);
  if (b) b.click();
}

function onKey(e) {
  if (!state || e.ctrlKey || e.metaKey || e.altKey) return;
  if (["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
  if ((e.key === "u" || e.key === "U") && state.can_undo) { tableMove("undo"); e.preventDefault(); return; }
  if (!state.your_turn || state.busy) return;
  const hand = state.phase === "play" || state.phase === "discard";
  const c = state.hand.find((x) => x.card === cursor);
  if (hand && (e.key === "ArrowRight" || e.key === "ArrowLeft")) moveCursor(e.key === "ArrowRight" ? 1 : -1);
  else if (hand && e.key === "Enter" && state.phase === "discard" && selected.size === 2) document.getElementById("discard-button").click();
  else if (hand && (e.key === "Enter" || e.key === " ") && c) clickCard(c);
  else if (/^[1-9]$/.test(e.key)) {
    const b = document.querySelector(`#actions button[data-key="${e.key}"]`);
    if (!b) return;
    b.click();
  } else if (e.key === "p" || e.key === "P") pressToken("p");
  else if (e.key === "h" || e.key === "H") pressToken("y");
  else if (e.key === "s" || e.key === "S") pressToken("s");
  else return;
  e.preventDefault();
}

// ----- a table of several people --------------------------------------------------------

function connect() {
  const proto = window.location.protocol === "https:" ? "wss" : "ws";
  const query = seatKey ? `?token=${encodeURIComponent(seatKey)}` : "";
  socket = new WebSocket(`${proto}://${window.location.host}/ws/rooms/${room}${query}${query ? "&" : "?"}lang=${LANG}`);
  socket.onmessage = (event) => {
    const data = JSON.parse(event.data);
    if (data.lobby) drawLobby(data);
    else { document.getElementById("lobby").hidden = true; document.body.dataset.lobby = "false"; show(data, false); }
  };
  socket.onclose = (event) => {  // the network dropped: try again; a closed table: say so
    document.body.dataset.connected = "false";
    if (event.code === 4404) { say(tr("This table no longer exists: start a new one from the front page."), true); return; }
    setTimeout(connect, 1000);
  };
  socket.onopen = () => { document.body.dataset.connected = "true"; };
}

function drawLobby(data) {
  document.body.dataset.lobby = "true";
  document.body.dataset.chair = data.chair === null ? "" : String(data.chair);
  document.getElementById("lobby").hidden = false;
  document.getElementById("game-info").textContent = tr("table for three · {games} game(s)", { games: data.games });
  document.getElementById("room-link").value = window.location.href;
  document.getElementById("seats").replaceChildren(...data.seats.map((seat) => el("li", {
    text: seat.person ? `${seat.name}${seat.chair === data.chair ? tr(" (you)") : ""}` : tr("free (the AI plays if nobody joins)") })));
  document.getElementById("join-form").hidden = data.chair !== null || data.seats.every((x) => x.person);
  document.getElementById("start-button").hidden = !data.host;
}

async function joinRoom(event) {
  event.preventDefault();
  try {
    const name = document.getElementById("join-name").value || undefined;
    const { data } = await api("POST", `/api/rooms/${room}/join`, { name });
    seatKey = data.token;
    localStorage.setItem(`skat-room-${room}`, seatKey);
    if (socket) { socket.onclose = null; socket.close(); }
    connect();
  } catch (e) { say(e.message, true); }
}

async function startRoom() {
  try { await api("POST", `/api/rooms/${room}/start`, { token: seatKey }); } catch (e) { say(e.message, true); }
}

async function newRoom() {
  try {
    const name = window.prompt(tr("Your name at the table"), "Host");
    if (name === null) return;
    const games = Number(document.getElementById("new-games").value) || 3;
    const { data } = await api("POST", "/api/rooms", { name: name || undefined, games, variants: chosenVariants() });
    localStorage.setItem(`skat-room-${data.state.room}`, data.token);
    window.location.href = `/room/${data.state.room}`;
  } catch (e) { say(e.message, true); }
}

function statusText() {
  if (state.over) return state.result ? state.result.text : "";
  if (!state.your_turn) {
    const p = state.players[state.to_move];
    return p.you ? "" : tr("{name} is thinking…", { name: p.name });
  }
  return {
    bidding: state.legal.some((a) => a.kind === "hold") ? tr("Hold {bid} or pass?", { bid: state.bid }) : tr("Your bid"),
    skat: tr("Pick up the skat or play hand"),
    discard: tr("Put two cards away"),
    declare: tr("Declare your game"),
    play: tr("Your turn: play a card"),
  }[state.phase] || "";
}

function drawResult() {
  const panel = document.getElementById("result-panel");
  panel.hidden = !state.over;
  if (!state.over) return;
  const r = state.result;
  document.getElementById("result-text").textContent = r.text;
  document.getElementById("valuation").replaceChildren(...r.valuation.lines.map((l) => el("li", { text: l })));
  const hands = document.getElementById("all-hands");
  hands.replaceChildren();
  r.hands.forEach((cards, seat) => {
    const row = el("div", { class: "row" }, el("span", { class: "who", text: `${state.players[seat].name} (${state.players[seat].position})` }));
    cards.forEach((c) => row.append(mini(c.card)));
    hands.append(row);
  });
  const skat = el("div", { class: "row" }, el("span", { class: "who", text: tr("skat") }));
  r.skat.forEach((c) => skat.append(mini(c.card)));
  if (r.put_away) { skat.append(el("span", { class: "gap", text: tr("put away:") })); r.put_away.forEach((c) => skat.append(mini(c.card))); }
  hands.append(skat);
  document.getElementById("download-game").href = `/api/sessions/${sid}/games/${state.finished}.iss`;
  document.getElementById("download-list").href = `/api/sessions/${sid}/records.iss`;
  const next = document.getElementById("next-game");
  next.hidden = state.list_over;
  document.getElementById("analysis-button").disabled = r.declarer === null;
}

function drawSheet() {
  const sheet = state.sheet;
  const table = document.getElementById("sheet");
  table.replaceChildren();
  const head = el("tr", {}, el("th", { text: "#" }), el("th", { text: tr("game") }));
  sheet.names.forEach((n) => head.append(el("th", { text: n })));
  table.append(el("thead", {}, head));
  const body = el("tbody");
  for (const row of sheet.rows) {
    const game = row.declarer === null ? row.contract
      : `${sheet.names[row.declarer]}: ${row.contract} ${row.value > 0 ? "+" : ""}${row.value}`;
    const tr = el("tr", {}, el("td", { text: row.number }), el("td", { text: game }));
    row.totals.forEach((t, chair) => tr.append(el("td", { class: chair === row.declarer ? "declarer" : "", text: t })));
    body.append(tr);
  }
  table.append(body);
  const foot = el("tr", {}, el("td", { text: "" }), el("td", { text: tr("{played} of {games} · won–lost", { played: sheet.rows.length, games: sheet.games }) }));
  sheet.tally.forEach(([w, l]) => foot.append(el("td", { text: `${w}–${l}` })));
  table.append(el("tfoot", {}, foot));
}

function draw() {
  document.body.dataset.phase = state.phase;
  document.body.dataset.yourTurn = String(state.your_turn);
  document.body.dataset.over = String(state.over);
  document.body.dataset.busy = String(state.busy);
  document.body.dataset.version = String(state.version);
  document.body.dataset.game = String(state.game);
  document.getElementById("game-info").textContent = tr("game {game} of {games} · seed {seed}", { game: state.game, games: state.games, seed: state.seed });
  const link = document.getElementById("list-link");
  link.href = `/?list=${encodeURIComponent(state.id)}`;
  for (const p of state.players) {
    const side = seatSide(p.seat);
    drawPlayer(document.getElementById(side === "bottom" ? "player-you" : `player-${side}`), p);
  }
  const banner = document.getElementById("contract-banner");
  if (state.contract) {
    const d = state.players[state.declarer];
    banner.textContent = d.you ? tr("You play {contract} · bid {bid}", { contract: state.contract.name, bid: state.bid }) : tr("{name} plays {contract} · bid {bid}", { name: d.name, contract: state.contract.name, bid: state.bid });
  } else if (state.declarer !== null) {
    const d = state.players[state.declarer];
    banner.textContent = d.you ? tr("You win the auction at {bid}", { bid: state.bid }) : tr("{name} wins the auction at {bid}", { name: d.name, bid: state.bid });
  } else if (state.ramsch) banner.textContent = tr("Ramsch: the fewest card points win");
  else banner.textContent = state.bid ? tr("bidding: {bid}", { bid: state.bid }) : tr("bidding");
  // Kontra, Re and Bock double the game: shown after the contract
  if (state.doubling && state.doubling.length) banner.textContent += " · " + state.doubling.join(" · ");
  const open = document.getElementById("open-hand");
  open.hidden = !state.open_hand || state.over;
  open.replaceChildren(...(state.open_hand || []).map((c) => cardEl(c)));
  const skat = document.getElementById("skat-area");
  skat.replaceChildren();
  if (state.phase === "bidding" || state.phase === "skat") {
    skat.append(el("div", { class: "card back" }), el("div", { class: "card back" }));
  }
  drawTrick();
  document.getElementById("status").textContent = statusText();
  if (!state.your_turn || !choosable().includes(cursor)) cursor = null;
  drawActions();
  numberActions();
  drawHand();
  const log = document.getElementById("log");
  log.replaceChildren(...state.log.map((e) => el("li", { text: e.text })));
  log.scrollTop = log.scrollHeight;
  document.getElementById("hint-button").disabled = !state.your_turn || state.busy;
  drawTableMoves();
  drawSheet();
  drawResult();
  if (state.notes.length) say(state.notes[state.notes.length - 1]);
}

document.getElementById("new-form").addEventListener("submit", newList);
document.getElementById("hint-button").addEventListener("click", askHint);
document.getElementById("next-game").addEventListener("click", nextGame);
document.getElementById("analysis-button").addEventListener("click", showAnalysis);
document.getElementById("stats-button").addEventListener("click", showStats);
document.addEventListener("keydown", onKey);
document.getElementById("room-button").addEventListener("click", newRoom);
document.getElementById("join-form").addEventListener("submit", joinRoom);
document.getElementById("start-button").addEventListener("click", startRoom);
document.getElementById("undo-button").addEventListener("click", () => tableMove("undo"));
document.getElementById("claim-button").addEventListener("click", () => tableMove("claim"));
document.getElementById("concede-button").addEventListener("click", () => tableMove("concede"));
translatePage();
if (room) {
  document.body.classList.add("room");
  connect();
} else resume();
