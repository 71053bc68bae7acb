// The broadcast overlay: reads the delayed broadcast/ subtree of one table over MQTT-over-
// WebSockets (config.json, served by `pokertable overlay`) and draws seats, board, pot,
// equities and the latest ruling. It holds no secret: it connects anonymously, and the
// broker's ACL lets an anonymous page read the delayed subtree only, never the live feed.
"use strict";

const SUIT = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };

const view = {
  state: null,
  holes: {},
  equities: null,
  lastAction: {},
  ruling: null,
  lastMessageAt: 0,
  clockDeadline: null, // R29: when the player on the clock runs out, on this page's clock
};

function cardElement(text) {
  const el = document.createElement("div");
  el.className = "card";
  if (!text) {
    el.classList.add("back");
    return el;
  }
  const rank = text[0] === "T" ? "10" : text[0];
  el.textContent = rank + SUIT[text[1]];
  el.dataset.card = text;
  if (text[1] === "d" || text[1] === "h") el.classList.add("red");
  return el;
}

function chips(n) {
  return Number(n || 0).toLocaleString("en-US");
}

function seatShown(layout, seat) {
  return !Array.isArray(layout.seats) || layout.seats.includes(seat.seat);
}

// The cards of one seat. Stud (games.js): the downcards (known once the relay releases the
// hole cards, else backs), the upcards face up and marked, in the order a stud hand lies:
// two down, the upcards, the seventh card down. Other games: the hole cards or backs.
function seatCards(state, seat, known) {
  if (!Array.isArray(seat.upcards)) {
    return (known.length ? known : Array(seat.cards_held).fill(null)).map(cardElement);
  }
  const up = seat.upcards;
  const downs = known.filter((card) => !up.includes(card));
  const count = Math.max(0, seat.cards_held - up.length);
  const down = Array.from({ length: count }, (_, i) => downs[i] || null);
  const shownUp = up.map((card) => {
    const el = cardElement(card);
    el.classList.add("up");
    return el;
  });
  return [...down.slice(0, 2).map(cardElement), ...shownUp, ...down.slice(2).map(cardElement)];
}

// The game of the hand (mixed games: the level's) with its stakes; stud: the street too.
function gameLine(state) {
  if (!state) return "";
  const parts = [gameName(state.game), stakes(state.level, state.game)];
  if (isStud(state.game) && state.street && !["showdown", "complete"].includes(state.street)) {
    parts.push(`${state.street} street`);
  }
  return parts.filter(Boolean).join(" \u00b7 ");
}

function render(layout) {
  const state = view.state;
  const board = document.getElementById("board");
  const pot = document.getElementById("pot");
  const seats = document.getElementById("seats");
  document.getElementById("game").textContent = gameLine(state);
  document.getElementById("stud").textContent = studLine(state);
  document.getElementById("draw").textContent = drawLine(state);
  board.replaceChildren(...(state ? state.board.map(cardElement) : []));
  // Once the hand is over the state says who won each pot: the page crowns them and shows
  // what they won, never the equities of a hand that is decided.
  const complete = Boolean(state && state.street === "complete");
  const won = {};
  for (const award of complete && Array.isArray(state.awards) ? state.awards : []) {
    const seen = won[award.seat] || { amount: 0, hand: award.hand_name, halves: [] };
    seen.amount += award.amount;
    // hi-lo: each half won, once ("high Trips", "low 7-5-3-2-A low")
    const half = award.half ? award.half + (award.hand_name ? " " + award.hand_name : "") : "";
    if (half && !seen.halves.includes(half)) seen.halves.push(half);
    won[award.seat] = seen;
  }
  if (complete && Object.keys(won).length) {
    pot.textContent = Object.entries(won).map(([seat, w]) => {
      const player = state.seats.find((s) => s.seat === Number(seat));
      const name = (player && player.player) || "Seat " + seat;
      const how = w.halves.length ? " (" + w.halves.join(", ") + ")"
        : (w.hand ? " with " + w.hand : "");
      return name + " wins " + chips(w.amount) + how;
    }).join(" \u00b7 ");
  } else if (state && state.pots.length) {
    const total = state.pots.reduce((sum, p) => sum + p.amount, 0);
    const sides = state.pots.length > 1
      ? " (" + state.pots.map((p) => chips(p.amount)).join(" + ") + ")" : "";
    pot.textContent = "Pot " + chips(total) + sides;
  } else {
    pot.textContent = "";
  }
  const equity = {};
  if (!complete && view.equities && state && view.equities.hand_id === state.hand_id) {
    for (const s of view.equities.seats) equity[s.seat] = s;
  }
  const boxes = [];
  for (const seat of state ? state.seats : []) {
    if (seat.status === "empty" || !seatShown(layout, seat)) continue;
    const box = document.createElement("div");
    box.className = "seat " + seat.status;
    if (state.action_on === seat.seat) box.classList.add("acting");
    if (won[seat.seat]) box.classList.add("winner");
    box.dataset.seat = String(seat.seat);
    const hole = view.holes[seat.seat];
    const cards = hole && hole.hand_id === state.hand_id ? hole.cards : [];
    if (Array.isArray(seat.upcards)) box.classList.add("stud");
    const eq = equity[seat.seat];
    const win = eq ? (eq.equity * 100).toFixed(1) + "%" : "";
    box.innerHTML =
      '<div class="head"><span class="name"></span><span class="tags"></span>' +
      '<span class="win"></span></div>' +
      '<div class="cards"></div>' +
      '<div class="row"><span class="stack"></span><span class="bet"></span></div>' +
      '<div class="row"><span class="label"></span><span class="tie"></span></div>' +
      '<div class="outs"></div>' +
      '<div class="clock"></div>' +
      '<div class="action"></div>';
    box.querySelector(".name").textContent = seat.player || "Seat " + seat.seat;
    box.querySelector(".win").textContent = won[seat.seat]
      ? "wins " + chips(won[seat.seat].amount) : seat.status === "folded" ? "" : win;
    box.querySelector(".cards").replaceChildren(...seatCards(state, seat, cards));
    const stud = studTags(state, seat).map((tag) => [tag, tag === "bring-in" ? "bring-in" : "opener"]);
    const draws = drawTags(state, seat).map((tag) => [tag, tag === "drawing" ? "drawing" : "drew"]);
    box.querySelector(".tags").replaceChildren(...[...stud, ...draws].map(([tag, kind]) => {
      const el = document.createElement("span");
      el.className = "tag " + kind;
      el.textContent = tag;
      return el;
    }));
    box.querySelector(".stack").textContent = chips(seat.stack);
    box.querySelector(".bet").textContent = seat.bet ? "bet " + chips(seat.bet) : "";
    box.querySelector(".label").textContent = eq && seat.status !== "folded" ? eq.label : "";
    box.querySelector(".tie").textContent = eq && eq.tie > 0
      ? "tie " + (eq.tie * 100).toFixed(1) + "%" : "";
    // On the turn a seat that is behind has outs: the rivers that give it the pot or a share.
    const outs = eq && seat.status !== "folded" && Array.isArray(eq.outs) ? eq.outs : [];
    const outsBox = box.querySelector(".outs");
    outsBox.hidden = outs.length === 0;
    if (outs.length) {
      const count = document.createElement("span");
      count.className = "count";
      count.textContent = "outs: " + outs.length;
      outsBox.replaceChildren(count, ...outs.map(cardElement));
    }
    box.querySelector(".action").textContent = view.lastAction[seat.seat] || "";
    boxes.push(box);
  }
  seats.replaceChildren(...boxes);
  renderClock();
  const lower = document.getElementById("lower-third");
  if (view.ruling) {
    document.getElementById("ruling-rules").textContent = view.ruling.rule_ids.join(" ");
    document.getElementById("ruling-text").textContent = view.ruling.text;
    lower.hidden = false;
  } else {
    lower.hidden = true;
  }
}

// R29: the table's state says when the player on the clock runs out, on the table's own
// clock; the whole feed is delayed alike, so the page counts down from the state's arrival.
function renderClock() {
  const state = view.state;
  const clock = state && state.clock;
  for (const el of document.querySelectorAll("#seats .clock")) {
    el.textContent = "";
    el.className = "clock";
  }
  if (!clock || view.clockDeadline === null) return;
  const el = document.querySelector(`.seat[data-seat="${clock.seat}"] .clock`);
  if (!el) return;
  const left = Math.max(0, Math.ceil((view.clockDeadline - performance.now()) / 1000));
  el.className = "clock" + (left <= clock.countdown ? " final" : "");
  el.textContent = left === 0 ? "time" : left <= clock.countdown
    ? "final count " + left : "on the clock " + left + " s";
}

function onMessage(config, leaf, msg) {
  view.lastMessageAt = Date.now();
  if (leaf === "broadcast/state") {
    if (!view.state || view.state.hand_id !== msg.hand_id) {
      view.lastAction = {};
      view.ruling = null;
    }
    view.state = msg;
    view.clockDeadline = msg.clock
      ? performance.now() + (msg.clock.expires_at_ms - msg.ts_ms) : null;
  } else if (leaf.startsWith("broadcast/hole_cards/")) {
    view.holes[msg.seat] = msg;
  } else if (leaf === "broadcast/equities") {
    view.equities = msg;
  } else if (leaf === "broadcast/events") {
    for (const ruling of msg.rulings || []) {
      if (ruling.seat) view.lastAction[ruling.seat] = ruling.text;
      if (ruling.rule_ids && ruling.rule_ids.length) view.ruling = ruling;
    }
  }
  render(config.layout);
}

async function main() {
  const config = await (await fetch("config.json", { cache: "no-store" })).json();
  const layout = config.layout;
  for (const [name, value] of Object.entries(layout.colours || {})) {
    document.documentElement.style.setProperty("--" + name, value);
  }
  if (layout.logo) {
    const logo = document.getElementById("logo");
    logo.src = layout.logo;
    logo.hidden = false;
  }
  const status = document.getElementById("connection");
  const offline = document.getElementById("offline");
  // no login, and a random client id: two OBS sources of one table live side by side
  const client = mqtt.connect(config.ws_url, {
    clientId: "overlay-" + Math.random().toString(36).slice(2, 10),
    reconnectPeriod: 2000,
    connectTimeout: 10000,
  });
  client.on("connect", () => {
    client.subscribe(config.base + "/broadcast/#", { qos: 1 });
    status.textContent = "online";
    status.className = "online";
    offline.hidden = true;
  });
  const lost = () => {
    status.textContent = "offline";
    status.className = "offline";
    offline.hidden = false; // mqtt.js keeps trying every 2 s; the banner goes on connect
  };
  client.on("offline", lost);
  client.on("close", lost);
  client.on("message", (topic, payload) => {
    let msg;
    try {
      msg = JSON.parse(payload.toString());
    } catch (error) {
      return;
    }
    onMessage(config, topic.slice(config.base.length + 1), msg);
  });
  const staleAfter = (layout.stale_after_s || 10) * 1000;
  setInterval(() => {
    const age = Date.now() - view.lastMessageAt;
    const stale = view.lastMessageAt > 0 && age > staleAfter;
    const marker = document.getElementById("stale-marker");
    marker.hidden = !stale;
    document.getElementById("stale-age").textContent = stale ? Math.round(age / 1000) + " s" : "";
    document.body.classList.toggle("stale", stale);
    renderClock();
  }, 500);
}

main();
