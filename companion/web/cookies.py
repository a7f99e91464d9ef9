"""The session cookie, signed but not timed by the Pi's clock.

Flask's own session cookie carries the time it was signed, and the server refuses one "from the
future" or older than its lifetime by its own wall clock. A Pi has no real-time clock: after a
power cut it may boot with an earlier time until the network sets it (on its own hotspot, never),
and every phone's cookie would be refused — its seat lost, and the cookie overwritten by a new
one, so nothing comes back when the clock is right again. Here the signature alone decides: the
cookie is the table's if the table's secret signed it. How long it lasts is the phone's to keep
(``Max-Age``, counted by the phone's own clock); a new PIN still signs every phone out
(`access.authorised`).
"""

from __future__ import annotations

from flask import Flask, Request, Response
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import BadSignature


class UntimedSessions(SecureCookieSessionInterface):
    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        signer = self.get_signing_serializer(app)
        if signer is None:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return self.session_class()
        try:
            return self.session_class(signer.loads(value))  # no max_age: no clock involved
        except BadSignature:  # not signed by this table: a fresh session
            return self.session_class()

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        if not session or not self.should_set_cookie(app, session):
            super().save_session(app, session, response)  # deletes or leaves it, as Flask does
            return
        signer = self.get_signing_serializer(app)
        assert signer is not None
        response.set_cookie(
            self.get_cookie_name(app),
            signer.dumps(dict(session)),
            # Max-Age, which browsers prefer to Expires: a lifetime the phone counts itself,
            # right even when the Pi's clock is not.
            max_age=int(app.permanent_session_lifetime.total_seconds()),
            httponly=self.get_cookie_httponly(app),
            domain=self.get_cookie_domain(app),
            path=self.get_cookie_path(app),
            secure=self.get_cookie_secure(app),
            samesite=self.get_cookie_samesite(app),
        )
        response.vary.add("Cookie")
