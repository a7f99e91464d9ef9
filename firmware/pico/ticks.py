"""Millisecond ticks that wrap, as MicroPython's `time.ticks_ms()` does.

The logic modules take the time as a number and compare two times only with `diff`, never by
subtraction, because the Pico's tick counter wraps (every 2**30 ms, about 12 days). On the Pico
`diff` is `time.ticks_diff`; under CPython (the tests) the same arithmetic is done here.
"""

import time

PERIOD = 1 << 30
"""MicroPython's tick period on 32-bit ports such as rp2."""
_HALF = PERIOD // 2
_ticks_diff = getattr(time, "ticks_diff", None)


def diff(later: int, earlier: int) -> int:
    """Signed milliseconds from `earlier` to `later`, correct across a wrap."""
    if _ticks_diff is not None:
        return int(_ticks_diff(later, earlier))
    return ((later - earlier + _HALF) & (PERIOD - 1)) - _HALF


def add(t: int, ms: int) -> int:
    """The tick `ms` milliseconds after `t`."""
    return (t + ms) & (PERIOD - 1)
