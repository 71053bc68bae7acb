// The game of a level and the stud facts of a hand, as the room's pages say them (the
// overlay, the floor console and the clock display load this one file). Everything comes
// from the table's public state (mqtt/schemas/state.json): the level's `game` (a PHH code),
// the state's `stud` (bring-in, opener) and each seat's `upcards`; in a draw game the
// state's `draw` (the draw under way, who is on it) and each seat's `drawn` (how many).
"use strict";

const GAME_NAMES = {
  NT: "No-limit hold'em", FT: "Limit hold'em", PO: "Pot-limit Omaha",
  "FO/8": "Limit Omaha hi-lo", "PO/8": "Pot-limit Omaha hi-lo", F7S: "Stud",
  "F7S/8": "Stud hi-lo", FR: "Razz", F2L3D: "2-7 triple draw", N2L1D: "No-limit 2-7 single draw",
  FB: "Badugi",
};
// Fixed-limit games: the big blind is the small bet and the big bet twice it.
const FIXED_LIMIT = new Set(["FT", "FO/8", "F7S", "F7S/8", "FR", "F2L3D", "FB"]);
const STUD_GAMES = new Set(["F7S", "F7S/8", "FR"]);

function gameName(code) {
  return GAME_NAMES[code] || code || "";
}

// The named mixes of controller/engine/rotation.py (NAMED_MIXES), by their games in order:
// a room says "HORSE", not five game names (tests/room/test_games_js.py keeps them equal).
const MIX_NAMES = {
  "FT FO/8 FR F7S F7S/8": "HORSE",
  "F2L3D FT FO/8 FR F7S F7S/8 NT PO": "8-Game",
};

// The game(s) of a clock level: its game, or a mix by orbit's rotation, which changes game
// after every orbit ("HORSE by orbit", "Limit hold'em \u2192 Stud by orbit").
function levelGames(level) {
  if (!level) return "";
  if (level.game) return gameName(level.game);
  const mix = level.rotation;
  if (!mix || !Array.isArray(mix.games)) return "";
  if (mix.dealers_choice) return "Dealer's choice by orbit";
  const named = MIX_NAMES[mix.games.join(" ")];
  return `${named || mix.games.map(gameName).join(" \u2192 ")} by orbit`;
}

function isStud(code) {
  return STUD_GAMES.has(code);
}

function amount(n) {
  return Number(n || 0).toLocaleString("en-US");
}

// "limits 200/400 · ante 25 · bring-in 50" (stud), "limits 100/200" (limit hold'em),
// "blinds 100/200 · ante 200" (no limit, pot limit).
// A level of a rotation by orbit has no one game: its stakes are its games' (limits when
// every game is fixed limit; the stud games' ante and bring-in when it has stud).
function stakes(level, code) {
  if (!level) return "";
  const game = code || level.game;
  const games = game ? [game] : ((level.rotation && level.rotation.games) || []);
  const parts = [];
  if (games.length && games.every((g) => FIXED_LIMIT.has(g))) {
    parts.push(`limits ${amount(level.big_blind)}/${amount(2 * level.big_blind)}`);
  } else {
    parts.push(`blinds ${amount(level.small_blind)}/${amount(level.big_blind)}`);
  }
  if (level.ante) parts.push(`ante ${amount(level.ante)}`);
  const stud = games.some(isStud);
  if (stud && !game && level.stud_ante) parts.push(`stud ante ${amount(level.stud_ante)}`);
  if (stud && level.bring_in) parts.push(`bring-in ${amount(level.bring_in)}`);
  return parts.join(" \u00b7 ");
}

function seatName(state, number) {
  const seat = (state.seats || []).find((s) => s.seat === number);
  return (seat && seat.player) || `seat ${number}`;
}

// RP-10-E / RP-10-D: who has the bring-in and who opens the street, in one line:
// "Cat brought it in for 50 · Ann opens fifth street". Empty outside a stud hand in play.
function studLine(state) {
  const stud = state && state.stud;
  if (!stud || stud.bring_in_seat === null || stud.bring_in_seat === undefined) return "";
  if (state.street === "complete") return "";  // the pot line says who won
  const parts = [];
  const bringer = seatName(state, stud.bring_in_seat);
  if (stud.bring_in_posted) {
    parts.push(`${bringer} brought it in for ${amount(stud.bring_in)}`);
  } else if (state.street === "third" && state.action_on === stud.bring_in_seat) {
    parts.push(`${bringer} to bring it in for ${amount(stud.bring_in)} or complete`);
  } else {
    parts.push(`${bringer} had the bring-in card`);  // and completed instead
  }
  const street = state.street;
  if (stud.opener_seat && street && street !== "third" && street !== "showdown" &&
      street !== "complete") {
    parts.push(`${seatName(state, stud.opener_seat)} opens ${street} street`);
  }
  return parts.join(" \u00b7 ");
}

// The tags of one seat in a stud hand: "bring-in" and "opens" (the street's first to act).
function studTags(state, seat) {
  const stud = state && state.stud;
  if (!stud) return [];
  const tags = [];
  if (stud.bring_in_seat === seat.seat) tags.push("bring-in");
  const betting = state.street && !["third", "showdown", "complete"].includes(state.street);
  if (betting && stud.opener_seat === seat.seat) tags.push("opens");
  return tags;
}

const DRAW_ORDINALS = ["first", "second", "third"];

function drawName(round) {
  return `${DRAW_ORDINALS[round - 1] || "draw " + round} draw`;
}

// A draw game's draw in one line (R35-A7: each player draws in turn, from the first seat
// left of the button): "second draw · Bob to draw", "after the first draw". Never which
// cards: only how many, as a broadcast may say. Empty before the first draw.
function drawLine(state) {
  const draw = state && state.draw;
  if (!draw || !draw.round || ["showdown", "complete"].includes(state.street)) return "";
  if (!draw.drawing) return `after the ${drawName(draw.round)}`;
  const parts = [drawName(draw.round)];
  if (draw.on_draw !== null && draw.on_draw !== undefined) {
    parts.push(`${seatName(state, draw.on_draw)} to draw`);
  } else if (Array.isArray(draw.serving) && draw.serving.length) {
    parts.push(`the dealer serves ${draw.serving.map((s) => seatName(state, s)).join(", ")}`);
  }
  return parts.join(" \u00b7 ");
}

// The tags of one seat in a draw game's draw: "drawing" (his turn), then what he did at
// this draw: "pat" or "drew 2".
function drawTags(state, seat) {
  const draw = state && state.draw;
  if (!draw || !draw.round || state.street === "complete" || !Array.isArray(seat.drawn)) {
    return [];
  }
  const tags = [];
  if (draw.drawing && draw.on_draw === seat.seat) tags.push("drawing");
  const count = seat.drawn[draw.round - 1];
  if (count !== undefined) tags.push(count === 0 ? "pat" : `drew ${count}`);
  return tags;
}
