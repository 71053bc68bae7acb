// The big clock display: level, blinds, time left, next level, players left and average
// stack, from the clock's retained <venue>/clock/status (MQTT over WebSockets, read only).
"use strict";

function chips(n) {
  return Number(n).toLocaleString("en-US");
}

// Mixed games: a level's game (PHH code) as the room says it.
const GAMES = {
  NT: "No-limit hold'em", FT: "Limit hold'em", PO: "Pot-limit Omaha",
  "FO/8": "Limit Omaha hi-lo", "PO/8": "Pot-limit Omaha hi-lo", F7S: "Stud",
  "F7S/8": "Stud hi-lo", FR: "Razz", F2L3D: "2-7 triple draw", N2L1D: "No-limit 2-7 single draw",
  FB: "Badugi",
};

function blinds(level) {
  if (!level) return "";
  const names = { bb_ante: " BB ante ", button_ante: " button ante " };
  const ante = level.ante ? (names[level.ante_format] || " ante ") + chips(level.ante) : "";
  const game = level.game ? (GAMES[level.game] || level.game) + " \u00b7 " : "";
  return `${game}${chips(level.small_blind)} / ${chips(level.big_blind)}${ante}`;
}

function show(status) {
  const seconds = Math.ceil(status.remaining_ms / 1000);
  const mm = String(Math.floor(seconds / 60)).padStart(2, "0");
  const ss = String(seconds % 60).padStart(2, "0");
  document.getElementById("step").textContent = status.step;
  document.getElementById("time").textContent = `${mm}:${ss}`;
  document.getElementById("blinds").textContent = status.is_break ? "Break" : blinds(status.level);
  document.getElementById("next").textContent = status.next_level
    ? "Next: " + blinds(status.next_level) : "";
  document.getElementById("players").textContent = status.players_left
    ? `Players ${status.players_left}` : "";
  document.getElementById("average").textContent = status.average_stack
    ? `Average ${chips(status.average_stack)}` : "";
  document.getElementById("break-in").textContent = status.steps_to_break
    ? `Break in ${status.steps_to_break} level${status.steps_to_break > 1 ? "s" : ""}` : "";
  document.getElementById("paused").hidden = !status.paused;
  // a table that refused a level plays on with its old blinds: the room must know
  const refused = (status.refused || []).map((r) => {
    const line = document.createElement("div");
    line.dataset.table = r.table;
    line.textContent = `Table ${r.table} refused level ${r.level}: ${r.error}`;
    return line;
  });
  document.getElementById("refused").replaceChildren(...refused);
  const colorUp = document.getElementById("color-up");
  colorUp.hidden = !(status.color_up && status.color_up.length);
  colorUp.textContent = colorUp.hidden ? "" : "Colour up: " + status.color_up.map(chips).join(", ");
  const h4h = document.getElementById("h4h");
  h4h.hidden = !status.hand_for_hand;
  h4h.textContent = h4h.hidden ? "" : "HAND FOR HAND" + (status.hand_for_hand.waiting_for.length
    ? " · waiting for " + status.hand_for_hand.waiting_for.join(", ") : "");
  // R29: each table's player on the clock, the seconds left as the clock counts them
  const clocks = (status.player_clocks || []).map((c) => {
    const line = document.createElement("div");
    line.dataset.table = c.table;
    line.dataset.seconds = c.seconds_left;
    line.textContent = `Table ${c.table} seat ${c.seat} on the clock: ${c.seconds_left}`;
    if (c.final) line.className = "final";
    return line;
  });
  document.getElementById("player-clocks").replaceChildren(...clocks);
}

async function main() {
  const config = await (await fetch("/config.json", { cache: "no-store" })).json();
  // no login: the broker's WebSocket listener lets an anonymous page read only this
  const client = mqtt.connect(config.ws_url, { reconnectPeriod: 2000 });
  const offline = document.getElementById("offline");
  client.on("offline", () => { offline.hidden = false; });
  client.on("close", () => { offline.hidden = false; });
  const statusTopic = `pokertable/v1/${config.venue}/clock/status`;
  // the clock process says online / offline, and its last will says lost
  const serviceTopic = `pokertable/v1/${config.venue}/services/+/clock`;
  client.on("connect", () => {
    offline.hidden = true;
    client.subscribe([statusTopic, serviceTopic], { qos: 1 });
  });
  client.on("message", (topic, payload) => {
    try {
      if (topic !== statusTopic) {
        const running = JSON.parse(payload.toString()).state === "online";
        document.getElementById("clock-lost").hidden = running;
        return;
      }
      show(JSON.parse(payload.toString()));
    } catch (error) {
      // a bad payload leaves the last good display on screen
    }
  });
}

main();
