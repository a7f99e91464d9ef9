"""The camera: which land tiles are still on the board, from a photo of it.

The companion works without a camera, and without OpenCV: nothing outside this package imports
cv2, numpy or picamera2, and the command line and the bench import this package only when a
camera command runs. Inside, the modules are small and each does one thing:

========================  =================================================================
``geometry``              hex centres, outlines and sample points in hex units, from
                          ``engine.board.plane`` (the phone's SVG board uses the same function)
``markers``               ``hardware/markers.toml``: marker ids, sizes, positions, scale
``aruco``                 one adapter over OpenCV's two ArUco APIs (≥ 4.7 and Debian's 4.6)
``lens``                  the lens's bend, estimated from the markers, undone on the few points used
``register``              markers → homography (board → pixels), or a reason to refuse the frame;
                          measuring where hand-laid markers actually lie
``sample``                a robust colour sample of every hex (inner disc, log colour, median)
``model``                 the colour classes and how a hex's samples are weighed against them
``classify``              relative colour (against the sea around), glare, a verdict per hex
``calibrate``             learning the colours from a setup frame; proposing an unknown layout
``recognise``             `Recogniser`: one frame in, one `Observation` out
``sources``               frames from picamera2, a USB camera (``usb:N``) or files
``sheet``                 the printable marker sheets (SVG)
``synth``, ``recorded``   synthetic photos with truth; recorded photos with truth
``tracker``, ``watch``    the turn tracker; the camera's own process (frames in, commands out)
``bench``, ``cli``        ``companion bench vision``; ``companion vision
                          detect|calibrate|markers|record``
========================  =================================================================

The face for the rest of the companion (the turn tracker, the phone's proposal screen)::

    from companion.vision.recognise import Recogniser
    from companion.vision.calibrate import load as load_calibration
    from companion.vision.sources import open_source

    recogniser = Recogniser(calibration=load_calibration(path))   # one per thread
    with open_source(cfg["camera.source"]) as camera:              # "picamera2", "usb:0", ...
        frame = camera.read()                                     # BGR uint8, or None
    observation = recogniser.observe(frame)
    if not observation.ok:
        observation.registration.reason      # "too few markers: 3 of 8 found, 4 needed", ...
    for hex_number, verdict in observation.positions.items():    # the 40 land positions
        verdict.label          # "sea", "beach", "forest", "mountain" ("land" uncalibrated)
        verdict.probabilities  # over those labels, before any game knowledge
        verdict.confidence     # 0..1: probability × the share of the sample that agreed
    observation.blocked_sea()  # permanent sea hexes that do not look like sea: a hand, pieces
    observation.to_json()      # what `companion vision detect --json` prints

Hex numbers are the engine's (``engine.board.INDEX``); ``engine.board.name`` writes them as
people do (``6.5``). Calibration: ``Recogniser.calibrate(frame, layout)`` with the layout the
table entered (hex → terrain) gives a confirmed `Calibration`; without a layout it proposes one
(16/16/8 grouping) with ``confirmed`` False and a margin per position, for the phone to show
and people to correct; then calibrate again with the corrected layout. Calibrations are JSON
(``calibrate.dumps``/``load``), by default ``[camera] calibration`` or the state directory's
``camera-calibration.json``.

The camera at the table (`watch`, started by ``companion.camera`` in a process of its own)
feeds every frame to the `tracker.Tracker`, which decides with the game's knowledge, and sends
what it concludes to the Table as commands from source ``camera``: a proposed sink or island
layout (a phone confirms or rejects it), intent ``sync`` when the board and the game disagree,
intent ``status`` for how it is. The camera never changes game state itself.
"""
