// The floor console: every table of the venue live, every open floor call with its options
// as buttons, and the table actions a director needs. It speaks MQTT over WebSockets with
// the person's own broker login (the ACL is the authorisation); every command it sends
// carries `note: "by <login> (floor console)"`, which the table journals with the time.
"use strict";

const DEALER_BUTTONS = ["hand_start", "check_call", "bet_raise", "all_in", "fold", "pot",
  "clock", "confirm", "undo"];
const ENTRY_FIELDS = { // the dealer's and floor's entries (issue #17) and what each carries
  clock_call: [], clock_expired: [], count_error: [], pot_count: ["seat", "amount"],
  chips_found: ["seat", "amount"], short_bet_stands: ["seat", "amount"],
  short_bet_noticed: ["seat"], dispute: ["hand_id", "about"],
  card_exposed: ["seat", "card_index"], // stud: card 1-2 RP-10-A, card 7 RP-10-B
  upcards_picked_up: ["seat"], choose_game: ["game"], // stud R66; dealer's choice
};
const tables = new Map(); // table id -> {state, status, clockDeadline}
const pending = new Map(); // request id -> {table, what}
let client = null;
let login = "";
let config = null;

function topic(table, leaf) {
  return `pokertable/v1/${config.venue}/${table}/${leaf}`;
}

function send(table, command) {
  const requestId = `floor-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const payload = { ...command, request_id: requestId, note: `by ${login} (floor console)` };
  pending.set(requestId, { table, what: command.command });
  // cmd/<login>: the broker lets a login publish only under its own name, so the table
  // records who decided from the topic, whatever the note says
  client.publish(topic(table, `cmd/${login}`), JSON.stringify(payload), { qos: 1 });
  return requestId;
}

function text(el, value) {
  el.textContent = value;
  return el;
}

function ruleText(ruleId) {
  // the rulebook's passages and concepts for a rule id and its rule (71C -> 71), as
  // room/rule_texts.py lookup() gathers them
  const base = (ruleId.match(/^([A-Za-z0-9]+-(?:RP-)?\d+)/) || [ruleId])[0];
  const titles = [];
  const concepts = [];
  const passages = [];
  for (const key of new Set([ruleId, base])) {
    const entry = (config.rules || {})[key] || { title: [], concepts: [], passages: [] };
    for (const t of entry.title) if (!titles.includes(t)) titles.push(t);
    for (const c of entry.concepts) if (!concepts.includes(c)) concepts.push(c);
    for (const p of entry.passages) if (!passages.includes(p)) passages.push(p);
  }
  const box = Object.assign(document.createElement("div"), { className: "rule-text" });
  box.dataset.rule = ruleId;
  box.append(text(document.createElement("strong"), `${ruleId}` +
    (titles.length ? ` ${titles.join(" / ")}` : "") +
    (concepts.length ? ` (${concepts.join(", ").replaceAll("_", " ")})` : "")));
  for (const passage of passages) box.append(text(document.createElement("q"), passage));
  return box;
}

function renderCalls() {
  const calls = document.getElementById("calls");
  const items = [];
  for (const [id, table] of [...tables.entries()].sort()) {
    for (const alert of (table.state && table.state.alerts) || []) {
      const card = document.createElement("div");
      card.className = "call";
      card.dataset.alert = alert.id;
      card.dataset.table = id;
      if (table.answered && table.answered.has(alert.id)) card.classList.add("pending");
      card.append(
        text(document.createElement("div"), `Table ${id} · ${alert.kind}`),
        text(Object.assign(document.createElement("div"), { className: "rules" }),
          alert.rule_ids.join(" ")),
        ...alert.rule_ids.map(ruleText),
        text(document.createElement("p"), alert.text),
      );
      for (const option of alert.options) {
        const button = text(document.createElement("button"), option);
        button.dataset.option = option;
        button.addEventListener("click", () => {
          table.answered = table.answered || new Set();
          table.answered.add(alert.id);
          send(id, { command: "floor_decision", alert_id: alert.id, decision: option });
          renderCalls();
        });
        card.append(button);
      }
      items.push(card);
    }
  }
  const none = text(Object.assign(document.createElement("p"), { className: "none" }),
    "None open.");
  calls.replaceChildren(text(document.createElement("h2"), "Floor calls"),
    ...(items.length ? items : [none]));
}

function tableElement(id) {
  let el = document.querySelector(`.table[data-table="${id}"]`);
  if (el) return el;
  el = document.getElementById("table-template").content.firstElementChild.cloneNode(true);
  el.dataset.table = id;
  el.querySelector(".name").textContent = `Table ${id}`;
  for (const button of el.querySelectorAll(".actions button")) {
    button.addEventListener("click", () => {
      const command = { command: button.dataset.command };
      if (button.dataset.enabled) command.enabled = button.dataset.enabled === "true";
      send(id, command);
    });
  }
  el.querySelector(".send-entry").addEventListener("click", () => {
    const name = el.querySelector(".entry-command").value;
    const command = { command: name };
    const state = tables.get(id).state || {};
    const seat = parseInt(el.querySelector(".entry-seat").value, 10);
    if (name === "clock_call" && seat > 0) { // a player's request (R29): who asks, how long
      command.requested_by_seat = seat;
      command.waited_s = Math.floor((performance.now() - (tables.get(id).actionSince || 0)) / 1000);
    }
    for (const field of ENTRY_FIELDS[name]) {
      if (field === "seat") command.seat = parseInt(el.querySelector(".entry-seat").value, 10);
      if (field === "amount") command.amount = parseInt(el.querySelector(".dealer .amount").value, 10);
      if (field === "about") command.about = el.querySelector(".entry-about").value;
      if (field === "hand_id") command.hand_id = state.hand_id;
      if (field === "card_index") command.card_index = parseInt(el.querySelector(".entry-card").value, 10);
      if (field === "game") command.game = el.querySelector(".entry-game").value;
    }
    send(id, command);
  });
  const buttons = el.querySelector(".dealer .buttons");
  for (const name of DEALER_BUTTONS) {
    const button = text(document.createElement("button"), name.replace("_", " "));
    button.dataset.button = name;
    button.addEventListener("click", () => {
      const command = { command: "dealer_button", button: name };
      const amount = parseInt(el.querySelector(".dealer .amount").value, 10);
      if (name === "bet_raise" && amount > 0) command.amount = amount;
      send(id, command);
    });
    buttons.append(button);
  }
  el.querySelector(".seat-player").addEventListener("click", () => send(id, {
    command: "seat_player",
    seat: parseInt(el.querySelector(".seat-no").value, 10),
    player: el.querySelector(".player-name").value,
    stack: parseInt(el.querySelector(".player-stack").value, 10),
  }));
  el.querySelector(".record-penalty").addEventListener("click", () => {
    const command = {
      command: "penalty",
      seat: parseInt(el.querySelector(".penalty-seat").value, 10),
      penalty: el.querySelector(".penalty-kind").value,
      rule_ids: [el.querySelector(".penalty-rule").value],
    };
    if (command.penalty === "missed_hands" || command.penalty === "missed_rounds") {
      command.count = parseInt(el.querySelector(".penalty-count").value, 10);
    }
    send(id, command);
  });
  const all = [...document.querySelectorAll("#tables .table")];
  const after = all.find((other) => other.dataset.table > id);
  document.getElementById("tables").insertBefore(el, after || null);
  return el;
}

function renderTable(id) {
  const table = tables.get(id);
  const el = tableElement(id);
  const status = el.querySelector(".status");
  status.textContent = table.status || "unknown";
  status.className = "status " + (table.status || "");
  const state = table.state;
  if (!state) return;
  el.querySelector(".hand").textContent = `hand ${state.hand_number}` +
    (state.paused ? " · paused" : "") + (state.hand_for_hand ? " · hand-for-hand" : "") +
    (state.deal_held ? " · dealer ready, waiting for the room" : "") +
    (state.runout_held ? " · all in and called: cards face down until the room says (RP-8-F)" : "");
  const penalties = state.penalties || [];
  const inHand = state.street !== null && state.street !== "complete";
  el.querySelector(".penalties").textContent = penalties.length ? "On penalty: " +
    penalties.map((p) => `seat ${p.seat} (${p.hands_left} ${inHand ? "more " : ""}` +
      `hand${p.hands_left === 1 ? "" : "s"} to sit out${inHand ? " after this one" : ""}, ` +
      `${p.rule_ids.join(" ")})`).join("; ") : "";
  const level = state.level;
  const orbit = state.orbit; // a mix by orbit: the game dealt, how far its orbit is, the next
  // mixed games: the game dealt (the level's, from its first hand; games.js) and its stakes
  el.querySelector(".level").textContent = `level ${level.number}: ` + (orbit
    ? `${state.game} (orbit ${orbit.hands_played}/${orbit.hands || "?"}, next ` +
      `${state.next_game || "the button's pick"}) ` +
      `${level.small_blind}/${level.big_blind}` + (level.ante ? ` ante ${level.ante}` : "")
    : `${gameName(state.game)} \u00b7 ${stakes(level, state.game)}`);
  // stud: the street, who brought it in and who opens the street (RP-10-D/E)
  // draw games: the draw under way and who is on it (R35-A7), in the same line
  const stud = el.querySelector(".stud");
  const studText = studLine(state);
  const street = state.street === "showdown" ? "showdown" : `${state.street} street`;
  stud.textContent = studText ? `${street} \u00b7 ${studText}` : drawLine(state);
  stud.hidden = !stud.textContent;
  el.querySelector("th.showing").hidden = !isStud(state.game);
  const rows = [];
  for (const seat of state.seats) {
    if (seat.status === "empty") continue;
    const row = document.createElement("tr");
    row.dataset.seat = seat.seat;
    if (state.action_on === seat.seat) row.className = "acting";
    const onPenalty = penalties.some((p) => p.seat === seat.seat);
    for (const value of [seat.seat, seat.player || "", seat.stack.toLocaleString("en-US"),
      seat.bet ? seat.bet.toLocaleString("en-US") : "",
      [seat.status, ...drawTags(state, seat), ...(onPenalty ? ["penalty"] : [])].join(" · ")]) {
      row.append(text(document.createElement("td"), String(value)));
    }
    if (isStud(state.game)) {  // the upcards everyone sees, and the seat's stud tags
      const tags = studTags(state, seat);
      const showing = text(document.createElement("td"), (seat.upcards || []).join(" ") +
        (tags.length ? ` (${tags.join(", ")})` : ""));
      showing.className = "showing";
      row.append(showing);
    }
    const cell = document.createElement("td");
    const away = seat.status === "absent";
    const toggle = text(document.createElement("button"), away ? "present" : "absent");
    toggle.addEventListener("click", () => send(id, {
      command: away ? "player_present" : "player_absent", seat: seat.seat }));
    cell.append(toggle);
    row.append(cell);
    rows.push(row);
  }
  el.querySelector(".players tbody").replaceChildren(...rows);
}

const services = new Map(); // "<login>/<service>" -> online | offline | lost

function showServices() {
  // the room's services (clock, seating desk, relay, archive): a missing one is named
  const line = document.getElementById("room-services");
  line.replaceChildren(...[...services].sort().map(([name, state]) => {
    const item = document.createElement("span");
    item.dataset.service = name;
    item.className = state === "online" ? "service online" : "service down";
    item.textContent = `${name.split("/").pop()} ${state}`;
    return item;
  }));
}

function onMessage(topicName, payload) {
  const servicesPrefix = `pokertable/v1/${config.venue}/services/`;
  if (topicName.startsWith(servicesPrefix)) {
    try {
      services.set(topicName.slice(servicesPrefix.length), JSON.parse(payload.toString()).state);
    } catch (error) {
      return;
    }
    showServices();
    return;
  }
  if (topicName === `pokertable/v1/${config.venue}/clock/status`) {
    try {
      showRoomClock(JSON.parse(payload.toString()));
    } catch (error) {
      // a bad status leaves the last one on screen
    }
    return;
  }
  const parts = topicName.split("/");
  if (parts.length < 5) return; // venue-level topics (the seating desk's) are not tables
  const id = parts[3];
  const leaf = parts.slice(4).join("/");
  let msg;
  try {
    msg = JSON.parse(payload.toString());
  } catch (error) {
    return;
  }
  if (!tables.has(id)) tables.set(id, { state: null, status: null });
  const table = tables.get(id);
  if (leaf === "state") {
    if (!table.state || table.state.action_on !== msg.action_on) table.actionSince = performance.now();
    table.state = msg;
    // R29: the table's own clock says when the time is up; count down from arrival
    table.clockDeadline = msg.clock ? performance.now() + (msg.clock.expires_at_ms - msg.ts_ms) : null;
    if (table.answered) {
      const open = new Set((msg.alerts || []).map((a) => a.id));
      for (const answered of [...table.answered]) if (!open.has(answered)) table.answered.delete(answered);
    }
  } else if (leaf === "status") {
    table.status = msg.state;
  } else if (leaf === "reply" && pending.has(msg.request_id)) {
    const asked = pending.get(msg.request_id);
    pending.delete(msg.request_id);
    const line = tableElement(id).querySelector(".reply");
    line.textContent = msg.ok ? `${asked.what}: done` : `${asked.what}: ${msg.error}`;
    line.className = "reply" + (msg.ok ? "" : " error");
    if (!msg.ok && table.answered) table.answered.clear();
  }
  renderTable(id);
  renderCalls();
}

function tickClocks() {
  for (const [id, table] of tables) {
    const el = document.querySelector(`.table[data-table="${id}"] .player-clock`);
    if (!el) continue;
    const clock = table.state && table.state.clock;
    if (!clock || table.clockDeadline === null) {
      el.hidden = true;
      continue;
    }
    const left = Math.max(0, Math.ceil((table.clockDeadline - performance.now()) / 1000));
    el.hidden = false;
    el.className = "player-clock" + (left <= clock.countdown ? " final" : "");
    el.dataset.seconds = left;
    el.textContent = left === 0 ? `seat ${clock.seat}: time is up` : left <= clock.countdown
      ? `seat ${clock.seat}: final count ${left}` : `seat ${clock.seat} on the clock: ${left} s`;
  }
}

function showRoomClock(status) {
  const level = status.level;
  const seconds = Math.ceil(status.remaining_ms / 1000);
  const time = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  document.getElementById("room-clock").textContent = `${status.step}` +
    (level ? ` ${levelGames(level) ? levelGames(level) + " " : ""}${stakes(level)}` : "") +
    ` · ${time}` +
    (status.paused ? " · clock stopped" : "");
  const h4h = status.hand_for_hand;
  document.getElementById("room-h4h").textContent = !h4h ? "" :
    `hand-for-hand: ${h4h.hands} hand${h4h.hands === 1 ? "" : "s"} dealt` +
    (h4h.waiting_for.length ? ` · waiting for ${h4h.waiting_for.join(", ")}` : " · all tables done");
}

function control(command) {
  const payload = { ...command, note: `by ${login} (floor console)` };
  client.publish(`pokertable/v1/${config.venue}/clock/control`, JSON.stringify(payload), { qos: 1 });
}

function tellTables(command) {
  // the venue's clock topic: every table applies it (Rule 48's players left, Rule 24)
  const payload = { ...command, request_id: `floor-${Date.now().toString(36)}` };
  client.publish(`pokertable/v1/${config.venue}/clock`, JSON.stringify(payload), { qos: 1 });
}

function connect(username, password) {
  const error = document.getElementById("login-error");
  error.textContent = "";
  // a random suffix: two tablets on one login must not take each other's session over
  const clientId = `floor-${username.replace(/[^A-Za-z0-9_-]/g, "_")}-` +
    Math.random().toString(36).slice(2, 10);
  client = mqtt.connect(config.ws_url, { username, password, clientId,
    reconnectPeriod: 2000, connectTimeout: 10000 });
  const offline = document.getElementById("offline");
  const lost = () => { if (login) offline.hidden = false; };
  client.on("offline", lost);
  client.on("close", lost);
  client.on("connect", () => {
    offline.hidden = true;
    if (login) return; // a reconnect: mqtt.js subscribes again by itself
    login = username;
    document.getElementById("login").hidden = true;
    document.getElementById("room").hidden = false;
    document.getElementById("who").textContent = `signed in as ${username}`;
    const base = `pokertable/v1/${config.venue}/+/`;
    client.subscribe(["state", "status", "reply"].map((leaf) => base + leaf), { qos: 1 });
    document.dispatchEvent(new CustomEvent("floor-connected", { detail: { client, venue: config.venue } }));
    client.subscribe(`pokertable/v1/${config.venue}/clock/status`, { qos: 1 });
    client.subscribe(`pokertable/v1/${config.venue}/services/#`, { qos: 1 });
  });
  client.on("error", (err) => {
    if (login) return; // signed in: the banner says offline and the page keeps trying
    error.textContent = `sign-in refused: ${err.message}`;
    client.end(true);
  });
  client.on("message", onMessage);
}

async function main() {
  config = await (await fetch("/config.json", { cache: "no-store" })).json();
  document.getElementById("venue").textContent = config.venue;
  if (config.replayer_url) {  // the archived hands, step by step (a disputed hand, R22)
    const replayer = document.getElementById("replayer");
    replayer.href = config.replayer_url;
    replayer.hidden = false;
  }
  for (const id of ["h4h-on", "h4h-off"]) {
    const button = document.getElementById(id);
    button.addEventListener("click", () => control({ command: "hand_for_hand",
      enabled: button.dataset.enabled === "true" }));
  }
  document.getElementById("deal-next").addEventListener("click", () => control({ command: "deal_next" }));
  // the tournament clock: back or on a level, time added or taken, straight to a level
  for (const button of document.querySelectorAll("button[data-clock]")) {
    button.addEventListener("click", () => control(button.dataset.seconds
      ? { command: button.dataset.clock, seconds: parseInt(button.dataset.seconds, 10) }
      : { command: button.dataset.clock }));
  }
  document.getElementById("send-go-to-level").addEventListener("click", () => control({
    command: "go_to_level", level: parseInt(document.getElementById("go-to-level").value, 10) }));
  document.getElementById("send-players-left").addEventListener("click", () => tellTables({
    command: "players_left", count: parseInt(document.getElementById("players-left").value, 10) }));
  document.getElementById("send-color-up").addEventListener("click", () => tellTables({
    command: "color_up",
    removed: document.getElementById("color-up-removed").value.split(",")
      .map((d) => parseInt(d, 10)).filter((d) => d > 0) }));
  setInterval(tickClocks, 200);
  document.getElementById("login").addEventListener("submit", (event) => {
    event.preventDefault();
    connect(document.getElementById("username").value,
      document.getElementById("password").value);
  });
}

main();
