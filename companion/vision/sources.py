"""Where frames come from: the Pi's camera, a USB camera, or files (tests and replays).

Chosen by the configuration's ``[camera] source``: ``picamera2``, ``usb:N`` (``/dev/videoN``
through V4L2), ``files:PATH`` (an image, a folder of images in name order, or a video) or
``none``. Every source hands out BGR uint8 frames, OpenCV's order, whatever the camera gives.

picamera2 is imported only when that source is opened: it exists only on Raspberry Pi OS (from
apt), and everything else must run without it. OpenCV's VideoCapture cannot open the Pi's CSI
camera on the libcamera stack (opencv#22820), hence the two camera sources.
"""

from __future__ import annotations

from pathlib import Path
from types import TracebackType
from typing import Any, Protocol

import cv2
import numpy as np

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff")
DEFAULT_SIZE = (1280, 960)


class SourceError(Exception):
    """A source that cannot be opened; the message says what to change."""


class Frame:
    """A frame as its source handed it out: pixels, or a JPEG (a file, a webcam's MJPEG) whose
    pixels are decoded only when the frame is read. Most frames the camera looks at are only
    compared with the last one read (`still`), and that comparison needs no more than each
    8 × 8 block's mean, which libjpeg decodes from the blocks' first coefficient alone (DCT
    scaling): about half the work of decoding every pixel (5.6 ms against 9.9 ms for 1280 ×
    960 here), and the thumbnail is then a 2 × 2 average instead of a 16 × 16 one."""

    def __init__(self, image: np.ndarray | None = None, jpeg: bytes | None = None) -> None:
        self.jpeg = jpeg
        self._image = image
        self._eighth: np.ndarray | None = None

    def pixels(self) -> np.ndarray:
        """The whole frame, BGR uint8 (decoded once)."""
        if self._image is None:
            assert self.jpeg is not None
            self._image = _decode(self.jpeg, cv2.IMREAD_COLOR)
        return self._image

    def eighth(self) -> np.ndarray:
        """The frame an eighth of its size each way, each pixel an 8 × 8 block's mean (decoded
        at that size, not from the pixels); `pixels` shrunk when there is no JPEG."""
        if self._eighth is None:
            if self.jpeg is not None and self._image is None:
                self._eighth = _decode(self.jpeg, cv2.IMREAD_REDUCED_COLOR_8)
            else:
                image = self.pixels()
                size = (max(1, -(-image.shape[1] // 8)), max(1, -(-image.shape[0] // 8)))
                self._eighth = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        return self._eighth


def pixels(frame: np.ndarray | Frame) -> np.ndarray:
    """A frame's pixels, whichever way it came."""
    return frame.pixels() if isinstance(frame, Frame) else frame


def _decode(jpeg: bytes, flags: int) -> np.ndarray:
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), flags)
    if image is None:
        raise SourceError("a frame is not an image OpenCV can decode")
    return np.asarray(image)


class FrameSource(Protocol):
    """Something that hands out frames until it has none; a context manager that closes it."""

    def read(self) -> np.ndarray | None:
        """The next BGR uint8 frame, or None when there is none (end of files, camera gone)."""
        ...

    def take(self) -> Frame | None:
        """The next frame as the source has it (a JPEG not yet decoded), or None."""
        ...

    def close(self) -> None: ...

    def set_exposure_bias(self, ev: float) -> bool:
        """Ask the camera to expose 2**ev times what its auto exposure chooses (0: its own
        choice; `exposure`). False when this source cannot (files were taken already)."""
        ...

    def __enter__(self) -> FrameSource: ...

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


class _Closing:
    def take(self) -> Frame | None:
        """A source whose frames come as pixels: `read`'s."""
        image = self.read()  # type: ignore[attr-defined]  # every source has its read
        return None if image is None else Frame(image)

    def close(self) -> None:
        """Nothing to release."""

    def set_exposure_bias(self, ev: float) -> bool:
        """Frames already taken: nothing to set."""
        return False

    def __enter__(self) -> Any:  # Any: each subclass returns itself
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class Picamera2Source(_Closing):
    """The Pi's CSI camera through picamera2 (apt's python3-picamera2)."""

    def __init__(self, size: tuple[int, int] = DEFAULT_SIZE, camera: int = 0) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as e:
            raise SourceError(
                f"picamera2 is not importable ({e}): sudo apt install python3-picamera2, and "
                "make the venv with --system-site-packages"
            ) from None
        self._camera = Picamera2(camera)
        # "RGB888" is picamera2's name for 3 bytes per pixel in B, G, R order: what OpenCV
        # expects. Its still default "BGR888" arrives in R, G, B order (research §4).
        config = self._camera.create_preview_configuration(main={"format": "RGB888", "size": size})
        self._camera.configure(config)
        self._camera.start()

    def set_exposure_bias(self, ev: float) -> bool:
        # libcamera's exposure compensation: its auto exposure keeps metering, then scales
        self._camera.set_controls({"ExposureValue": float(ev)})
        return True

    def read(self) -> np.ndarray | None:
        frame = self._camera.capture_array("main")
        return None if frame is None else np.ascontiguousarray(frame[:, :, :3])

    def close(self) -> None:
        self._camera.stop()
        self._camera.close()


# OpenCV's V4L2 backend passes CAP_PROP_AUTO_EXPOSURE through as V4L2's auto_exposure menu
_V4L2_MANUAL = 1
_V4L2_AUTO = 3  # aperture priority: the exposure time automatic (what UVC cameras offer)


class CaptureSource(_Closing):
    """OpenCV's VideoCapture: a USB camera by index, or a video file."""

    def __init__(self, target: int | str, size: tuple[int, int] | None = None) -> None:
        self._camera = isinstance(target, int)
        self._auto: float | None = None
        """The exposure (V4L2 ``exposure_time_absolute``) auto exposure had chosen when the
        pipeline first took over; None while the camera's auto exposure runs."""
        if isinstance(target, int):
            self._capture = cv2.VideoCapture(target, cv2.CAP_V4L2)
        else:
            self._capture = cv2.VideoCapture(target)
        if not self._capture.isOpened():
            raise SourceError(f"OpenCV cannot open {target!r}")
        if size is not None:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def set_exposure_bias(self, ev: float) -> bool:
        """A webcam (UVC) has no exposure compensation: below 0 EV the exposure is set by
        hand (V4L2 manual mode), from the value auto exposure had reached; at 0 auto exposure
        takes over again. Untried on a real webcam: a driver that reports a stale value
        there gives the wrong base, and the pipeline's next frames correct only downwards."""
        if not self._camera:
            return False
        if ev >= 0.0:
            if self._auto is not None:
                self._capture.set(cv2.CAP_PROP_AUTO_EXPOSURE, _V4L2_AUTO)
                self._auto = None
            return True
        if self._auto is None:
            auto = float(self._capture.get(cv2.CAP_PROP_EXPOSURE))
            if auto <= 0.0:  # the driver does not say: leave its auto exposure alone
                return False
            self._auto = auto
            self._capture.set(cv2.CAP_PROP_AUTO_EXPOSURE, _V4L2_MANUAL)
        return bool(self._capture.set(cv2.CAP_PROP_EXPOSURE, self._auto * 2.0**ev))

    def read(self) -> np.ndarray | None:
        ok, frame = self._capture.read()
        return np.asarray(frame) if ok else None

    def close(self) -> None:
        self._capture.release()


class ImageFiles(_Closing):
    """Still images, one frame each, in name order."""

    def __init__(self, paths: list[Path]) -> None:
        if not paths:
            raise SourceError("no image files to read")
        self.paths = paths
        self._next = 0

    def read(self) -> np.ndarray | None:
        if self._next >= len(self.paths):
            return None
        path = self.paths[self._next]
        self._next += 1
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            raise SourceError(f"cannot read the image {path}")
        return np.asarray(frame)

    def take(self) -> Frame | None:
        """A JPEG file as it is, checked by decoding its eighth (`Frame`); others as `read`."""
        if self._next >= len(self.paths):
            return None
        path = self.paths[self._next]
        if path.suffix.lower() not in (".jpg", ".jpeg"):
            return _Closing.take(self)
        self._next += 1
        try:
            frame = Frame(jpeg=path.read_bytes())
            frame.eighth()
        except (OSError, SourceError):
            raise SourceError(f"cannot read the image {path}") from None
        return frame


def files(path: Path) -> FrameSource:
    """An image, a folder of images, or a video."""
    if path.is_dir():
        images = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not images:
            raise SourceError(f"no images ({', '.join(IMAGE_SUFFIXES)}) in {path}")
        return ImageFiles(images)
    if not path.exists():
        raise SourceError(f"{path} does not exist")
    if path.suffix.lower() in IMAGE_SUFFIXES:
        return ImageFiles([path])
    return CaptureSource(str(path))


def open_source(spec: str, size: tuple[int, int] = DEFAULT_SIZE) -> FrameSource:
    """The source that a ``[camera] source`` value names."""
    if spec == "picamera2":
        return Picamera2Source(size)
    if spec.startswith("usb:") and spec[4:].isdigit():
        return CaptureSource(int(spec[4:]), size)
    if spec.startswith("files:") and len(spec) > 6:
        return files(Path(spec[6:]).expanduser())
    if spec == "none":
        raise SourceError("no camera is configured ([camera] source = none)")
    raise SourceError(f'{spec!r} is not a camera source: "picamera2", "usb:N" or "files:PATH"')
