// The seat draw for the room's screens: every player still in, alphabetically, with his
// table and seat, from the leaderboard the clock publishes (read anonymously, like the
// clock display). A player whose table or seat changed since the last board (a new
// table, a balancing move, the final-table redraw) is highlighted until the next change.
"use strict";

let seen = null; // player -> "table/seat" on the last board

function show(board) {
  const where = new Map(board.rows.map((row) => [row.player, `${row.table}/${row.seat}`]));
  const rows = [...board.rows].sort((a, b) => a.player.localeCompare(b.player)).map((row) => {
    const li = document.createElement("li");
    li.dataset.player = row.player;
    const name = document.createElement("span");
    name.textContent = row.player;
    const at = document.createElement("span");
    at.className = "where";
    at.textContent = `Table ${row.table} · Seat ${row.seat}`;
    li.append(name, at);
    if (seen !== null && seen.get(row.player) !== where.get(row.player)) li.className = "moved";
    return li;
  });
  if (seen === null || where.size !== seen.size || [...where].some(([p, w]) => seen.get(p) !== w)) {
    document.getElementById("draw").replaceChildren(...rows);
  }
  seen = where;
  const tables = new Set(board.rows.map((row) => row.table));
  document.getElementById("summary").textContent =
    `${board.rows.length} players · ${tables.size} table${tables.size === 1 ? "" : "s"}`;
}

followLeaderboard(show);
