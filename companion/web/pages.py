"""The phone page itself: ``GET /`` and its catalogues, ``GET /i18n/<language>.json``.

``GET /`` renders ``web/templates/index.html`` with:

- ``csrf``: this session's token, for the ``X-CSRF-Token`` header of every POST;
- ``lang``: ``en``, ``es`` or ``fr`` — the ``lang`` cookie (``POST /api/session/language``),
  else the browser's Accept-Language, else the table's default ``[game] language``
  (`session.language`); ``languages``: all three;
- ``table_url``: the address other phones use to join (the daemon's first URL: the Pi's LAN
  address), and ``qr_svg``: that address as an inline SVG QR code (segno), ready to place;
- while the table is its own Wi-Fi (companion.network): ``table_url`` is the page's address
  on it, and ``wifi``/``wifi_svg`` the network and its Wi-Fi QR code, shown first.

The page is sent with ``Cache-Control: no-cache`` (it carries the session's token) and a
Content-Security-Policy that allows this origin's scripts, styles and connections only: no
inline script (``index.html`` loads ``/static/js/app.js`` as a module).

``GET /i18n/<language>.json`` serves ``web/i18n/<language>.json`` for en, es and fr.
"""

from __future__ import annotations

import functools

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    render_template,
    request,
    send_from_directory,
)
from markupsafe import Markup

from ..network import portal
from . import access
from .session import LANGUAGES, language

bp = Blueprint("pages", __name__)

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)


@functools.lru_cache(maxsize=8)
def qr_svg(url: str) -> str:
    """`url` as an inline SVG QR code, sized by CSS (no width/height of its own)."""
    import segno

    svg: str = segno.make(url, error="m").svg_inline(
        scale=1, border=2, omitsize=True, svgclass="qr", title=url
    )
    return svg


def table_url() -> str:
    """The address to show: the daemon's first (the LAN address), else the one this phone used."""
    urls = current_app.config.get("TABLE_URLS") or []
    return str(urls[0]) if urls else request.host_url


@bp.get("/")
def index() -> Response:
    url, wifi = portal.join_codes(table_url())
    html = render_template(
        "index.html",
        csrf=access.csrf_token(),
        lang=language(),
        languages=LANGUAGES,
        table_url=url,
        ping=current_app.config["SSE_PING"],
        wait=current_app.config["PAGE_WAIT"],
        qr_svg=Markup(qr_svg(url)),
        wifi=wifi,
        wifi_svg=Markup(qr_svg(wifi.qr_data())) if wifi else None,
    )
    response = Response(html, mimetype="text/html")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Content-Security-Policy"] = CSP
    return response


@bp.get("/i18n/<name>.json")
def catalogue(name: str) -> Response:
    if name not in LANGUAGES:
        abort(404, f"There is no catalogue {name!r}: the languages are {', '.join(LANGUAGES)}.")
    folder = current_app.config["WEB_FOLDER"] / "i18n"
    return send_from_directory(folder, f"{name}.json", mimetype="application/json")
