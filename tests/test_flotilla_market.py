"""Flotilla F-3, the market: prices, the markers' moves, the VP past either end, and what may
be sold (companion/flotilla/market.py).

The track's prices and starting spaces are the data file's placeholders; the tests place the
markers themselves, by the price the seed's example names where it gives one.
"""

from __future__ import annotations

from companion.flotilla import BOX, Market, new_market, price, trade
from tests.flotilla_support import refused

TOP = len(BOX.market_prices) - 1


def market(**spaces: int) -> Market:
    return Market(spaces={**new_market().spaces, **spaces})


def test_F_3_seed_example_three_red_at_five_cost_fifteen() -> None:
    """F-3 (seed: 'si el rastreador rojo indica un valor de 5, puede usar tres transacciones para
    comprar tres recursos rojos para un total de 15'): every barrel is bought at the price shown
    when the turn began; the marker then moves up one space per barrel."""
    five = BOX.market_prices.index(5)
    m = market(red=five)
    assert price(m, "red") == 5
    t = trade(m, buy={"red": 3})
    assert t.cost == 15 and t.prices == {"red": 5} and t.vp == 0
    assert t.market.spaces["red"] == min(TOP, five + 3)


def test_F_3_selling_moves_the_marker_down_one_per_barrel() -> None:
    """F-3: selling pays the price shown and moves the marker down one space per barrel."""
    m = market(green=4)
    t = trade(m, sell={"green": 2}, reserve={"green": 2})
    assert t.income == 2 * BOX.market_prices[4] and t.market.spaces["green"] == 2 and t.vp == 0


def test_F_3_each_purchase_past_the_top_gives_2_vp() -> None:
    """F-3 (seed: 'Por cada recurso que compres que haga que su valor de mercado aumente por
    encima de su espacio más alto, obtienes 2'): a purchase with the marker at the top is 2 VP."""
    t = trade(market(blue=TOP - 1), buy={"blue": 3})
    assert t.vp == 2 * 2 and t.market.spaces["blue"] == TOP


def test_F_3_each_sale_past_the_bottom_gives_1_vp() -> None:
    """F-3 (seed: 'Por cada recurso que venda que haga que su valor de mercado caiga por debajo
    de su espacio más bajo, gana 1'): a sale with the marker at the bottom is 1 VP."""
    t = trade(market(yellow=1), sell={"yellow": 4}, reserve={"yellow": 4})
    assert t.vp == 3 and t.market.spaces["yellow"] == 0


def test_F_3_no_buying_and_selling_the_same_colour_in_one_turn() -> None:
    """F-3 (seed: 'no puedes comprar y vender recursos del mismo tipo en el mismo turno')."""
    refused("F-3", "same resource", trade, market(), buy={"red": 1}, sell={"red": 1})
    t = trade(market(red=3, blue=3), buy={"red": 1}, sell={"blue": 1}, reserve={"blue": 1})
    assert t.market.spaces == {**market().spaces, "red": 4, "blue": 2}


def test_F_3_cargo_must_be_delivered_before_it_can_be_sold() -> None:
    """F-3 (seed, Cargo vs Reserve): barrels on skiffs are cargo and cannot be sold until they
    are dropped at the start tile's delivery point into the reserve."""
    err = refused(
        "F-3", "delivered", trade, market(), sell={"red": 2}, reserve={"red": 1}, cargo={"red": 3}
    )
    assert "reserve of 1" in err.message
    refused("F-3", "do not have", trade, market(), sell={"red": 2}, reserve={"red": 1})
    assert trade(market(), sell={"red": 1}, reserve={"red": 1}, cargo={"red": 3}).income > 0


def test_F_3_markers_start_on_their_marked_spaces() -> None:
    """F-3 with the setup: each resource's marker starts on its marked space (the data file's,
    unverified), one marker per resource colour."""
    assert new_market().spaces == dict(BOX.market_start)
    assert set(new_market().spaces) == set(BOX.resources)
    assert not BOX.is_verified("market.prices") and not BOX.is_verified("market.start")


def test_F_3_purchases_must_be_paid_and_names_checked() -> None:
    """F-3: what is bought is paid for (sales of the same turn count); amounts and colours are
    checked."""
    m = market(red=4, blue=4)
    cost = 2 * BOX.market_prices[4]
    refused("F-3", "cost", trade, m, buy={"red": 2}, currency=cost - 1)
    assert trade(m, buy={"red": 2}, sell={"blue": 1}, reserve={"blue": 1}, currency=cost - 1).cost
    refused("F-3", "no resource", trade, m, buy={"purple": 1})
    refused("F-3", "-1 red", trade, m, buy={"red": -1})
    refused("F-3", "a marker on spaces", trade, Market(spaces={"red": 0}), buy={"red": 1})
