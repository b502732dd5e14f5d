"""Short English summaries of the rule behind each alert code, in our own words, for the floor's table view.

The rulebooks are German and their wording stays in them; each summary paraphrases what the cited
sections require and why, so the floorman can rule without opening the book. Titles, severities and
references come from controller.core.catalogue.
"""

from __future__ import annotations

from typing import Any

from controller.core.catalogue import CATALOGUE

SUMMARIES: dict[str, str] = {
    # --- D: deck integrity
    "DECK_INCOMPLETE": (
        "Every deck is checked for all 52 cards before play and at breaks (000 §2.1, 004 §2–3). A short "
        "deck must not be used until the floor has checked it or swapped it."),
    "DECK_DUPLICATE": (
        "Two identical cards mean the deck is fouled (001 §14(7), 004 §6). The hand is void, every bet "
        "goes back, the deck is replaced; chips nobody can be credited with ride into the next pot."),
    "FOREIGN_CARD": (
        "A card from another deck does not void the hand (001 §14(6), 004 §6): remove it and put a "
        "correct card in its place."),
    "BOXED_CARD": (
        "A card found face up inside the stub is not a real card for this hand (004 §5): take it out and "
        "deal on as if it had never been there."),
    "CARD_MISSING": (
        "If a card cannot be found after the hand, count the deck (004 §4, §6(3)); the result of the hand"
        " that was played stands. A card found missing before two actions have been taken makes the hand"
        " a misdeal (004 §4(1), (2i)): count the cards, reshuffle, redeal."),
    "CARD_OFF_TABLE": (
        "A card that leaves the table during the deal makes it a misdeal (000 §2.4, 004 §3(4)); count the"
        " deck before reshuffling and tell the floor."),
    # --- H: dealing the hole cards
    "DEAL_BEFORE_BLINDS": (
        "The blinds are posted before any card is dealt (001 §6), so nobody decides on posting after "
        "seeing cards."),
    "DEAL_WRONG_FIRST_SEAT": (
        "The first card goes to the first seat dealt in left of the button (001 §14(2), 004 §4(2d)). "
        "Otherwise it is a misdeal: reshuffle and redeal, button and blinds unchanged."),
    "DEAL_OUT_OF_ORDER": (
        "Hole cards go one at a time, clockwise (001 §14(2), 004 §4(2h)). Breaking the order is a misdeal"
        " while fewer than two players have acted; after that the hand plays on."),
    "DEAL_EMPTY_SEAT": (
        "Only seats in the hand receive cards (004 §4(2e)); dealing to an empty or sitting-out seat is a "
        "misdeal."),
    "DEAL_SEAT_SKIPPED": (
        "Each seat dealt in needs its two cards (000 §2.4, 004 §4(2f)). Noticed before two actions it is "
        "a misdeal; later the short hand is dead."),
    "DEAL_EXTRA_CARD_FIRST_SEAT": (
        "One extra card at the first seat is not a misdeal (001 §14(4), 003 (3), 004 §8(1)): the dealer "
        "takes it back and uses it as the next burn card."),
    "DEAL_TOO_MANY_CARDS": (
        "Two or more surplus cards, or a seat holding three, is a misdeal if caught before two actions "
        "(000 §2.4, 003 (3), 004 §4(4)); caught later, only that seat's hand is dead."),
    "HOLE_CARD_EXPOSED_FIRST": (
        "If the dealer exposes the very first or second card of the deal, the books call a misdeal (000 "
        "§2.4, 001 §14(1), 003 (1), 004 §4(2a)); bets and button stay where they are."),
    "HOLE_CARD_EXPOSED": (
        "A single later hole card exposed by the dealer is replaced (000 §2.4, 001 §14(1), 003 (1)): "
        "finish the deal, give that seat the next stub card last, and burn the exposed card face up as "
        "the first burn, so the board comes out as it would have."),
    "HOLE_CARDS_EXPOSED_MULTIPLE": (
        "Two or more exposed hole cards, or face-up cards in the stub during the deal, spoil the deal "
        "(000 §2.4, 001 §14(3–4), 004 §4(2b–c)): misdeal."),
    "DEAD_HAND_ABSENT": (
        "A player must be at the seat when the last hole card is dealt (000 §1.5, 001 §6); otherwise the "
        "hand is dead, and in a tournament the blinds are still taken."),
    # --- B: knock, burn and board
    "KNOCK_MISSING": (
        "The dealer knocks before burning on every street (000 §2.3, §2.8, 001 §8), giving a player who "
        "was overlooked a last moment to speak."),
    "KNOCK_PAUSE_SHORT": (
        "After the knock the dealer pauses briefly before burning (000 §2.8); a knock that is immediately"
        " followed by the burn gives nobody a chance to object."),
    "BURN_MISSING_FLOP": (
        "A flop must be preceded by a burn (000 §2.5, 003 (5), 004 §8(2)). How to repair it depends on "
        "the house's rulebook profile; once two players have acted on the flop it stands."),
    "BURN_MISSING_TURN": (
        "Without a burn the card turned is the wrong turn (000 §2.6, 003 (6)): it becomes a face-up burn "
        "and the next card is the turn, unless two actions have already happened."),
    "BURN_MISSING_RIVER": (
        "Same as for the turn (000 §2.7, 003 (6)): the unburned river is burned face up and the next card"
        " is the river, unless two actions have already happened."),
    "BURN_EXTRA": (
        "Only one burn per street (003 (6), 004 §8(2–3)). The surplus burn goes back on top of the stub "
        "for the next street; if nobody can tell which it is, the floor picks one at random."),
    "BURN_EXPOSED": (
        "A burn card that flips over is simply burned face up (000 §2.5–2.7); nothing else changes."),
    "FLOP_TOO_MANY_CARDS": (
        "A flop with four or more cards is repaired according to the house profile (000 §2.5, 001 §14(2),"
        " 003 (4), 004 §7): either the surplus card becomes the next burn or the flop is reshuffled into "
        "the stub and dealt again."),
    "FLOP_PREMATURE": (
        "A flop dealt before the preflop betting closed is taken back (000 §2.5, 001 §14(2), 003 (7–8), "
        "004 §8(4)): the three cards, not the burn, go into the stub, the action finishes, and a new flop"
        " follows without another burn."),
    "TURN_PREMATURE": (
        "A turn dealt while flop betting is open is set aside (000 §2.6, 001 §14(3), 003 (9)). After the "
        "action the dealer burns and turns what would have been the river; the set-aside card is shuffled"
        " into the stub and the river comes without a burn."),
    "RIVER_PREMATURE": (
        "A river dealt while turn betting is open goes back into the stub (000 §2.7, 001 §14(3), 003 "
        "(10)); after the action the stub is shuffled and cut and a new river is dealt without a burn."),
    "CORRECTION_NOT_FOLLOWED": (
        "After a dealing error the books prescribe an exact repair (see the error's own rule); the "
        "dealer's next step did not match it. The message names the step expected."),
    "RABBIT_HUNT": (
        "Once a hand is over no further cards are revealed (000 §2.3, 001 §6, 004 §10): showing what "
        "would have come leaks information and slows the game."),
    # --- A: betting
    "BLIND_WRONG": (
        "Blinds follow the level in force when the hand starts and the dead-button order (001 §7, 004 "
        "preparation). Correct them; if the level is in doubt the lower one applies."),
    "BUTTON_WRONG": (
        "The button moves by the dead-button rule (001 §7, §14(5)). Put it right; if the first card went "
        "to the wrong seat as a result, that is a misdeal."),
    "ANTE_NOT_POSTED": (
        "Antes go in before the first card like the blinds (TDA 2024; the books ask for the forced bets "
        "before the deal, 000 §2.1, 004 preparation). The seat named puts its ante in now; antes are dead "
        "money for the main pot and do not count as a bet."),
    "ANTE_WRONG_SEAT": (
        "With a big-blind ante the big blind alone posts the ante for the whole table (TDA 2024), with a "
        "button ante the button. Another seat's ante chips go back to it and the right seat posts."),
    "STRADDLE_OUT_OF_TURN": (
        "A straddle is posted by the seat after the big blind, a second one by the seat after that. The "
        "books and TDA 2024 leave straddles to the house; we treat chips from another seat like an action "
        "out of turn (000 §3.1): they go back."),
    "ACTION_OUT_OF_TURN": (
        "An action out of turn binds when the action facing that seat has not changed by the time its "
        "turn comes (000 §3.1, 001 §3); if someone in between bet or raised, the chips go back and the "
        "seat decides again."),
    "PLAYER_SKIPPED": (
        "A seat passed over while two later seats acted is treated as folded under 001 §8; under 000 §3.1"
        " a player who objects at once gets to act and the premature bets are returned."),
    "BET_BELOW_MINIMUM": (
        "A bet or raise short of the minimum is read per profile (000 §3.1, 001 §8): small enough and it "
        "is only a call with the excess returned, otherwise it is a raise to be made up to the minimum."),
    "BET_ABOVE_LIMIT": (
        "In a limit game a bet or raise may not exceed the fixed amount, the pot (pot limit) or the spread "
        "bound: it is cut back to the largest legal amount; once the raise cap is reached a raise only "
        "calls (TDA 2024 Rules 48 and 54, 002 §3–5)."),
    "OVERSIZED_CHIP": (
        "One large chip pushed out without a word is a call when facing a bet, and a bet of the chip's "
        "value when opening (000 §3.1, 001 §8)."),
    "CALL_SHORT": (
        "A player who calls with too little, while holding more, must put in the rest (no raise) or give "
        "up the pot (000 §3.1)."),
    "RAISE_NOT_REOPENED": (
        "An all-in that is less than a full raise does not give players who have already acted a new "
        "chance to raise (000 §3.1, 001 §8.2): they may only call or fold."),
    "ALL_IN_AS_CALL": (
        "Under 001 §8.2 an all-in below half a full raise counts as a call for reopening the betting; the"
        " next raise is measured from the all-in amount."),
    "STRING_BET": (
        "A bet or raise must go in with one motion or be announced (000 §3.1): chips added in a second "
        "motion are returned, and the action stands at the first amount."),
    "RAISE_AFTER_EXPOSED_CARD": (
        "A player who showed a hole card at the wrong time may only check or call for the rest of the "
        "hand (000 §4.1): a raise from that seat stands as a call."),
    "BET_TAKEN_BACK": (
        "Chips a player has put forward are the action (001 §8, 000 §3.1): taking some back does not undo "
        "it. The action stands as placed and the chips go in again; a chip reader that reads low looks the "
        "same, so the dealer checks which it was."),
    "CHECK_FACING_BET": (
        "The books do not cover a check said facing a bet; following TDA 2024 (Rules 1 and 3) we read it "
        "as no action at all: nothing is bound, and the player still calls, raises or folds in turn."),
    "ACTION_TIME": (
        "A player taking too long may be put on the clock by anyone (004 §11): one more minute, the last "
        "ten seconds counted aloud, then the hand is dead."),
    "DEAD_HAND_CLOCK": (
        "The clock called under 004 §11(4) expired before the player acted, so the hand is dead."),
    # --- S: showdown and pots
    "SHOWDOWN_ORDER": (
        "At showdown the last player to bet or raise on the river shows first; if the river was checked "
        "through, the first live seat left of the button starts (000 §4.1, 001 §9)."),
    "UNCALLED_BET": (
        "The part of a bet nobody called goes straight back to its owner, who takes the pot without "
        "showing (000 §4.1)."),
    "POT_AWARD": (
        "Pots are pushed side pot first, main pot last (000 §4.1–4.2, 001 §9.1); on a split the odd chip "
        "goes to the first winner left of the button (in stud: to the winner with the highest card by suit, "
        "TDA 2024). Check the push against the figures shown."),
    "PLAY_THE_BOARD_UNDECLARED": (
        "To claim a pot with the board alone, the player has to open the hole cards (000 §4.2) and say so "
        "before letting go of them (003 (11)); mucking them unseen gives up the claim."),
    "MUCKED_WINNER": (
        "A winning hand the dealer mucked by mistake is not dead while it can still be identified (000 "
        "§4.1, 001 §9): it wins."),
    "ELIMINATION_ORDER": (
        "When several players bust in the same hand, the one who began it with the bigger stack finishes "
        "higher; with equal stacks, the later all-in does (001 §10)."),
    # --- L: hand lifecycle
    "MISDEAL_CALLED": (
        "The dealer declared a misdeal (000 §2.4, 004 §4): the hand is void, cards are reshuffled and "
        "redealt, bets and button stay."),
    "HOLE_CARD_IN_MUCK": (
        "Cards that touch the muck are dead (000 §1.5, 001 §13); the seat has folded, whatever it "
        "intended."),
    "ACTION_AFTER_FOLD": (
        "Cards pushed forward count as a fold once a later player acts on it (000 §1.5, 001 §13(b)), even"
        " if it was not that seat's turn."),
    "FLOOR_CALLED": (
        "The dealer asked for the floor (004 §12): go to the table; its open alerts are listed here."),
    "FLOOR_RULING": (
        "The floor decided an open irregularity (004 §1(2): its decision is final). Accept: the hand goes "
        "on as the table played it. Reverse: the remedy is still owed."),
    # --- T: seven-card stud
    "STUD_DEAL_ORDER": (
        "Stud starts with two down cards and one up card per seat, from the dealer's left (002 §2); any "
        "other start is a misdeal."),
    "STUD_BRING_IN_WRONG": (
        "The lowest up card brings in, ties broken by suit order clubs, diamonds, hearts, spades (002 "
        "§3). The correct seat posts the bring-in."),
    "STUD_FIRST_TO_ACT_WRONG": (
        "From fourth street the best showing hand acts first, ties to the seat nearest the dealer's left "
        "(002 §4)."),
    "STUD_STREET_CARD_WRONG": (
        "Fourth to sixth street are dealt face up and seventh face down (002 §4–7); a card the wrong way "
        "up is handled like any dealing error. A common card is only for a deck too short to give every "
        "seat its own seventh card."),
    "STUD_OPENER_MUCKED": (
        "The opener who throws his cards away after his forced bet is treated as having checked (002 §3): "
        "his cards lie face down in front of him and he is dealt in as long as checking would have kept "
        "him in."),
    "STUD_CARD_PREMATURE": (
        "A card dealt to a seat while third (after a burn) to sixth street is still being bet is early, "
        "like a premature board card (000 §2.6; 003 (9)): it does not play, the betting ends, then the "
        "street is dealt."),
    "STUD_CARD_WRONG_SEAT": (
        "A street card went to a seat that already had one, or had folded: dealt out of order, but after "
        "third street's betting the hand goes on (001 §14(2); 004 §4(2h)): the card moves to the seat "
        "still waiting."),
    # --- X: our extensions
    "BAD_EVENT": (
        "Not a rulebook matter: a sensor or console sent something the controller could not apply "
        "(interfaces.md §1). Check the device; the game state did not change."),
    "CAMERA_RFID_MISMATCH": (
        "Not a rulebook matter: the overhead camera and the RFID readers disagree about where a face-up "
        "card is. Look at the table and check the card's position."),
    "HEALTH": (
        "Not a rulebook matter: the controller reports a problem with itself (broker, reader, camera). "
        "The message says what."),
}


def rule_info(code: str) -> dict[str, Any]:
    """Title, severity, reference, default remedy and summary for a code; unknown codes get a plain note."""
    e = CATALOGUE.get(code)
    summary = SUMMARIES.get(code, "No summary for this code yet; see the rule reference.")
    if e is None:
        return {"code": code, "title": code, "severity": None, "rule": "", "remedy": "", "summary": summary}
    return {"code": code, "title": e.title, "severity": e.severity, "rule": e.rule, "remedy": e.remedy,
            "summary": summary, "section": e.section}


def catalogue_json() -> dict[str, dict[str, Any]]:
    return {code: rule_info(code) for code in CATALOGUE}
