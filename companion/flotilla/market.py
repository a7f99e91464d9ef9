"""F-3 Market: prices, and how a turn's purchases and sales move the price markers.

Every barrel of a colour is bought or sold at the price under that colour's marker when the turn
began; the markers move once the turn's transactions are done (seed: "una vez que haya terminado
sus transacciones para el turno, ajuste el Market Track"). Buying moves a marker up one space
per barrel, selling down one; a purchase that would push it past the top gives the buyer 2 VP,
a sale past the bottom 1 VP. No colour is both bought and sold in one turn, and only barrels in
the reserve can be sold: cargo on skiffs must be delivered to the start tile first.

The track's prices and the starting spaces come from the data file (placeholders, unverified).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .box import BOX, Box
from .errors import RuleBroken

RULE = "F-3"
VP_PAST_TOP = 2
"""Per barrel bought beyond the top space (seed: 'obtienes 2')."""
VP_PAST_BOTTOM = 1
"""Per barrel sold beyond the bottom space (seed: 'gana 1')."""
VP_PAST_ENDS_VERIFIED = False
"""The seed's text gives 2 and 1, but the icons it refers to are lost from the copy read: the
numbers are shown to players as unverified."""
VP_PAST_ENDS_SOURCE = (
    "seed 002 (Flotilla rules, Spanish): 'obtienes 2' / 'gana 1' beside icons lost from the copy "
    "read; not verified"
)


@dataclass(frozen=True)
class Market:
    """Each resource colour's marker: its space on the price track, 0 being the lowest."""

    spaces: dict[str, int]


@dataclass(frozen=True)
class Trade:
    """One turn's purchases and sales and what they cost, pay and score."""

    bought: dict[str, int]
    sold: dict[str, int]
    prices: dict[str, int]
    """The price each traded colour was dealt at (the marker's at the start of the turn)."""
    cost: int
    income: int
    vp: int
    """Victory points for purchases past the top and sales past the bottom."""
    market: Market
    """The market after the turn."""


def new_market(box: Box | None = None) -> Market:
    """The market at setup: every marker on its colour's starting space."""
    box = box or BOX
    return Market(spaces=dict(box.market_start))


def price(market: Market, colour: str, box: Box | None = None) -> int:
    """The price under `colour`'s marker."""
    box = box or BOX
    _check_market(market, box)
    if colour not in market.spaces:
        raise RuleBroken(RULE, f"no resource {colour!r}; resources: {', '.join(box.resources)}")
    return box.market_prices[market.spaces[colour]]


def trade(
    market: Market,
    buy: Mapping[str, int] | None = None,
    sell: Mapping[str, int] | None = None,
    reserve: Mapping[str, int] | None = None,
    cargo: Mapping[str, int] | None = None,
    currency: int | None = None,
    box: Box | None = None,
) -> Trade:
    """F-3: a turn's transactions. `reserve` (colour -> barrels in the player's reserve) and
    `cargo` (barrels on their skiffs) let the sales be checked; `currency` the purchases."""
    box = box or BOX
    _check_market(market, box)
    bought = _amounts(buy, "buy", box)
    sold = _amounts(sell, "sell", box)
    both = sorted(set(bought) & set(sold))
    if both:
        raise RuleBroken(RULE, f"no buying and selling of the same resource in one turn: {both}")
    if reserve is not None:
        held = _amounts(reserve, "reserve", box)
        aboard = _amounts(cargo, "cargo", box)
        for colour, n in sold.items():
            if n > held.get(colour, 0):
                why = (
                    "cargo on skiffs must be delivered to the start tile before it can be sold"
                    if n <= held.get(colour, 0) + aboard.get(colour, 0)
                    else "you cannot sell barrels you do not have"
                )
                raise RuleBroken(
                    RULE, f"selling {n} {colour} from a reserve of {held.get(colour, 0)}: {why}"
                )
    prices = {c: box.market_prices[market.spaces[c]] for c in sorted({*bought, *sold})}
    cost = sum(prices[c] * n for c, n in bought.items())
    income = sum(prices[c] * n for c, n in sold.items())
    if currency is not None and cost > currency + income:
        raise RuleBroken(RULE, f"these purchases cost {cost}; you have {currency} (+{income} sold)")
    top = len(box.market_prices) - 1
    spaces = dict(market.spaces)
    vp = 0
    for colour, n in bought.items():
        vp += VP_PAST_TOP * max(0, spaces[colour] + n - top)
        spaces[colour] = min(top, spaces[colour] + n)
    for colour, n in sold.items():
        vp += VP_PAST_BOTTOM * max(0, n - spaces[colour])
        spaces[colour] = max(0, spaces[colour] - n)
    return Trade(
        bought=bought,
        sold=sold,
        prices=prices,
        cost=cost,
        income=income,
        vp=vp,
        market=Market(spaces=spaces),
    )


def _check_market(market: Market, box: Box) -> None:
    top = len(box.market_prices) - 1
    if set(market.spaces) != set(box.resources) or not all(
        isinstance(v, int) and 0 <= v <= top for v in market.spaces.values()
    ):
        raise RuleBroken(
            RULE, f"a market has a marker on spaces 0..{top} for each of {', '.join(box.resources)}"
        )


def _amounts(raw: Mapping[str, int] | None, what: str, box: Box) -> dict[str, int]:
    out: dict[str, int] = {}
    for colour, n in (raw or {}).items():
        if colour not in box.resources:
            raise RuleBroken(RULE, f"{what}: no resource {colour!r}")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise RuleBroken(RULE, f"{what}: {n!r} {colour} barrels")
        if n:
            out[colour] = n
    return dict(sorted(out.items()))
