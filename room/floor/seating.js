// The seating desk's part of the floor console (`pokertable seating`): the moves it proposes
// (balancing R11, breaking R10, final table RP-9, late entries R8) each with a Confirm button,
// tables that must halt (R11-D), and the colour-up chip race for the dealers (R24). It reads
// the desk's retained `<venue>/seating` and sends `confirm_move` on `<venue>/seating/control`;
// the desk then moves the player at both tables.
"use strict";

(() => {
  let desk = null; // {client, venue}

  function el(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  function control(command) {
    desk.client.publish(`pokertable/v1/${desk.venue}/seating/control`, JSON.stringify(command),
      { qos: 1 });
  }

  function render(seating) {
    const section = document.getElementById("seating");
    section.hidden = false;
    const items = [el("h2", "Seating")];
    for (const move of seating.moves || []) {
      const card = el("div", undefined, "move");
      card.dataset.move = move.id;
      const from = move.source ? `${move.source} seat ${move.seat}` : "registration";
      card.append(
        el("div", `${move.player} (${move.stack}): ${from} → ${move.destination} seat ${move.to_seat}`),
        el("div", move.rule_ids.join(" "), "rules"),
        el("p", move.reason + (move.td ? " (TD's choice: confirm or seat by hand)" : "")),
      );
      const confirm = el("button", "Confirm move");
      confirm.dataset.confirm = move.id;
      confirm.addEventListener("click", () => {
        confirm.disabled = true;
        control({ command: "confirm_move", id: move.id });
      });
      card.append(confirm);
      items.push(card);
    }
    for (const halt of seating.halts || []) {
      const card = el("div", `Table ${halt.table} halts: ${halt.reason}`, "halt");
      card.append(el("span", " " + halt.rule_ids.join(" "), "rules"));
      const waive = el("button", "Waive");
      waive.addEventListener("click", () => control({ command: "waive_halt", table: halt.table }));
      card.append(waive);
      items.push(card);
    }
    for (const [table, race] of Object.entries(seating.chip_race || {})) {
      const card = el("div", undefined, "race");
      card.dataset.race = table;
      card.append(el("div", `Chip race, table ${table}: ${race.removed.join(", ")} off, ` +
        `${race.chips_raced} × ${race.denomination} raced`), el("div", race.rule_ids.join(" "), "rules"));
      const list = el("ul");
      for (const line of race.lines) {
        const got = line.given ? "1 (can't be raced out)" : String(line.new_chips);
        list.append(el("li", `seat ${line.seat} ${line.player}: ${line.removed} off, cards ` +
          `${line.cards.join(" ") || "-"}${line.won ? ", wins a chip" : ""} → ${got} × ${race.denomination}`));
      }
      card.append(list);
      items.push(card);
    }
    if (!(seating.moves || []).length && !(seating.halts || []).length) {
      items.push(el("p", "Tables balanced.", "none"));
    }
    const last = (seating.done || []).slice(-1)[0];
    if (last) items.push(el("p", last.ok ? `moved ${last.player}` : `refused: ${last.error}`,
      last.ok ? "done" : "done error"));
    section.replaceChildren(...items);
  }

  document.addEventListener("floor-connected", (event) => {
    desk = event.detail;
    const topic = `pokertable/v1/${desk.venue}/seating`;
    desk.client.subscribe(topic, { qos: 1 });
    desk.client.on("message", (name, payload) => {
      if (name !== topic) return;
      try {
        render(JSON.parse(payload.toString()));
      } catch (error) {
        // a bad payload is dropped; the next one redraws the section
      }
    });
  });
})();
