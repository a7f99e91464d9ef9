"""F-4 The victory-point supply: counted at setup (a fixed number per player), the extra set
aside as the reserve. Points owed once the supply is empty come from the reserve; the take that
empties the supply triggers the end of the game (see `ending`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .box import BOX, Box
from .errors import RuleBroken

RULE = "F-4"


@dataclass(frozen=True)
class Supply:
    """VP left in the supply, and VP paid from the reserve so far."""

    supply: int
    from_reserve: int = 0
    per_player: int = 0
    """The number counted per player at setup (for the phone to show)."""
    verified: bool = False
    """Whether `per_player` came from a verified entry (or was set by the table)."""

    @property
    def empty(self) -> bool:
        return self.supply == 0


@dataclass(frozen=True)
class Take:
    """Some VP paid out: how much from the supply and from the reserve."""

    vp: int
    from_supply: int
    from_reserve: int
    triggered: bool
    """This take emptied the supply: finish the round, then one more turn each (F-4)."""
    supply: Supply


def new_supply(players: int, per_player: int | None = None, box: Box | None = None) -> Supply:
    """F-4: the supply for `players`: `per_player` each (default: the data file's, unverified)."""
    box = box or BOX
    low, high = box.players
    if not low <= players <= high:
        raise RuleBroken(RULE, f"Flotilla is for {low}-{high} players, not {players}")
    if per_player is not None and per_player < 1:
        raise RuleBroken(RULE, f"the supply counts a positive number per player, not {per_player}")
    verified = per_player is not None or box.is_verified("vp_supply_per_player")
    each = box.vp_per_player if per_player is None else per_player
    return Supply(supply=each * players, per_player=each, verified=verified)


def take_vp(supply: Supply, vp: int) -> Take:
    """F-4: pay `vp` points: from the supply while it lasts, the rest from the reserve."""
    if vp < 0:
        raise RuleBroken(RULE, f"points are taken from the supply, not given back ({vp})")
    from_supply = min(vp, supply.supply)
    rest = vp - from_supply
    after = Supply(
        supply=supply.supply - from_supply,
        from_reserve=supply.from_reserve + rest,
        per_player=supply.per_player,
        verified=supply.verified,
    )
    return Take(
        vp=vp,
        from_supply=from_supply,
        from_reserve=rest,
        triggered=supply.supply > 0 and after.supply == 0,
        supply=after,
    )
