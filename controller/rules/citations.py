"""The citation table: each concept a ruling cites, and its rule number under TDA 2024.

``RuleProfile.cite`` reads it through the profile's ``citations``; other editions override
entries in their rulebooks (``profiles.py``), and a concept a rulebook names that is not
here is refused. Layers add the concepts they cite below their issue's line.

>>> TDA_2024_CITATIONS["reopen"]
'47A'
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

# Concept -> rule number under TDA 2024. Other editions override entries (issue: profiles).
TDA_2024_CITATIONS: Mapping[str, str] = MappingProxyType(
    {
        "rules": "",
        "odd_chip": "20A",
        "odd_chip_hi_lo": "20C",  # H/L split: the odd chip of the total pot to the high side
        "side_pots": "21",
        "mixed_game_button": "11B",  # mixed games: the button at a change of game
        "dead_button": "32",
        "heads_up": "34B",
        "new_player_deal_in": "8A",
        "at_seat": "30",
        "substantial_action": "36",
        "all_in_face_up": "16",
        "show_order": "17A",
        "uncontested": "17B",
        "tabling": "13A",
        "in_turn_binding": "50A",
        "acting_in_turn": "53A",
        "min_raise": "43A",
        "raise_total": "43B",
        "reopen": "47A",
        "reopen_limit": "47B",
        "raise_cap": "48",
        "call_undercall": "51B",
        "check_facing_bet": "55",  # R55's check sentence has no letter (A, B: call, raise)
        "call_is_check": "55A",
        "fouled_deck": "35E",
        "nonstandard_card": "35A6",
        "pot_limit": "54",
        "pot_limit_preflop": "54B",
        "nonstandard_fold": "58",
        "antes": "RP-11",
        "fouled_hand": "65A",
        "uncalled_bet": "65A",
        # --- interpretation citations (issue 3): add entries below this line ---
        "verbal_chips": "40A",
        "declaration_forms": "40B",
        "amount_only": "40C",
        "calling_methods": "41",
        "raising_methods": "42",
        "overchip": "44",
        "multichip_call": "45A",
        "multichip_fifty": "45B1",
        "multichip_all_in": "45B2",
        "prior_chips_verbalize": "46A",
        "prior_chips_pulled": "46B",
        "prior_chips": "46C",
        "accepted_action": "49",
        "wait_for_amount": "50B",
        "general_declaration": "51A",
        "undercall_sequence": "51C",
        "underbet": "52A",
        "pl_miscount": "52B",
        "pot_count": "54A",
        "nl_pot_declaration": "54D",
        "raise_is_min_bet": "55B",
        "string_bet": "56",
        "unclear_betting": "57",
        "conditional": "59A",
        "premature_call": "59B",
        "overbet_change": "61",
        "non_value_items": "RP-22",
        "chips_behind": "62",
        "floor_discretion": "1",
        "foreign_chip": "64",
        # --- irregularities citations (issue 4): add entries below this line ---
        "reader_fault": "1",  # no rule covers a reader fault: Rule 1, the floor decides
        "misdeal_boxed": "35A1",
        "misdeal_first_card": "35A2",
        "misdeal_not_entitled": "35A3",
        "misdeal_dealt_out": "35A4",
        "misdeal_card_count": "35A5",
        "misdeal_exposed": "35A7",
        "button_consecutive": "35B",
        "redeal": "35C",
        "no_misdeal_after_sa": "35D",
        "button_short": "37",
        "one_burn": "38",
        "four_card_flop": "39A",
        "flop_no_burn": "39B",
        "stub_reshuffle": "39D",
        "premature_cards": "RP-5",
        "skipped_player": "53B",
        "level_change": "23",
        "button_placement": "34A",
        "rabbit_hunting": "28",
        "muck_kills": "14",
        "see_hand_lost": "18A",
        "see_hand": "18B",
        "fouled_identifiable": "65B",
        "penalty_hand": "71C",
        "disqualified_chips": "71D",
        "leave_table": "31",
        # --- stud at the live table (issue 30): irregularities/stud_cards.py ---
        "stud_premature": "RP-5D",  # a premature card in stud: the procedure
        "stud_premature_see": "RP-10G",  # RP-10-G: "for premature cards dealt in stud see RP-5-D"
        # --- profile citations (issue 8): concepts of parameters no layer cites yet ---
        "official_language": "6",
        "clock": "29",
        "disputes": "22",
        "late_entry": "8A",
        "breaking": "10",
        "balancing": "11",
        "dodging": "33",
        "color_up": "24",
        "deck_change": "26",
        "rebuy": "27",
        "min_reraise": "43A",
        "two_motion_raise": "42",
        "all_in_buttons": "RP-1",
        "hand_for_hand": "RP-8",
        "hand_for_hand_payoff": "RP-8A",
        "hand_for_hand_runout": "RP-8F",
        "final_table": "RP-9",
        # --- room seating citations (issue 16): room/seating.py, room/chip_race.py ---
        "random_seating": "7",
        "balance_move": "11A",
        "balance_source": "11C",
        "balance_halt": "11D",
        # --- stud citations (issue 30): engine/stud.py ---
        "complete": "3",  # "complete" is an official betting term (completing the bring-in)
        "bring_in": "RP-10E",  # the low card by suit brings in; all in for the ante: left of him
        "stud_opener": "RP-10D",  # tied showing hands: the high card by suit opens
        "stud_fourth_street": "RP-10F",  # no doubling on 4th street for a pair showing
        "stud_short_stub": "RP-10H",  # a community card on 7th street
        "odd_chip_stud": "20B",  # stud, razz, stud/8 ties: high card by suit in the five
        # --- draw citations (issue 30): engine/draw.py; the draws are house rules ---
        "draw_house": "35A7",  # "House rules apply for draw games (ex: lowball)"
        "draw_reshuffle": "39D",  # a stub reshuffled in a hand: face down ("extra draw cards")
        "draw_limping": "RP-17",  # limping is allowed in all single-draw games
        # --- stud dealing procedures (issue 30): engine/stud_procedures.py ---
        "stud_exposed_downcard": "RP-10A",  # an exposed initial downcard becomes the upcard
        "stud_seventh_exposed": "RP-10B",  # an exposed 7th-street card replaced if betting remains
        "stud_dead_at_deal": "RP-10C",  # absent player's cards killed; no card to a dead hand
        "stud_dead_hand": "66",  # upcards picked up while facing action: the hand is dead
    }
)
