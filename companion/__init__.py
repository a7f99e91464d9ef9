"""Raspberry Pi companion for Survive: Escape from Atlantis!

It keeps the state of a game played on the real board: hardware buttons roll the dice, phones
show what each roll means, and the rules engine decides what is legal and who is winning.
"""

__version__ = "0.1.0"
