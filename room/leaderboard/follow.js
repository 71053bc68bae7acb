// The leaderboard the clock publishes, retained, on <venue>/leaderboard (MQTT over
// WebSockets, read only), for the pages that show it: the chip counts and the seat draw.
// Each board goes to the page's show(board); a bad payload leaves the last good one on
// screen, and the offline banner shows while the broker is out of reach.
"use strict";

async function followLeaderboard(show) {
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
