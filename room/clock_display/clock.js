// The big clock display: level, blinds, time left, next level, players left and average
// stack, from the clock's retained <venue>/clock/status (MQTT over WebSockets, read only).
"use strict";

function chips(n) {
  return Number(n).toLocaleString("en-US");
}

// Mixed games: a level's game (PHH code) as the room says it (../overlay/games.js), with
// its limits; stud: its ante and bring-in; a mix by orbit: its rotation (levelGames).
function blinds(level) {
  if (!level) return "";
  // stud and a mix by orbit: limits, ante and bring-in as the floor console says them
  if (isStud(level.game) || level.rotation) return `${levelGames(level)} \u00b7 ${stakes(level)}`;
  const names = { bb_ante: " BB ante ", button_ante: " button ante " };
  const ante = level.ante ? (names[level.ante_format] || " ante ") + chips(level.ante) : "";
  const game = level.game ? gameName(level.game) + " \u00b7 " : "";
  return `${game}${chips(level.small_blind)} / ${chips(level.big_blind)}${ante}`;
}

function money(n) {
  return Number(n).toLocaleString("en-US");
}

// Sounds at a new level and at a break, made in the page (no audio file to serve); the
// mute button's choice is kept in this browser. Every sound the page would make is
// logged in window.clockSounds ({kind, played}), so a test can see a muted one skipped.
const sounds = { muted: localStorage.getItem("pokertable-clock-muted") === "1", last: null, audio: null };
window.clockSounds = [];

function setMuted(muted) {
  sounds.muted = muted;
  localStorage.setItem("pokertable-clock-muted", muted ? "1" : "0");
  const button = document.getElementById("mute");
  button.setAttribute("aria-pressed", String(muted));
  button.textContent = muted ? "Sound off" : "Sound on";
}

function chime(kind) {
  const played = !sounds.muted;
  window.clockSounds.push({ kind, played });
  if (!played) return;
  try {
    sounds.audio = sounds.audio || new AudioContext();
    const notes = kind === "break" ? [660, 550, 440] : [440, 550, 660];
    notes.forEach((hz, i) => {
      const osc = sounds.audio.createOscillator();
      const gain = sounds.audio.createGain();
      osc.frequency.value = hz;
      gain.gain.value = 0.2;
      osc.connect(gain).connect(sounds.audio.destination);
      const at = sounds.audio.currentTime + i * 0.35;
      osc.start(at);
      osc.stop(at + 0.3);
    });
  } catch (error) {
    // no audio device: the display goes on silently
  }
}

function showPrizes(status) {
  const prizes = document.getElementById("prizes");
  const payouts = status.payouts || [];
  prizes.hidden = !payouts.length;
  if (prizes.hidden) return;
  document.getElementById("pool").textContent = `Prize pool ${money(status.prize_pool)}`;
  const next = status.next_payout;
  document.getElementById("next-payout").textContent = next
    ? `Next out: ${next.place}${ordinal(next.place)} · ${money(next.amount)}`
    : `${status.places_paid} places paid`;
  const shown = payouts.slice(0, 10).map((p) => {
    const li = document.createElement("li");
    li.value = p.place;
    li.dataset.place = p.place;
    li.textContent = money(p.amount);
    if (next && next.place === p.place) li.className = "next";
    return li;
  });
  document.getElementById("payout-list").replaceChildren(...shown);
  const deal = document.getElementById("deal");
  deal.hidden = !status.deal;
  if (status.deal) {
    deal.textContent = status.deal.error ? `Deal: ${status.deal.error}` :
      "ICM deal\n" + status.deal.rows.map((r) => `${r.player} ${money(r.stack)} chips: ${money(r.icm)}`).join("\n");
    deal.style.whiteSpace = "pre-line";
  }
}

function ordinal(n) {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return "th";
  return { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
}

function show(status) {
  // a new step (not the first status after the page opened) rings once
  if (sounds.last !== null && sounds.last !== status.step) chime(status.is_break ? "break" : "level");
  sounds.last = status.step;
  showPrizes(status);
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
  setMuted(sounds.muted);
  document.getElementById("mute").addEventListener("click", () => setMuted(!sounds.muted));
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
