// pasur's live scoreboard. The state comes as the JSON that `pasur show --json`, `score --json`
// and `log --json` print, pushed by server-sent events; every stored text goes into the page as
// text (textContent, text nodes, attributes), never as markup.
"use strict";

const params = new URLSearchParams(location.search);
let words = {};
let lang = "en";
let numbers = new Intl.NumberFormat("en");
let last = null; // the last state drawn, drawn again when the words arrive

function address(path) {
  const query = new URLSearchParams();
  if (params.get("lang")) query.set("lang", params.get("lang"));
  const text = query.toString();
  return path + (text ? "?" + text : "");
}

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function num(n) {
  return numbers.format(n);
}

// A name or other fact inside a sentence, isolated so that a Latin name in a Persian sentence
// (or the reverse) keeps its place.
function isolate(text) {
  return "\u2068" + text + "\u2069";
}

// Fill ``template``'s {fields} into ``node``: a string fact as text, a node as itself.
function fill(node, template, facts) {
  node.replaceChildren();
  for (const part of (template || "").split(/(\{\w+\})/)) {
    const key = /^\{(\w+)\}$/.exec(part);
    if (!key) {
      if (part) node.append(document.createTextNode(part));
      continue;
    }
    const fact = facts[key[1]];
    if (fact instanceof Node) node.append(fact);
    else node.append(document.createTextNode(isolate(String(fact))));
  }
  return node;
}

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

function card(code) {
  const suit = code.slice(-1);
  const node = el("span", "card" + (suit === "D" || suit === "H" ? " red" : ""), code.slice(0, -1) + (SUITS[suit] || suit));
  node.dir = "ltr";
  node.dataset.card = code;
  return node;
}

function cards(codes) {
  const node = el("span", "cards");
  for (const code of codes) node.append(card(code));
  return node;
}

function say(node, key, facts) {
  return fill(node, words[key] || key, facts || {});
}

function setWords(data) {
  words = data.words;
  lang = data.lang;
  numbers = new Intl.NumberFormat(lang);
  document.documentElement.lang = lang;
  document.documentElement.dir = data.dir;
  document.title = words.title;
  for (const node of document.querySelectorAll("[data-w]")) node.textContent = words[node.dataset.w];
  for (const link of document.querySelectorAll("#langs a")) {
    link.href = "?lang=" + link.dataset.lang;
    if (link.dataset.lang === lang) link.setAttribute("aria-current", "true");
    else link.removeAttribute("aria-current");
  }
  const back = document.getElementById("back");
  back.hidden = !/\/match\/\d+\/$/.test(location.pathname);
  back.href = address("../../");
  if (last) draw(last);
}

function row(cells, head) {
  const tr = el("tr");
  cells.forEach((cell, i) => {
    const td = el(head || i === 0 ? "th" : "td");
    if (cell instanceof Node) td.append(cell);
    else td.textContent = cell;
    tr.append(td);
  });
  return tr;
}

function drawScore(show, score, table) {
  const sides = document.getElementById("sides");
  sides.replaceChildren();
  const top = Math.max(...Object.values(score.totals));
  score.sides.forEach((side, i) => {
    const box = el("div", "side s" + (i % 4));
    box.dataset.side = side;
    if (score.totals[side] === top && Object.values(score.totals).filter((t) => t === top).length === 1) {
      box.classList.add("leading");
    }
    box.append(el("span", "name", side), el("span", "total", num(score.totals[side])));
    sides.append(box);
  });
  const goal = document.getElementById("goal");
  const played = score.deals.filter((d) => d.complete).length;
  if (score.target) say(goal, "target", { target: num(score.target) });
  else goal.replaceChildren();
  goal.dataset.played = played;
  const winner = document.getElementById("winner");
  winner.hidden = !score.winner;
  if (score.winner) say(winner, "won", { winner: score.winner });
  document.getElementById("match").textContent = "· " + matchName(el("span"), score.match, table).textContent;
}

// A match as the page names it: "Match 3", or "Match 3, table 2" when its table has a name.
function matchName(node, id, table) {
  if (table) return fill(node, words.match_table, { id: num(id), table: table });
  return fill(node, words.match, { id: num(id) });
}

function holder(code, field, show, scores) {
  for (const side of Object.keys(scores)) if (scores[side][field] > 0) return side;
  if (show.table.includes(code)) return words.on_table;
  return words.not_seen;
}

function drawNow(show, score) {
  const deal = document.getElementById("deal");
  const turn = document.getElementById("turn");
  const left = document.getElementById("left");
  left.replaceChildren();
  turn.replaceChildren();
  const now = document.getElementById("now");
  now.hidden = !!show.winner; // the match is over: the score says it all
  now.classList.toggle("between", show.turn === null); // a table is awaited: nothing on it yet
  if (show.winner) {
    deal.replaceChildren();
  } else if (show.turn === null) {
    say(deal, "awaiting", { number: num(show.deal), dealer: show.dealer });
  } else {
    say(deal, "deal_hand", { number: num(show.deal), hand: num(show.hand), hands: num(show.hands) });
    say(turn, "to_play", { player: show.turn });
    for (const [player, n] of Object.entries(show.cards_left || {})) {
      const item = el("li");
      item.append(el("span", "name", player), el("span", "count", num(n)));
      item.title = words.left;
      left.append(item);
    }
  }
  const table = document.getElementById("table");
  table.replaceChildren(...show.table.map(card));
  if (!show.table.length) table.append(el("span", "empty", words.empty));
  say(document.getElementById("unseen"), "cards", { n: num(show.unseen) });

  const playing = score.deals.find((d) => !d.complete);
  const done = score.deals.filter((d) => d.complete);
  document.getElementById("race-box").hidden = !playing && !done.length;
  if (playing) drawRace(show, score, playing);
  else if (done.length) drawBreakdown(score, done[done.length - 1]);
}

// The deal being played: each side's clubs, who holds 2♣ and 10♦, surs, cards taken, the score if it ended now.
function drawRace(show, score, playing) {
  const race = document.getElementById("race");
  const sides = score.sides;
  say(document.getElementById("race-title"), "race");
  delete race.dataset.deal;
  race.tHead.replaceChildren(row(["", ...sides], true));
  const s = playing.scores;
  // who holds a special card: a mark under that side, else where it is across the row
  const special = (code, field) => {
    const where = holder(code, field, show, s);
    if (sides.includes(where)) return row([card(code), ...sides.map((x) => (where === x ? "✓" : ""))]);
    const r = row([card(code)]);
    const td = el("td", "where", where);
    td.colSpan = sides.length;
    r.append(td);
    return r;
  };
  const body = [
    row([words.clubs, ...sides.map((x) => num(s[x].clubs))]),
    special("2C", "two_clubs"),
    special("10D", "ten_diamonds"),
    row([words.surs, ...sides.map((x) => num(show.surs[x]))]),
    row([words.pile, ...sides.map((x) => num(show.piles[x]))]),
    row([words.now, ...sides.map((x) => num(show.if_ended_now[x]))]),
  ];
  body[5].classList.add("now");
  race.tBodies[0].replaceChildren(...body);
}

// A points cell with what earned them beside it (8 clubs, 2 surs), small.
function points(value, count) {
  const cell = el("span", "", num(value));
  if (count !== undefined) cell.append(" ", el("small", "", "(" + num(count) + ")"));
  return cell;
}

// Between deals (until the next table is entered): how the finished deal was scored, side by side.
function drawBreakdown(score, deal) {
  const race = document.getElementById("race");
  const sides = score.sides;
  const s = deal.scores;
  say(document.getElementById("race-title"), "breakdown", { number: num(deal.number) });
  race.tHead.replaceChildren(row(["", ...sides], true));
  const line = (label, field, count) => row([label, ...sides.map((x) => points(s[x][field], count && s[x][count]))]);
  const body = [
    line(words.clubs, "clubs_points", "clubs"),
    line(card("2C"), "two_clubs"),
    line(card("10D"), "ten_diamonds"),
    ...(sides.some((x) => s[x].seven_diamonds) ? [line(card("7D"), "seven_diamonds")] : []),
    line(words.aces, "aces"),
    line(words.jacks, "jacks"),
    line(words.surs, "sur_points", "surs"),
    line(words.points, "total"),
  ];
  body[body.length - 1].classList.add("now");
  race.tBodies[0].replaceChildren(...body);
  race.dataset.deal = deal.number;
}

function drawLast(data) {
  const node = document.getElementById("last");
  const play = data.last && data.last.play;
  document.getElementById("last-box").hidden = !play; // no play yet in this match (or only tallies)
  if (!play) {
    node.replaceChildren();
    return;
  }
  if (play.taken.length) say(node, "took", { player: play.player, card: card(play.card), cards: cards(play.taken) });
  else say(node, "played", { player: play.player, card: card(play.card) });
  if (play.sur) node.append(" ", el("strong", "sur", words.sur));
}

function drawDeals(score) {
  const table = document.getElementById("deals");
  table.tHead.replaceChildren(row([words.deal, ...score.sides], true));
  const rows = score.deals.map((d) => {
    const label = el("span", "", num(d.number));
    if (d.tallied) label.append(" ", el("small", "", words.tallied));
    if (!d.complete) label.append(" ", el("small", "", words.playing));
    const r = row([label, ...score.sides.map((s) => num(d.scores[s].total))]);
    if (!d.complete) r.classList.add("playing");
    return r;
  });
  table.tBodies[0].replaceChildren(...rows.reverse());
  table.tFoot.replaceChildren(row([words.total, ...score.sides.map((s) => num(score.totals[s]))]));
}

const SVG = "http://www.w3.org/2000/svg";
// the TV layout (style.css): a wider chart
const wide = matchMedia("(min-width: 900px) and (orientation: landscape)");
wide.addEventListener("change", () => last && draw(last));

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// The running totals after each finished deal, one line a side, the target dashed.
function drawChart(score) {
  const box = document.getElementById("chart");
  const done = score.deals.filter((d) => d.complete);
  const running = {};
  const series = {};
  for (const side of score.sides) {
    running[side] = 0;
    series[side] = [0];
  }
  for (const d of done) {
    for (const side of score.sides) {
      running[side] += d.scores[side].total;
      series[side].push(running[side]);
    }
  }
  const legend = el("p", "legend");
  score.sides.forEach((side, n) => {
    legend.append(el("span", "key s" + (n % 4), side));
  });
  box.replaceChildren(legend);
  for (const key of legend.children) fit(key);
  // on a TV the drawing takes all the place its box leaves (its width kept, whatever the legend's height)
  const room = wide.matches ? (box.clientHeight - legend.offsetHeight) / Math.max(box.clientWidth, 1) : 0;
  const [W, H] = wide.matches ? [900, Math.round(Math.min(Math.max(900 * room, 160), 600))] : [480, 300];
  const L = 44, R = 12, T = 14, B = 30;
  const top = Math.max(score.target || 0, ...Object.values(series).flat(), 10);
  const steps = Math.max(done.length, 1);
  const x = (i) => L + ((W - L - R) * i) / steps;
  const y = (v) => T + (H - T - B) * (1 - v / top);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": words.chart || "" });
  chart.setAttribute("direction", "ltr");
  for (const v of [0, Math.round(top / 2), top]) {
    chart.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }));
    chart.append(svg("text", { x: L - 6, y: y(v) + 5, "text-anchor": "end", class: "axis" }, num(v)));
  }
  const every = Math.ceil(steps / 12);
  for (let i = 0; i <= done.length; i += every) {
    chart.append(svg("text", { x: x(i), y: H - 8, "text-anchor": "middle", class: "axis" }, num(i)));
  }
  if (score.target) {
    chart.append(svg("line", { x1: L, x2: W - R, y1: y(score.target), y2: y(score.target), class: "target" }));
  }
  score.sides.forEach((side, n) => {
    const points = series[side].map((v, i) => `${x(i)},${y(v)}`).join(" ");
    chart.append(svg("polyline", { points, class: "line s" + (n % 4) }));
    series[side].forEach((v, i) => {
      const dot = svg("circle", { cx: x(i), cy: y(v), r: 5, class: "dot s" + (n % 4), "data-deal": i, "data-total": v });
      dot.append(svg("title", {}, side + ": " + num(v)));
      chart.append(dot);
    });
  });
  box.replaceChildren(chart, legend);
}

// A table's tile in the room: its players and totals, the deal and hand, whose turn; a link to its board.
function tile(t) {
  const link = el("a", "tile");
  link.href = address("match/" + t.match + "/");
  link.dataset.match = t.match;
  link.append(matchName(el("p", "tile-head"), t.match, t.table));
  if (t.error) {
    link.append(el("p", "tile-error", t.error));
    return link;
  }
  const sides = el("div", "tile-sides");
  t.sides.forEach((side, i) => {
    const box = el("div", "side s" + (i % 4));
    box.append(el("span", "name", side), el("span", "total", num(t.totals[side])));
    sides.append(box);
  });
  link.append(sides);
  const deal = el("p", "tile-deal");
  const turn = el("p", "tile-turn");
  if (t.winner) say(turn, "won", { winner: t.winner });
  else if (t.turn === null) say(deal, "awaiting", { number: num(t.deal), dealer: t.dealer });
  else {
    say(deal, "deal_hand", { number: num(t.deal), hand: num(t.hand), hands: num(t.hands) });
    say(turn, "to_play", { player: t.turn });
  }
  link.append(deal, turn);
  return link;
}

function drawRoom(tiles) {
  const room = document.getElementById("room");
  room.replaceChildren(...tiles.map(tile));
  // on a TV: 2 or 3 tables in a row, 4 in two rows of 2, then rows of up to 4 (two rows for 8), then more
  const n = tiles.length;
  room.style.setProperty("--columns", n <= 3 ? n : n <= 8 ? Math.ceil(n / 2) : Math.ceil(n / 3));
  document.getElementById("match").textContent = "";
}

// The event's page: its name and round in the heading, the standings, a tile per table of the round, the bye.
function drawEvent(ev) {
  const head = el("span");
  if (ev.round) fill(head, words.event_round, { event: ev.event, round: num(ev.round), rounds: num(ev.rounds) });
  else fill(head, words.event_unpaired, { event: ev.event });
  document.getElementById("match").textContent = "· " + head.textContent;
  drawStandings(ev);
  const box = document.getElementById("event-tables");
  box.replaceChildren(...ev.tables.map(eventTile));
  const n = ev.tables.length;
  box.style.setProperty("--columns", n <= 2 ? Math.max(n, 1) : n <= 6 ? 2 : 3);
  const bye = document.getElementById("bye");
  bye.hidden = !ev.bye;
  if (ev.bye) say(bye, "bye", { name: ev.bye });
  else bye.replaceChildren();
}

// A table of the round: its match's tile (a link to its board), or its entrants without one; a score given on paper.
function eventTile(t) {
  const node = t.tile ? tile(t.tile) : el("div", "tile");
  node.dataset.table = t.table;
  if (!t.tile) node.append(fill(el("p", "tile-head"), words.event_table, { table: num(t.table), first: t.first, second: t.second }));
  if (t.paper && t.score) { // the table's result is the one given: not its match's totals, deal and turn
    for (const line of node.querySelectorAll(".tile-sides, .tile-deal, .tile-turn")) line.remove();
    const score = el("p", "tile-score");
    say(score, "on_paper", { first: t.first, score: num(t.score[0]) + "–" + num(t.score[1]), second: t.second });
    node.append(score);
  }
  return node;
}

// The standings as `pasur event standings` gives them: wins, then the tiebreaks in the order they count.
function drawStandings(ev) {
  const table = document.getElementById("standings");
  const swiss = ev.pairing === "swiss";
  const keys = ["rank", "entrant", "played_count", "wins", "byes", ...(swiss ? ["buchholz"] : []), "difference",
    "scored", "head_to_head"];
  table.tHead.replaceChildren(row(keys.map((k) => el("span", "head", words[k])), true));
  const rows = ev.standings.map((p, i) => {
    const name = el("span", "", p.name);
    if (p.dropped !== null) fill(name, words.dropped, { name: p.name });
    const below = ev.standings[i + 1];
    const met = el("span");
    if (p.head_to_head && below) fill(met, words.beat, { name: below.name });
    const r = row([num(p.rank), name, num(p.played), num(p.wins), num(p.byes), ...(swiss ? [num(p.buchholz)] : []),
      num(p.difference), num(p.scored), met]);
    r.children[1].classList.add("name");
    r.children[r.children.length - 1].classList.add("name");
    r.dataset.entrant = p.name;
    if (p.dropped !== null) r.classList.add("dropped");
    return r;
  });
  table.tBodies[0].replaceChildren(...rows);
}

// A table no wider than its box (and on a TV no taller): the largest type it fits with, up to its
// own on a phone and twice that on a TV (where the standings are read across the room).
function fitWhole(table) {
  const box = table.parentElement;
  const tall = wide.matches;
  table.style.fontSize = "";
  const own = parseFloat(getComputedStyle(table).fontSize);
  const fits = (size) => {
    table.style.fontSize = size + "px";
    return table.offsetWidth <= inner(box) + 1 && !(tall && box.scrollHeight > box.clientHeight + 1);
  };
  let [low, high] = [5, tall ? own * 2 : own];
  if (fits(high)) return;
  for (let step = 0; step < 12; step++) {
    const middle = (low + high) / 2;
    if (fits(middle)) low = middle;
    else high = middle;
  }
  fits(low);
}

// Shrink the type of ``node`` until what it holds fits its width (a long name is never broken
// inside a word: the style breaks lines only between words).
function fit(node, least) {
  node.style.fontSize = "";
  let size = parseFloat(getComputedStyle(node).fontSize);
  while (node.scrollWidth > node.clientWidth + 1 && size > (least || 5)) {
    size *= 0.9;
    node.style.fontSize = size + "px";
  }
}

// The width a box gives what it holds (its padding taken off).
function inner(box) {
  const style = getComputedStyle(box);
  return box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
}

// A table's side headings as each side's colour (as in the chart's legend), the name in its title.
function keyHeads(table) {
  table.querySelectorAll("thead th").forEach((th, i) => {
    if (!i || th.title) return;
    th.title = th.textContent;
    th.replaceChildren(el("span", "key s" + ((i - 1) % 4)));
  });
}

// A table as wide as its box at most (and on a TV the deals' box no taller than its place): its
// headings' type shrunk down to READABLE, then the sides' colours in place of names too long for
// it, then smaller type still.
function fitTable(table, tall) {
  const box = table.parentElement;
  const over = () => table.offsetWidth > inner(box) || (tall && box.scrollHeight > box.clientHeight + 1);
  const shrink = (least) => {
    const heads = [...table.querySelectorAll("thead th")];
    let size = heads.length ? parseFloat(getComputedStyle(heads[0]).fontSize) : 0;
    while (over() && size > least) {
      size *= 0.9;
      for (const th of heads) th.style.fontSize = size + "px";
    }
  };
  for (const th of table.querySelectorAll("thead th")) th.style.fontSize = "";
  shrink(READABLE);
  if (over()) keyHeads(table);
  shrink(5);
}

// On a TV the deals table fits its box: the oldest deals (the chart shows them) give way, counted;
// then its headings as fitTable makes them fit.
function fitDeals() {
  const box = document.getElementById("deals-box");
  const rows = [...document.querySelectorAll("#deals tbody tr")];
  const note = document.getElementById("earlier");
  note.hidden = true;
  if (!wide.matches) return;
  let hidden = 0;
  while (box.scrollHeight > box.clientHeight + 1 && hidden < rows.length) {
    rows[rows.length - 1 - hidden].hidden = true;
    hidden += 1;
    note.hidden = false;
    say(note, "earlier", { count: num(hidden) });
  }
  fitTable(document.getElementById("deals"), true);
}

const READABLE = 12; // px: on a phone a side's name smaller than this gets the whole width (the sides one above the other)
const FITTED = "header h1, #sides .name, #turn, #winner, #deal, #last, #left li, .legend .key, .tile .name, .tile p";

function fitAll() {
  const sides = document.getElementById("sides");
  sides.classList.remove("stacked");
  for (const node of document.querySelectorAll(FITTED)) fit(node);
  const names = [...sides.querySelectorAll(".name")];
  if (!wide.matches && names.some((n) => parseFloat(n.style.fontSize) < READABLE)) {
    sides.classList.add("stacked");
    for (const node of names) fit(node);
  }
  for (const table of document.querySelectorAll("#race, #deals")) fitTable(table);
  fitDeals();
  if (!document.getElementById("event").hidden) fitWhole(document.getElementById("standings"));
}

function draw(data) {
  last = data;
  const error = document.getElementById("error");
  const board = document.getElementById("board");
  const room = document.getElementById("room");
  const event = document.getElementById("event");
  error.hidden = !data.error;
  board.hidden = !!data.error || !!data.room || !!data.event;
  room.hidden = !!data.error || !data.room;
  event.hidden = !!data.error || !data.event;
  if (data.error) {
    error.textContent = data.error;
    return;
  }
  if (!words.title) return;
  if (data.event) {
    drawEvent(data.event);
  } else if (data.room) {
    drawRoom(data.room);
  } else if (data.show) {
    drawScore(data.show, data.score, data.table);
    drawNow(data.show, data.score);
    drawLast(data);
    drawDeals(data.score);
    drawChart(data.score);
    document.body.dataset.length = data.show.length;
  } else {
    return;
  }
  fitAll();
  document.body.dataset.view = data.event ? "event" : data.room ? "room" : "board";
  document.body.dataset.ready = "1";
}

window.addEventListener("resize", () => last && draw(last));

let source = null;

function listen() {
  source = new EventSource(address("events"));
  source.addEventListener("state", (event) => {
    document.getElementById("offline").hidden = true;
    draw(JSON.parse(event.data));
  });
  source.addEventListener("open", () => {
    document.getElementById("offline").hidden = true;
  });
  source.addEventListener("error", () => {
    document.getElementById("offline").hidden = false;
    // EventSource tries again by itself unless the server refused; then start a new one
    if (source.readyState === EventSource.CLOSED) setTimeout(listen, 2000);
  });
}

fetch(address("words"))
  .then((response) => response.json())
  .then(setWords)
  .then(listen);
