"""The companion's own draws: each a keyed hash of the game's secret and the draw's number.

A draw must be unpredictable to anyone who does not hold the game's secret (its seed), even to
someone who knows this code, the whole public log and every draw made so far: so each is
BLAKE2b keyed with the secret, over the draw's number (RFC 7693's keyed mode is a MAC). The
same secret and number always give the same draw, so a game replays; nothing else is kept
between draws, so draws are cheap (no generator to build or to copy with the state).
"""

from __future__ import annotations

import functools
import hashlib
import struct
from collections.abc import Callable, Sequence
from math import floor
from random import Random
from typing import Final, TypeVar

T = TypeVar("T")

# Final: compiled, each is a constant, not a look-up in the module's dict at every draw; the
# structs' bound methods, not a method looked up by name at every draw
_SCALE: Final = 2.0**-53
_NUMBER: Final = struct.Struct("<q").pack  # a draw's number: 8 bytes, little-endian, signed
_DIGEST: Final = struct.Struct("<Q").unpack  # the 8-byte digest as a whole number, little-endian


@functools.lru_cache(maxsize=256)
def keyed(seed: int) -> hashlib.blake2b:
    """BLAKE2b keyed with `seed`, before any input: copying it is cheaper than keying anew.
    Any whole number is a key (one over BLAKE2b's 64 bytes is hashed first)."""
    text = str(seed).encode()
    key = text if len(text) <= 64 else hashlib.blake2b(text).digest()
    return hashlib.blake2b(key=key, digest_size=8)


def uniform(seed: int, draw: int) -> float:
    """Draw number `draw` of the game whose secret is `seed`: a number in [0, 1)."""
    return uniform_keyed(keyed(seed), draw)


def uniform_keyed(key: hashlib.blake2b, draw: int) -> float:
    """`uniform` with the secret's `keyed` hash at hand (a game keeps it: compiled, finding it
    in the cache at every draw cost a twentieth of the draw)."""
    h = key.copy()
    h.update(_NUMBER(draw))  # = draw.to_bytes(8, "little", signed=True), without keywords
    number: int = _DIGEST(h.digest())[0]
    return (number >> 11) * _SCALE


def pick(rng: Random, items: Sequence[T]) -> T:
    """One of `items`, each as likely as the others, for a random player (not the table's
    draws above): `index` of it, written out (asked at most decisions of a random game);
    IndexError when there are none, as `index` raises."""
    return items[floor(rng.random() * len(items))]


Draw = Callable[[], float]
"""A random player's numbers in [0, 1): a `Random`'s `random` method, found once for a whole
playout (compiled, finding the method at every draw cost twice as much as the draw)."""


def choose(draw: Draw, items: Sequence[T]) -> T:
    """`pick` with the `Random`'s method already found: the same item for the same number."""
    return items[floor(draw() * len(items))]


def index(draw: Draw, n: int) -> int:
    """A whole number in [0, n), each as likely as the others to within n / 2**53 (`random()`
    is C; `randrange`'s exact rejection runs as Python, which cost as much as a compiled
    engine's whole movement point). IndexError when n is 0, as `Random.choice` raises."""
    if n <= 0:
        raise IndexError("nothing to choose from")
    return floor(draw() * n)
