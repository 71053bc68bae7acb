// The room's chip counts: the leaderboard the clock process publishes, retained, on
// <venue>/leaderboard (MQTT over WebSockets, read only), with the chip audit.
"use strict";

function cell(text, numeric) {
  const td = document.createElement("td");
  td.textContent = text;
  if (numeric) td.className = "num";
  return td;
}

function show(board) {
  const rows = board.rows.map((row) => {
    const tr = document.createElement("tr");
    tr.append(cell(row.rank, true), cell(row.player), cell(row.table), cell(row.seat, true),
      cell(row.stack.toLocaleString("en-US"), true),
      cell(row.big_blinds === null ? "" : row.big_blinds.toFixed(1), true));
    return tr;
  });
  document.querySelector("#board tbody").replaceChildren(...rows);
  const average = board.average_stack === null ? "" :
    ` · average ${board.average_stack.toLocaleString("en-US")}`;
  document.getElementById("summary").textContent =
    `${board.players_left} players · ${board.chips_in_play.toLocaleString("en-US")} chips${average}`;
  const audit = document.getElementById("audit");
  if (!board.audit) {
    audit.textContent = "";
    audit.className = "";
  } else if (board.audit.ok) {
    audit.textContent = "chips match the entries";
    audit.className = "ok";
  } else {
    const diff = board.audit.difference;
    audit.textContent = `chip audit: ${diff > 0 ? "+" : ""}${diff.toLocaleString("en-US")} ` +
      `against ${board.audit.expected.toLocaleString("en-US")} entered`;
    audit.className = "bad";
  }
}

async function main() {
  const config = await (await fetch("/config.json", { cache: "no-store" })).json();
  // no login: the broker's WebSocket listener lets an anonymous page read only this
  const client = mqtt.connect(config.ws_url, { reconnectPeriod: 2000 });
  const offline = document.getElementById("offline");
  client.on("offline", () => { offline.hidden = false; });
  client.on("close", () => { offline.hidden = false; });
  client.on("connect", () => {
    offline.hidden = true;
    client.subscribe(`pokertable/v1/${config.venue}/leaderboard`, { qos: 1 });
  });
  client.on("message", (topic, payload) => {
    try {
      show(JSON.parse(payload.toString()));
    } catch (error) {
      // a bad payload leaves the last good board on screen
    }
  });
}

main();
