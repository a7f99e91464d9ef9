"""One small adapter over both generations of OpenCV's ArUco API.

The pip wheels (OpenCV ≥ 4.7, 5.x) have ``cv2.aruco.ArucoDetector`` and
``generateImageMarker`` and no longer the free functions; Debian 12's and Raspberry Pi OS's
``python3-opencv`` 4.6 has only the old ``cv2.aruco.detectMarkers``,
``DetectorParameters_create`` and ``drawMarker`` (research: camera-recognition.md §3.1).
Everything else in this package goes through here, so it runs on either. It needs only cv2 and
numpy (a test runs it under Debian's interpreter with nothing else installed).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

MODERN: bool = hasattr(cv2.aruco, "ArucoDetector")
"""True for OpenCV ≥ 4.7 (ArucoDetector), False for the 4.6 contrib API."""

# The 4.6 functions, through a handle the type checker does not look into: the wheel's type
# stubs describe only the API of the wheel.
_legacy: Any = cv2.aruco


def api() -> str:
    """Which API is in use, for logs and bench meta."""
    kind = "ArucoDetector" if MODERN else "legacy detectMarkers"
    return f"{kind} (OpenCV {cv2.__version__})"


def dictionary() -> cv2.aruco.Dictionary:
    """DICT_4X4_50: 50 ids are plenty, and 4x4 cells are the largest cells for a given size."""
    return cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)


def marker_bits(marker_id: int) -> np.ndarray:
    """The marker's 6x6 cells (its black border included), 1 for white, 0 for black."""
    if MODERN:
        image = cv2.aruco.generateImageMarker(dictionary(), marker_id, 6, borderBits=1)
    else:
        image = _legacy.drawMarker(dictionary(), marker_id, 6, borderBits=1)
    return (np.asarray(image) > 127).astype(np.uint8)


SEARCH_SIDE = 600
"""Frames whose shorter side exceeds this (pixels) are searched for markers at half size."""


REFINE = (10.0, 3.0, True)
"""OpenCV's refine parameters (its defaults, written out): a missing marker is taken from a
square whose corners lie within 10 pixels of where the markers read put it (the search's
pixels: a half-size frame's at 1280x960), whose cells differ from it in fewer than 3 × the
dictionary's correctable bits (1 for DICT_4X4_50), in any of its 4 turns."""


class MarkerDetector:
    """Finds DICT_4X4_50 markers in a grey image; keep one per thread (opencv#27714)."""

    def __init__(self) -> None:
        params = cv2.aruco.DetectorParameters() if MODERN else _legacy.DetectorParameters_create()
        # Sub-pixel corners: the homography is fitted to them, and every hex centre inherits
        # their error.
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        # Sensor noise splits the adaptive threshold into many small contours, which costs time
        # and loses markers; a higher constant ignores faint texture (research §3.2).
        params.adaptiveThreshConstant = 10
        # A marker 30-40 pixels wide (a 640x480 frame, blurred) has 5-7 pixels per cell: read
        # at 4 pixels a cell, a cell's blurred edge weighs as much as its middle and a third of
        # those markers failed to decode; at 8 they read.
        params.perspectiveRemovePixelPerCell = 8
        # OpenCV 4.7 raised this from 0.05 to 0.125, which merges a marker's black square with
        # the edge of its white margin when both are candidates and keeps only the margin's:
        # a marker that does not decode is then not offered to `_refine` at its true corners.
        params.minMarkerDistanceRate = 0.05
        self._params = params
        self._dictionary = dictionary()
        self._detector = (
            cv2.aruco.ArucoDetector(self._dictionary, params, cv2.aruco.RefineParameters(*REFINE))
            if MODERN
            else None
        )
        self._board: tuple[bytes, Any] | None = None

    def detect(
        self, gray: np.ndarray, board: dict[int, np.ndarray] | None = None
    ) -> tuple[list[np.ndarray], list[int]]:
        """Every marker found: its 4 corners as a (4, 2) float32 array (top left, top right,
        bottom right, bottom left in the marker's own frame) and its id.

        With `board` (id → the marker's (4, 2) corners on the board, any unit), a marker of
        it that was not read is looked for where the markers read put it (OpenCV's
        ``refineDetectedMarkers``, `REFINE`): a square found there, corners within 10 pixels
        of the expected ones, that did not decode is taken if at most 2 of its 16 cells differ
        from that marker's. A search anywhere corrects none (any two of the dictionary's
        markers differ in 4 cells or more), but here the place says which marker to expect.

        A frame larger than `SEARCH_SIDE` is searched at half size (the search is most of a
        frame's time, and a marker there is still over 50 pixels wide), and the corners found
        are refined in the full frame, so they keep its precision."""
        if min(gray.shape[:2]) <= SEARCH_SIDE:
            return self._detect(gray, board)
        half = (gray.shape[1] // 2, gray.shape[0] // 2)
        small = cv2.resize(gray, half, interpolation=cv2.INTER_AREA)
        corners, ids = self._detect(small, board)
        if not ids:
            return corners, ids
        # pixel centres: (x + 0.5) · 2 − 0.5 in the full frame
        points = (np.concatenate(corners) * 2 + 0.5).astype(np.float32).reshape(-1, 1, 2)
        criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
        cv2.cornerSubPix(gray, points, (5, 5), (-1, -1), criteria)
        return list(points.reshape(-1, 4, 2)), ids

    def _detect(
        self, gray: np.ndarray, board: dict[int, np.ndarray] | None
    ) -> tuple[list[np.ndarray], list[int]]:
        if self._detector is not None:
            corners, ids, rejected = self._detector.detectMarkers(gray)
        else:
            corners, ids, rejected = _legacy.detectMarkers(
                gray, self._dictionary, parameters=self._params
            )
        if ids is None:
            return [], []
        if board and rejected and not set(board) <= {int(i) for i in np.asarray(ids).ravel()}:
            corners, ids = self._refine(gray, board, corners, ids, rejected)
        return [np.asarray(c, dtype=np.float32).reshape(4, 2) for c in corners], [
            int(i) for i in np.asarray(ids).ravel()
        ]

    def _refine(
        self,
        gray: np.ndarray,
        board: dict[int, np.ndarray],
        corners: Any,
        ids: Any,
        rejected: Any,
    ) -> tuple[Any, Any]:
        """`board`'s markers not read, looked for among the `rejected` squares where the
        markers read (`corners`, `ids`) put them."""
        key = bytes(list(board)) + np.concatenate(list(board.values())).tobytes()
        if self._board is None or self._board[0] != key:
            points = [
                np.concatenate([np.asarray(c, np.float32), np.zeros((4, 1), np.float32)], axis=1)
                for c in board.values()
            ]
            marker_ids = np.array(list(board), np.int32)
            if MODERN:
                made = cv2.aruco.Board(points, self._dictionary, marker_ids)
            else:
                made = _legacy.Board_create(points, self._dictionary, marker_ids)
            self._board = (key, made)
        made = self._board[1]
        if self._detector is not None:
            corners, ids, _, _ = self._detector.refineDetectedMarkers(
                gray, made, corners, ids, rejected
            )
        else:
            corners, ids, _, _ = _legacy.refineDetectedMarkers(
                gray, made, corners, ids, rejected, None, None, *REFINE, None, self._params
            )
        return corners, ids
