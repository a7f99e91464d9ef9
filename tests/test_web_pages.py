"""The page and its files: served from the repository's web/ or a wheel's companion/_web, the
template given its token, language, address and QR code; and a built wheel carries the page."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
import segno
from flask import Flask, template_rendered

from companion.table import Table
from companion.web import assets, create_app
from companion.web.pages import CSP
from tests.web_support import phone, table_config

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def app(table: Table) -> Flask:
    return create_app(table, table_config(), test_config={"TESTING": True})


def rendered(app: Flask, path: str = "/", **kw: Any) -> tuple[Any, dict[str, Any]]:
    """The response to `path` and the context its template was rendered with."""
    seen: list[dict[str, Any]] = []

    def record(sender: Flask, template: Any, context: dict[str, Any], **extra: Any) -> None:
        seen.append(context)

    client = kw.pop("client", None) or phone(app, pin=None)
    with template_rendered.connected_to(record, app):
        response = client.get(path, **kw)
    assert len(seen) == 1, response.data[:200]
    return response, seen[0]


def test_the_page_gets_the_session_token_the_address_and_its_qr_code(app: Flask) -> None:
    client = phone(app, pin=None)
    response, context = rendered(app, client=client)
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert context["csrf"] == client.get("/api/session").json["csrf"]  # type: ignore[index]
    assert context["table_url"] == "http://localhost/"  # no daemon: the address this phone used
    expected = segno.make("http://localhost/", error="m").svg_inline(
        scale=1, border=2, omitsize=True, svgclass="qr", title="http://localhost/"
    )
    assert str(context["qr_svg"]) == expected and expected.startswith("<svg")
    assert response.headers["Content-Security-Policy"] == CSP
    assert response.headers["Cache-Control"] == "no-cache"
    assert response.headers["X-Frame-Options"] == "DENY"
    # The daemon's URLs once it listens: the LAN address first, in the QR code too.
    app.config["TABLE_URLS"] = ["http://192.168.1.20:8000/", "http://127.0.0.1:8000/"]
    _, context = rendered(app)
    assert context["table_url"] == "http://192.168.1.20:8000/"
    assert "192.168.1.20" in str(context["qr_svg"])  # its title


def test_the_page_speaks_the_phones_language(table: Table) -> None:
    app = create_app(table, table_config(game={"language": "es"}), {"TESTING": True})
    assert rendered(app)[1]["lang"] == "es"  # the table's default
    fr = {"Accept-Language": "fr-CA,fr;q=0.9"}
    assert rendered(app, headers=fr)[1]["lang"] == "fr"
    client = phone(app, pin=None)
    client.post("/api/session/language", json={"language": "en"})
    assert rendered(app, client=client, headers=fr)[1]["lang"] == "en"  # the phone's choice
    assert rendered(app)[1]["languages"] == ("en", "es", "fr")


def test_catalogues_and_static_files_come_from_the_web_folder(table: Table, tmp_path: Path) -> None:
    folder = tmp_path / "web"
    (folder / "i18n").mkdir(parents=True)
    (folder / "i18n" / "es.json").write_text('{"join.pin": "PIN de la mesa"}', encoding="utf-8")
    app = create_app(table, table_config(), {"TESTING": True, "WEB_FOLDER": folder})
    client = app.test_client()
    r = client.get("/i18n/es.json")
    assert r.status_code == 200 and r.json == {"join.pin": "PIN de la mesa"}
    for name in ("de", "..%2Fsecurity", "es.json"):
        r = client.get(f"/i18n/{name}.json")
        assert r.status_code == 404 and r.content_type == "application/json", name
    # The static folder is the repository's here (a source checkout).
    assert Path(create_app(table).static_folder or "") == REPO / "web" / "static"


def test_the_packaged_copy_comes_before_the_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    packaged, checkout = tmp_path / "_web", tmp_path / "web"
    (checkout / "templates").mkdir(parents=True)
    monkeypatch.setattr(assets, "PACKAGED", packaged)
    monkeypatch.setattr(assets, "CHECKOUT", checkout)
    assert assets.web_folder() == checkout
    (packaged / "templates").mkdir(parents=True)
    assert assets.web_folder() == packaged


def test_a_built_wheel_carries_the_page(tmp_path: Path) -> None:
    built = subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-d", str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "companion/_web/templates/index.html" in names
    assert "companion/web/data/games.json" in names
    assert "companion/panel/pinout.toml" in names
    assert not any(n.startswith("web/") for n in names)  # only under the package
