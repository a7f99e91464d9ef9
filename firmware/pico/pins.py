"""Every pin of the panel, in one place: Raspberry Pi Pico GPIO numbers (GPn), not pin positions.

hardware/BUILD.md ("The serial panel") shows where each one is on the board; a test keeps it
in step with this file. The button names are the ones the companion knows
(companion/panel/buttons.py); the panel sends them as they are written here.
"""

# Each button joins its GPIO to GND; the Pico's internal pull-up holds it high, so a pressed
# button reads 0.
BUTTONS = (("roll", 10), ("next", 11), ("undo", 12))

# The RGB LED's red, green and blue legs, each through its resistor (hardware/BUILD.md). GP16/GP17 share PWM
# slice 0 and GP18 is slice 1: the buzzer's slice (GP15 is 7B) is apart, so a tone's frequency
# never changes the LED's.
RGB = (16, 17, 18)
RGB_COMMON_ANODE = False
"""True for an LED whose common leg goes to 3V3 (then a colour's duty is inverted)."""

BUZZER = 15
"""A passive piezo buzzer (a PWM square wave sets its pitch)."""

STATUS_LED = "LED"
"""The Pico's own LED (GP25 on a Pico; the name "LED" also works on a Pico W)."""
