"""The ADIX cube (source 004, rulings A3, A5, A7, A8 and 8-3/8-5): weapons, faces, tilts and rotations,
as numba kernels over plain integers. :mod:`boardgames.envs.adix.rules` keeps the board.

Weapon codes: ``ROCK`` 0, ``PAPER`` 1, ``SCISSORS`` 2, ``SHELTER`` 3 (the blank face, "abri").
A cube is described by the weapons on three of its faces, **top**, **north** and **east**; the other
three follow from the cube's kind (A3), because opposite faces are fixed pairs:

* captain: rock/rock, paper/paper, scissors/scissors, so ``opposite(w) = w``;
* teammate: rock/shelter, paper/paper, scissors/scissors, so rock and shelter swap, the others stay.

bottom = opposite(top), south = opposite(north), west = opposite(east). A triple is a valid
orientation when its three faces come from three different opposite pairs (and a captain never
shows a shelter): 6 orientations for a captain, 12 for a teammate (24 physical orientations of a
cube, less the symmetries of its faces: two identical paper faces look the same). Storing the
visible faces, not a physical orientation index, makes two cubes that look the same compare equal.

Tilt (A8) and rotation (A7), on (top, north, east):

===========  ====================  ====================  ====================
movement     new top               new north             new east
===========  ====================  ====================  ====================
tilt north   opposite(north)       top                   east
tilt south   north                 opposite(top)         east
tilt east    opposite(east)        north                 top
tilt west    east                  north                 opposite(top)
rotate left  top                   east                  opposite(north)
rotate right top                   opposite(east)        north
===========  ====================  ====================  ====================

(rolling north the old south face comes on top and the old top faces north, A8; a left rotation is a
quarter turn counter-clockwise seen from above: the east face turns to the north.)
"""

from __future__ import annotations

from numba import njit

ROCK, PAPER, SCISSORS, SHELTER = 0, 1, 2, 3
WEAPON_LETTERS = "rpsh"
TEAMMATE, CAPTAIN = 0, 1

# movements (A7, A8): the rotations and tilts the A9 record tracks
M_LEFT, M_RIGHT, M_TILT_N, M_TILT_E, M_TILT_S, M_TILT_W = 0, 1, 2, 3, 4, 5
MOVEMENT_NAMES = ("L", "R", "N", "E", "S", "W")


@njit(cache=True)
def opposite(weapon, kind):
    """The weapon on the face opposite ``weapon`` on a cube of ``kind`` (A3)."""
    if kind == TEAMMATE:
        if weapon == ROCK:
            return SHELTER
        if weapon == SHELTER:
            return ROCK
    return weapon


@njit(cache=True)
def valid_orientation(kind, top, north, east):
    """True when (top, north, east) is a reachable orientation of a cube of ``kind``."""
    if kind != TEAMMATE and kind != CAPTAIN:
        return False
    for w in (top, north, east):
        if w < 0 or w > 3 or (kind == CAPTAIN and w == SHELTER):
            return False
    # three different opposite pairs: rock and shelter form one pair
    pt = 0 if top == SHELTER else top
    pn = 0 if north == SHELTER else north
    pe = 0 if east == SHELTER else east
    return pt != pn and pt != pe and pn != pe


@njit(cache=True)
def turn_cube(kind, top, north, east, movement):
    """(top, north, east) after ``movement`` (M_*): the tilt and rotation table of the module doc."""
    if movement == M_TILT_N:
        return opposite(north, kind), top, east
    if movement == M_TILT_S:
        return north, opposite(top, kind), east
    if movement == M_TILT_E:
        return opposite(east, kind), north, top
    if movement == M_TILT_W:
        return east, north, opposite(top, kind)
    if movement == M_LEFT:
        return top, east, opposite(north, kind)
    return top, opposite(east, kind), north  # M_RIGHT


@njit(cache=True)
def beats(attacker, defender):
    """Rock beats scissors, scissors beats paper, paper beats rock (8-3); nothing beats a shelter (8-5)."""
    if attacker == SHELTER or defender == SHELTER:
        return False
    return defender == (attacker + 2) % 3


@njit(cache=True)
def weapon_moves_along(weapon, direction):
    """A5: rock along all 8 directions (N, NE, E, SE, S, SW, W, NW), paper orthogonally (even
    indices), scissors diagonally; a shelter does not move (A6)."""
    if weapon == ROCK:
        return True
    if weapon == PAPER:
        return direction % 2 == 0
    if weapon == SCISSORS:
        return direction % 2 == 1
    return False
