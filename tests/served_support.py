"""A phone on the Wi-Fi talking to a served daemon: real HTTP from an address of its own, real
cookies (``Set-Cookie`` kept, ``Cookie`` sent), the CSRF token on every POST.

The table itself is 127.0.0.1; a phone connects from 127.0.0.2 and up (every 127.x.x.x address
reaches the loopback interface), so the daemon sees a device that is not the Pi.
"""

from __future__ import annotations

import http.client
import itertools
import json
from http.cookies import SimpleCookie
from typing import Any

from tests.web_support import PIN, Stream

_HOSTS = itertools.count(2)


def next_address() -> str:
    n = next(_HOSTS)
    return f"127.0.{n // 250}.{n % 250 + 2}"


class Phone:
    def __init__(self, port: int, address: str | None = None) -> None:
        self.port = port
        self.address = address or next_address()
        self.cookies: dict[str, str] = {}
        self.csrf = ""
        self.set_cookies: list[str] = []
        """Every Set-Cookie header received, in order."""

    def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        conn = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=15, source_address=(self.address, 0)
        )
        sent = {**self.headers(), **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        try:
            conn.request(method, path, body=data, headers=sent)
            response = conn.getresponse()
            raw = response.read()
            for header in response.headers.get_all("Set-Cookie") or []:
                self.set_cookies.append(header)
                for name, morsel in SimpleCookie(header).items():
                    self.cookies[name] = morsel.value
        finally:
            conn.close()
        kind = response.headers.get("Content-Type", "")
        return response.status, json.loads(raw) if kind.startswith("application/json") else raw

    def headers(self) -> dict[str, str]:
        out = {"Host": f"127.0.0.1:{self.port}"}
        if self.cookies:
            out["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if self.csrf:
            out["X-CSRF-Token"] = self.csrf
        return out

    def session(self) -> dict[str, Any]:
        status, body = self.request("GET", "/api/session")
        assert status == 200, body
        self.csrf = body["csrf"]
        return dict(body)

    def join(self, pin: str = PIN) -> Phone:
        self.session()
        status, body = self.request("POST", "/api/session/pin", {"pin": pin})
        assert status == 200, body
        return self

    def sit(self, game: int, seat: int | None) -> tuple[int, Any]:
        if not self.csrf:
            self.session()
        return self.request("POST", "/api/session/seat", {"game": game, "seat": seat})

    def stream(self, path: str) -> Stream:
        return Stream(self.port, path, headers=self.headers(), source=self.address).start()
