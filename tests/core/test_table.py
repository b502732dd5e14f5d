"""The dead-button rule across hands (001 §7): busting players, dead small blinds, the switch to heads-up."""

from __future__ import annotations

from controller.core.table import Positions, Table


def table(*seats: int, stack: int = 1000) -> Table:
    t = Table(max_seats=10)
    for s in seats:
        t.sit(s, f"P{s}", stack)
    return t


def play(t: Table, button: int | None = None) -> Positions:
    pos = t.first_positions(button) if t.last is None else t.next_positions()
    t.last = pos
    return pos


def test_first_hand_button_given_and_default_first_occupied_seat() -> None:
    assert table(2, 4, 6).first_positions(None) == Positions(button=2, sb_pos=4, sb_seat=4, bb_seat=6,
                                                            heads_up=False)
    assert table(2, 4, 6).first_positions(4).bb_seat == 2


def test_button_moves_one_seat_when_nobody_busts() -> None:
    t = table(1, 2, 3, 4)
    assert (play(t, 1).button, t.last.bb_seat) == (1, 3)  # type: ignore[union-attr]
    pos = play(t)
    assert (pos.button, pos.sb_seat, pos.bb_seat) == (2, 3, 4)
    pos = play(t)
    assert (pos.button, pos.sb_seat, pos.bb_seat) == (3, 4, 1)


def test_big_blind_moves_to_next_occupied_seat_and_small_blind_is_dead_when_its_player_busted() -> None:
    t = table(1, 2, 3, 4, 5)
    play(t, 1)  # button 1, SB 2, BB 3
    t.sit(3, None, 0)  # the big blind busts
    pos = play(t)
    # BB moves on to seat 4; the small blind position is seat 3 (empty): dead small blind.
    assert (pos.button, pos.sb_pos, pos.sb_seat, pos.bb_seat) == (2, 3, None, 4)
    pos = play(t)
    # The button now sits in front of the empty seat 3 (dead button); seat 4 posts the small blind.
    assert (pos.button, pos.sb_seat, pos.bb_seat) == (3, 4, 5)


def test_small_blind_player_busting_gives_a_dead_button_next_hand() -> None:
    t = table(1, 2, 3, 4, 5)
    play(t, 1)  # button 1, SB 2, BB 3
    t.sit(2, None, 0)
    pos = play(t)
    assert (pos.button, pos.sb_seat, pos.bb_seat) == (2, 3, 4)  # the button in front of the empty seat 2


def test_switch_to_heads_up_keeps_the_big_blind_moving() -> None:
    t = table(1, 2, 3)
    play(t, 1)  # button 1, SB 2, BB 3
    t.sit(2, None, 0)  # three players, one busts (001 §7)
    pos = play(t)
    # The big blind moves on to the next active player (seat 1); the other player is button and SB.
    assert pos.heads_up and (pos.bb_seat, pos.button, pos.sb_seat) == (1, 3, 3)
    pos = play(t)
    assert (pos.bb_seat, pos.button, pos.sb_seat) == (3, 1, 1)


def test_heads_up_first_hand_button_posts_small_blind() -> None:
    pos = table(4, 7).first_positions(7)
    assert pos.heads_up and (pos.button, pos.sb_seat, pos.bb_seat) == (7, 7, 4)


def test_clockwise_order_wraps() -> None:
    assert table().clockwise_from(7, [1, 3, 7, 9]) == [9, 1, 3, 7]
