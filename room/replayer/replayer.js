// The hand replayer: one archived hand step by step (actions, board, pots, stacks, the
// rulings with the rulebook's text, equities per street), from hand.json beside the page
// or the URL in ?hand=. Arrow keys step too.
"use strict";

const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
let hand = null;
let at = 0;

function card(code) {
  const span = document.createElement("span");
  span.textContent = code[0].replace("T", "10") + SUITS[code[1]];
  if (code[1] === "h" || code[1] === "d") span.className = "red";
  span.dataset.card = code;
  return span;
}

function cards(codes) {
  const out = document.createElement("span");
  out.append(...codes.map(card));
  return out;
}

function cell(content, numeric) {
  const td = document.createElement("td");
  if (content instanceof Node) td.append(content); else td.textContent = content;
  if (numeric) td.className = "num";
  return td;
}

function show(index) {
  at = Math.max(0, Math.min(index, hand.steps.length - 1));
  const step = hand.steps[at];
  document.body.dataset.step = String(at);
  document.getElementById("position").textContent =
    `step ${at + 1} of ${hand.steps.length} · ${step.street}`;
  document.getElementById("action").textContent = step.action;
  document.getElementById("board").replaceChildren(cards(step.board));
  document.getElementById("pot").textContent = step.street === "complete" ? "" :
    `Pot ${step.pot.toLocaleString("en-US")}`;
  document.getElementById("pots").textContent = step.pots.map((p, i) =>
    `${i ? "side pot " + i : "main pot"} ${p.amount.toLocaleString("en-US")} (${p.eligible.join(", ")})`).join(" · ");
  const rows = step.seats.map((seat) => {
    const tr = document.createElement("tr");
    tr.dataset.seat = seat.seat;
    if (seat.folded) tr.className = "folded";
    tr.append(cell(seat.seat), cell(seat.player), cell(seat.stack.toLocaleString("en-US"), true),
      cell(seat.bet ? seat.bet.toLocaleString("en-US") : "", true), cell(cards(seat.cards)),
      cell(seat.equity === null ? "" : `${seat.equity.toFixed(1)} %`, true));
    tr.lastChild.classList.add("equity");
    return tr;
  });
  document.querySelector("#seats tbody").replaceChildren(...rows);
  document.getElementById("winners").textContent = step.winners.map((w) =>
    `${w.player} wins ${w.amount.toLocaleString("en-US")}${w.hand ? " with " + w.hand : ""}`).join(" · ");
  const rulings = step.rulings.map((r) => {
    const li = document.createElement("li");
    const ids = document.createElement("span");
    ids.className = "ids";
    ids.textContent = r.rule_ids.join(", ");
    const text = document.createElement("div");
    text.className = "rule-text";
    text.textContent = r.rule_text.join(" ");
    li.append(ids, ` ${r.text}`, text);
    return li;
  });
  document.getElementById("ruling-list").replaceChildren(...rulings);
  document.getElementById("prev").disabled = at === 0;
  document.getElementById("first").disabled = at === 0;
  document.getElementById("next").disabled = at === hand.steps.length - 1;
  document.getElementById("last").disabled = at === hand.steps.length - 1;
}

async function listHands() {
  // the archive: every hand of the venue, newest first, each a link to its replay
  const hands = await (await fetch("/hands.json", { cache: "no-store" })).json();
  document.querySelector("nav").hidden = true;
  document.querySelector("main").hidden = true;
  const list = document.getElementById("hands");
  list.hidden = false;
  list.replaceChildren(...hands.reverse().map((h) => {
    const li = document.createElement("li");
    const link = document.createElement("a");
    const query = new URLSearchParams({ table: h.table, number: h.hand_number, session: h.session });
    link.href = `?${query}`;
    link.textContent = `${h.table} hand ${h.hand_number}: ${h.players.join(", ")}`;
    link.dataset.table = h.table;
    link.dataset.number = h.hand_number;
    li.append(link);
    if (!h.phh) li.append(" (no PHH)");
    return li;
  }));
}

async function main() {
  const config = await (await fetch("/config.json", { cache: "no-store" })).json();
  const params = new URLSearchParams(location.search);
  if (config.archive && !params.has("table")) {
    await listHands();
    return;
  }
  const url = params.get("hand") || (config.archive ? `/hand.json?${params}` : "/hand.json");
  try {
    const response = await fetch(url, { cache: "no-store" });
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    hand = await response.json();
  } catch (error) {
    const shown = document.getElementById("error");
    shown.hidden = false;
    shown.textContent = `cannot load the hand: ${error.message}`;
    return;
  }
  document.getElementById("hand").textContent = hand.hand;
  document.getElementById("first").addEventListener("click", () => show(0));
  document.getElementById("prev").addEventListener("click", () => show(at - 1));
  document.getElementById("next").addEventListener("click", () => show(at + 1));
  document.getElementById("last").addEventListener("click", () => show(hand.steps.length - 1));
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowRight") show(at + 1);
    if (event.key === "ArrowLeft") show(at - 1);
  });
  show(0);
}

main();
