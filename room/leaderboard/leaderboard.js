// The room's chip counts: the leaderboard the clock process publishes, retained, on
// <venue>/leaderboard (MQTT over WebSockets, read only), with the chip audit.
"use strict";

function cell(text, numeric) {
  const td = document.createElement("td");
  td.textContent = text;
  if (numeric) td.className = "num";
  return td;
}

function showMoney(board) {
  // the prize pool, what each place pays, and what each eliminated player won (players
  // tied on one hand-for-hand hand share the places they cover, RP-8-A)
  const payouts = board.payouts || [];
  document.getElementById("money").hidden = !payouts.length;
  document.getElementById("pool").textContent = payouts.length
    ? `· prize pool ${board.prize_pool.toLocaleString("en-US")}` : "";
  document.getElementById("payout-list").replaceChildren(...payouts.map((p) => {
    const li = document.createElement("li");
    li.value = p.place;
    li.textContent = p.amount.toLocaleString("en-US");
    return li;
  }));
  const out = (board.eliminated || []).map((row) => {
    const tr = document.createElement("tr");
    const place = row.tied > 1 ? `${row.place} (tied ${row.tied})` : row.place;
    tr.append(cell(place, true), cell(row.player), cell(row.table),
      cell(row.prize ? row.prize.toLocaleString("en-US") + (row.prize_td ? " (TD decides)" : "") : "", true));
    return tr;
  });
  document.querySelector("#eliminated tbody").replaceChildren(...out);
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
  showMoney(board);
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

followLeaderboard(show);
