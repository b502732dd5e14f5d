"""The irregularity catalogue as data: code → severity, rulebook reference, title and default remedy.

Rule references cite the German rulebooks by file prefix and section (000 dealer handbook, 001 Cuca's
house rules, 002 seven-card stud, 003 hold'em irregularities, 004 dealer/floor regulations). Remedies are
our own wording of what those sections require; see docs/rules.md for the reasoning per row.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.core.alerts import Severity


@dataclass(frozen=True, kw_only=True, slots=True)
class Entry:
    code: str
    severity: Severity
    rule: str
    title: str
    remedy: str
    section: str  # catalogue section letter: D, H, B, A, S, L, T, X (extensions)


_ROWS: tuple[tuple[str, Severity, str, str, str, str], ...] = (
    # --- D: deck integrity
    ("DECK_INCOMPLETE", "error", "000 §2.1; 004 §2(1), §3(4)", "Deck check found missing cards",
     "Report the missing cards; the floor checks the deck or brings a new one", "D"),
    ("DECK_DUPLICATE", "misdeal", "001 §14(7); 004 §6(1)", "Same card seen twice",
     "End the hand now and return all bets; replace the deck; chips nobody can be credited with stay "
     "in the pot for the next hand", "D"),
    ("FOREIGN_CARD", "error", "001 §14(6); 004 §6(1)", "Card not in the active deck",
     "Not a misdeal: take the foreign card out and replace it with a correct card", "D"),
    ("BOXED_CARD", "warning", "004 §5", "Face-up card in the stub",
     "Take the boxed card out of play and treat it as if it were not there", "D"),
    ("CARD_MISSING", "error", "004 §4(2i), §6(3); 000 §2.4", "Card unaccounted for",
     "Count the deck; a missing card does not change this hand's result. Noticed preflop before two "
     "actions: misdeal, count the cards, reshuffle and redeal", "D"),
    ("CARD_OFF_TABLE", "misdeal", "000 §2.4; 004 §3(4)", "Card left the table during the deal",
     "Misdeal; count the cards before reshuffling and inform the floor", "D"),
    # --- H: dealing the hole cards
    ("DEAL_BEFORE_BLINDS", "warning", "001 §6", "Cards dealt before the blinds",
     "Blinds go in first, then the cards", "H"),
    ("DEAL_WRONG_FIRST_SEAT", "misdeal", "001 §14(2); 004 §4(2d)", "First card to the wrong seat",
     "Misdeal: collect, reshuffle, redeal; the button and the blinds stay", "H"),
    ("DEAL_OUT_OF_ORDER", "misdeal", "001 §14(2); 004 §4(2h)", "Hole card out of clockwise order",
     "Misdeal: collect, reshuffle, redeal (after two actions the hand continues)", "H"),
    ("DEAL_EMPTY_SEAT", "misdeal", "004 §4(2e)", "Cards dealt to a seat not in the hand",
     "Misdeal: collect, reshuffle, redeal", "H"),
    ("DEAL_SEAT_SKIPPED", "misdeal", "000 §2.4; 004 §4(2f)", "A seat dealt in is missing cards",
     "Misdeal before two actions; after that the short hand is dead", "H"),
    ("DEAL_EXTRA_CARD_FIRST_SEAT", "error", "001 §14 (4.); 003 (3); 004 §8(1)",
     "Extra card to the first seat", "Take the extra card back; it is the next burn card", "H"),
    ("DEAL_TOO_MANY_CARDS", "misdeal", "000 §2.4; 003 (3); 004 §4(4)", "Too many hole cards",
     "Misdeal before two actions; after that the seat's hand is dead", "H"),
    ("HOLE_CARD_EXPOSED_FIRST", "misdeal", "000 §2.4; 001 §14(1); 003 (1); 004 §4(2a)",
     "First or second card of the deal exposed",
     "Misdeal: cards back, reshuffle, redeal; bets and button stay", "H"),
    ("HOLE_CARD_EXPOSED", "error", "000 §2.4; 001 §14 (1.); 003 (1)", "Hole card exposed by the dealer",
     "Finish the deal; the seat gets the next card from the stub last; the exposed card is the first "
     "burn, burned face up; no other burn before the flop", "H"),
    ("HOLE_CARDS_EXPOSED_MULTIPLE", "misdeal", "000 §2.4; 001 §14(3),(4); 004 §4(2b),(2c)",
     "Two or more hole cards exposed", "Misdeal: cards back, reshuffle, redeal", "H"),
    ("DEAD_HAND_ABSENT", "dead_hand", "000 §1.5; 001 §6", "Player absent when the deal completed",
     "The hand is dead and mucked; in a tournament the blinds stay in", "H"),
    # --- B: knock, burn and board
    ("KNOCK_MISSING", "warning", "000 §2.3, §2.8; 001 §8", "No knock before a card was turned",
     "Knock before every burn so an overlooked player can still speak", "B"),
    ("KNOCK_PAUSE_SHORT", "info", "000 §2.8", "Burn too soon after the knock",
     "Pause briefly after the knock before burning", "B"),
    ("BURN_MISSING_FLOP", "error", "000 §2.5; 003 (5); 004 §8(2)", "Flop dealt without a burn",
     "Correct per profile (see docs/rules.md); after two actions the flop stands", "B"),
    ("BURN_MISSING_TURN", "error", "000 §2.6; 003 (6)", "Turn dealt without a burn",
     "The wrong turn becomes a face-up burn and the next card is the turn; no correction after two "
     "actions", "B"),
    ("BURN_MISSING_RIVER", "error", "000 §2.7; 003 (6)", "River dealt without a burn",
     "The wrong river becomes a face-up burn and the next card is the river; no correction after two "
     "actions", "B"),
    ("BURN_EXTRA", "error", "003 (6); 004 §8(2),(3)", "Two burn cards before one street",
     "Put one back on top of the stub as the next burn; if unclear, the floor draws one", "B"),
    ("BURN_EXPOSED", "info", "000 §2.5–2.7", "Burn card seen face up",
     "No correction: the card is burned face up", "B"),
    ("FLOP_TOO_MANY_CARDS", "error", "000 §2.5; 001 §14 (2.); 003 (4); 004 §7", "Flop with too many cards",
     "Correct per profile (see docs/rules.md)", "B"),
    ("FLOP_PREMATURE", "error", "000 §2.5; 001 §14 (2.); 003 (7),(8); 004 §8(4)",
     "Flop dealt before preflop betting closed",
     "Recall the flop (not the burn) and shuffle it into the stub; finish the action; deal a new flop "
     "without a new burn", "B"),
    ("TURN_PREMATURE", "error", "000 §2.6; 001 §14 (3.); 003 (9)", "Turn dealt before flop betting closed",
     "Set the card aside; finish the flop action; burn; the would-be river is the turn; shuffle the "
     "set-aside card into the stub, cut; deal the river without a burn", "B"),
    ("RIVER_PREMATURE", "error", "000 §2.7; 001 §14 (3.); 003 (10)", "River dealt before turn betting closed",
     "Finish the action; shuffle the card back into the stub, cut; deal a new river without a burn", "B"),
    ("CORRECTION_NOT_FOLLOWED", "error", "see the correction's own rule", "Correction not followed",
     "Follow the expected step shown in the message", "B"),
    ("RABBIT_HUNT", "warning", "000 §2.3; 001 §6; 004 §10", "Card shown after the hand ended",
     "No further cards are shown once a hand has ended", "B"),
    # --- A: betting
    ("BLIND_WRONG", "error", "001 §7; 004 (Vorbereitung)", "Wrong blinds",
     "Correct the blinds; when in doubt the lower level applies", "A"),
    ("BUTTON_WRONG", "error", "001 §7, §14 (5.)", "Button in the wrong place",
     "Move the button; if the first card went to the wrong seat it is a misdeal", "A"),
    ("ANTE_NOT_POSTED", "warning",
     "TDA 2024 (antes, big-blind ante); 000 §2.1, 004 (Vorbereitung) by analogy",
     "Ante not posted before the deal",
     "The seat puts its ante in now, before the betting; antes are dead money for the main pot", "A"),
    ("ANTE_WRONG_SEAT", "error", "TDA 2024 (big-blind ante); 004 (Vorbereitung) by analogy",
     "Big-blind or button ante posted by the wrong seat",
     "Give the chips back; the big blind (button) posts the table's ante", "A"),
    ("STRADDLE_OUT_OF_TURN", "warning", "room practice (not in 000–004 or TDA 2024); 000 §3.1 by analogy",
     "Straddle from the wrong seat",
     "Give the chips back; only the seat after the big blind (then after the last straddle) straddles",
     "A"),
    ("ACTION_OUT_OF_TURN", "warning", "000 §3.1; 001 §3", "Action out of turn",
     "Binding if the action to that seat does not change (check, call, fold change nothing); otherwise "
     "the chips go back and the seat acts again in turn", "A"),
    ("PLAYER_SKIPPED", "warning", "000 §3.1; 001 §8", "Player skipped",
     "A seat passed over while two later seats acted counts as folded (001 §8); if it objects at once "
     "the premature bets are returned (000 §3.1)", "A"),
    ("BET_BELOW_MINIMUM", "info", "000 §3.1; 001 §8", "Bet or raise below the minimum",
     "Per profile: small enough it is a call with the excess returned; otherwise a raise that must be "
     "completed to the minimum", "A"),
    ("BET_ABOVE_LIMIT", "warning", "002 §3–5; TDA 2024 Rules 48, 54", "Bet or raise above the limit",
     "Limit games: a wager above the fixed amount, the pot or the spread bound stands at the largest "
     "legal amount, the excess goes back; a raise after the raise cap is a call", "A"),
    ("OVERSIZED_CHIP", "info", "000 §3.1; 001 §8", "Single oversized chip without declaration",
     "Counts as a call when facing a bet; an opening bet is the chip's value", "A"),
    ("CALL_SHORT", "error", "000 §3.1", "Call short of the amount to call",
     "Complete the call (no raise allowed) or give up the claim to the pot", "A"),
    ("RAISE_NOT_REOPENED", "error", "000 §3.1; 001 §8.2", "Raise when betting was not reopened",
     "An all-in short of a full raise does not reopen betting for seats that already acted: call or "
     "fold only", "A"),
    ("ALL_IN_AS_CALL", "info", "001 §8.2", "All-in short of half a raise counts as a call",
     "Treat it as a call for reopening; later raises are measured on top of the all-in amount", "A"),
    ("ACTION_TIME", "info", "004 §11", "Seat over its time allowance",
     "Anyone may call the clock: one more minute, the last 10 s counted down, then the hand is dead", "A"),
    ("DEAD_HAND_CLOCK", "dead_hand", "004 §11(4)", "Clock ran out", "The hand is dead", "A"),
    # --- S: showdown and pots
    ("SHOWDOWN_ORDER", "info", "000 §4.1; 001 §9", "Showdown order",
     "The last bettor or raiser on the river shows first; if all checked, the first seat left of the "
     "button", "S"),
    ("UNCALLED_BET", "info", "000 §4.1", "Uncalled bet returned",
     "Return the uncalled part to the bettor; he wins without showing", "S"),
    ("POT_AWARD", "info", "000 §4.1, §4.2; 001 §9.1", "Pot award",
     "Push each pot as listed, last side pot first; odd chips as listed (hold'em: the first winner left of "
     "the button; stud: the winner with the highest card by suit)", "S"),
    ("PLAY_THE_BOARD_UNDECLARED", "warning", "000 §4.2; 003 (11)", "Board played without showing",
     "A player who plays the board must show the hole cards to claim the pot", "S"),
    ("MUCKED_WINNER", "error", "000 §4.1; 001 §9", "Winning hand mucked",
     "A winning hand mucked by the dealer that can still be identified is not dead and wins", "S"),
    ("ELIMINATION_ORDER", "info", "001 §10", "Several players busted in one hand",
     "The one who started the hand with more chips places higher; equal stacks: the later all-in "
     "places higher", "S"),
    # --- L: hand lifecycle
    ("MISDEAL_CALLED", "misdeal", "000 §2.4; 004 §4", "Misdeal called by the dealer",
     "Hand void: cards back, reshuffle, redeal; bets and button stay", "L"),
    ("HOLE_CARD_IN_MUCK", "dead_hand", "000 §1.5; 001 §13", "Live hole card reached the muck",
     "The hand is dead (folded)", "L"),
    ("ACTION_AFTER_FOLD", "dead_hand", "000 §1.5; 001 §13(b)", "Cards thrown forward and acted upon",
     "The hand is dead even if it was not that seat's turn", "L"),
    ("FLOOR_CALLED", "info", "004 §12", "Floor called", "The floor comes to the table", "L"),
    ("STRING_BET", "warning", "000 §3.1", "String bet",
     "The action stands at the first amount; return the chips added in the second motion", "A"),
    ("RAISE_AFTER_EXPOSED_CARD", "warning", "000 §4.1", "Raise by a seat that showed a hole card",
     "A seat that showed a hole card at the wrong time may only check or call: it stands as a call", "A"),
    ("BET_TAKEN_BACK", "warning", "001 §8; 000 §3.1", "Chips taken back from the bet zone",
     "Chips placed are binding: the action stands as placed and the chips taken back go in again "
     "(if nobody touched them, check the chip reader)", "A"),
    ("CHECK_FACING_BET", "warning", "TDA 2024 Rules 1, 3", "Check said facing a bet",
     "Not an action: the seat still calls, raises or folds; the dealer asks it to act", "A"),
    ("FLOOR_RULING", "info", "004 §1(2)", "Floor ruling on an irregularity",
     "The floor's decision is final: accept keeps the hand as played, reverse keeps the remedy owed", "L"),
    # --- T: seven-card stud
    ("STUD_DEAL_ORDER", "misdeal", "002 §2", "Stud initial deal wrong", "Misdeal", "T"),
    ("STUD_BRING_IN_WRONG", "error", "002 §3", "Wrong bring-in seat", "The correct seat brings in", "T"),
    ("STUD_FIRST_TO_ACT_WRONG", "warning", "002 §4", "Wrong first seat to act",
     "The correct seat acts", "T"),
    ("STUD_STREET_CARD_WRONG", "error", "002 §4–7", "Street card face up/down against the rule",
     "An up-card dealt down is turned face up; a seventh-street card dealt up stays up and plays; a common "
     "card while the deck is not short does not play: each seat gets its own card", "T"),
    ("STUD_OPENER_MUCKED", "warning", "002 §3", "Opener threw his cards away after the forced bet",
     "Counts as checked: his three cards go face down in front of him; he gets cards while he could check",
     "T"),
    ("STUD_CARD_PREMATURE", "error", "000 §2.6; 003 (9)", "Stud street card dealt before the betting ended",
     "The card does not play: take it out; finish the betting, then deal the street as usual", "T"),
    ("STUD_CARD_WRONG_SEAT", "error", "001 §14(2); 004 §4(2h)", "Stud street card dealt to the wrong seat",
     "Move the card to the seat still waiting for its street card", "T"),
    # --- X: extensions (ours; documented in docs/rules.md)
    ("BAD_EVENT", "error", "interfaces.md §1", "Event rejected",
     "Check the sensor or console that sent it; the event was not applied", "X"),
    ("CAMERA_RFID_MISMATCH", "warning", "-", "Camera and RFID disagree",
     "Check the card's position; the camera sees a face-up card the readers place elsewhere", "X"),
    ("HEALTH", "warning", "-", "Controller health", "See the message", "X"),
)

CATALOGUE: dict[str, Entry] = {
    code: Entry(code=code, severity=sev, rule=rule, title=title, remedy=remedy, section=section)
    for code, sev, rule, title, remedy, section in _ROWS
}


def entry(code: str) -> Entry:
    """The catalogue row for `code`; an unknown code is a bug, not bad input."""
    return CATALOGUE[code]
