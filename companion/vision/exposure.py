"""The camera's exposure, set from what the board shows: highlights kept below clipping.

A camera's auto exposure meters the whole frame. Around the board lies a dark table, so it
exposes long, and a lamp's reflection on the board clips white: no colour of the tile under it
is left, and the camera can only ask people what sank there. Lowering the exposure keeps that
colour: the reflection then adds white light that `classify.glare` takes off. So after each
registered frame the pipeline looks at the board's brightest and darkest samples
(`Observation.levels`) and sets the camera's exposure compensation (EV, as picamera2's
``ExposureValue``): down while the brightest clip, back up towards the camera's own choice
when they have room. Only the board counts: a bright window beside the table clips harmlessly.

The cost is noise and contrast in the shadows: a shorter exposure keeps the sensor's noise on
less light, and the markers in a dark corner must still be found. So the exposure goes no
lower than keeps the board's darkest samples above `DARKEST`, nor below `LOWEST`: past that
the lamp is better moved (the tracker asks about what it cannot see).
"""

from __future__ import annotations

import math

from .recognise import Observation
from .sample import CLIPPED

TARGET = 200.0
"""Grey level the board's brightest samples (`sample.HIGHLIGHTS`) are exposed to: below
`sample.CLIPPED` by a margin for a camera's own exposure wavering from frame to frame."""

DARKEST = 28.0
"""The lowest grey level the board's darkest samples (`sample.SHADOWS`) are let down to:
a marker's white there is still half again brighter than the sea's blue, well clear of the
sensor's noise."""

DOWN = 1.0
"""EV taken off after a frame whose highlights clipped: how far over they were cannot be read
from white, so a full stop, then the next frame says more."""

UP = 0.5
"""The most EV given back after one frame: the light may change again."""

STEADY = 0.3
"""A change smaller than this (EV) is not made when raising: each change of exposure costs
the tracker a frame of comparison."""

LOWEST = -2.5
"""About a sixth of what the camera's auto exposure chose: the lowest the pipeline asks for."""


class Exposure:
    """The exposure compensation to ask of the camera, frame after frame (start: 0, the
    camera's own auto exposure)."""

    def __init__(self) -> None:
        self.bias = 0.0

    def update(self, observation: Observation) -> float:
        """The compensation (EV) for the next frame, after `observation` of the last one; an
        unregistered frame (the board not found, perhaps too dark) gives back a step."""
        if observation.levels is None:
            step = UP if self.bias < 0 else 0.0
        else:
            dark, bright = observation.levels
            want = -DOWN if bright >= CLIPPED else math.log2(TARGET / max(bright, 1.0))
            if want < 0:  # no lower than the shadows allow (never up for them either)
                step = min(0.0, max(want, -math.log2(max(dark, 1.0) / DARKEST)))
            else:
                step = min(UP, want) if want >= STEADY else 0.0
        self.bias = min(0.0, max(LOWEST, self.bias + step))
        return self.bias
