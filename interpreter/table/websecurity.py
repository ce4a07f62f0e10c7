"""The web table's guards: whom a request may speak for, and what a response lets a browser do.

    guard = Guard(key, hostnames={"127.0.0.1", "localhost", "::1"})
    install(app, guard)      # every request checked, every response given the security headers

- **Tokens.** `new_token()` is 192 random bits; only `digest(token)` (SHA-256) is kept of a seat's
  session. An invite or a creator link is `derived(key, ...)`, an HMAC of the server's key, so no
  secret of a link is stored at all (a new invite is a new generation number).
- **Cookies.** A browser gets an id (`mb`, HTTP-only, SameSite=Lax); a table's creator and each seat's
  holder get a cookie scoped to the table's path (`h_<table>`, `s_<table>`), HTTP-only, SameSite=Lax.
- **Every state-changing request** (POST) must carry the CSRF token of its browser (`csrf`, a form field
  or the `X-CSRF-Token` header: an HMAC of the browser's id), and come from this server's own origin
  (`Origin`, else `Sec-Fetch-Site`; a client that sends neither is not a browser another site drives).
- **The Host header** must name the server as it was started (`ServerConfig.hostnames`): a page of
  another site that resolves its name to this address (DNS rebinding) gets a 400.
- **Headers** of every response: a Content-Security-Policy with no inline script or style and no
  framing, `X-Frame-Options: DENY`, `Referrer-Policy: same-origin` (a seat's address is never sent to
  another site; `no-referrer` would make browsers send `Origin: null` with the server's own forms),
  `X-Content-Type-Options: nosniff`, and `Cache-Control: no-store` for pages of a table.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
BROWSER_COOKIE = "mb"
COOKIE_DAYS = 30
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def new_token(nbytes: int = 24) -> str:
    return secrets.token_urlsafe(nbytes)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def derived(key: bytes, *parts) -> str:
    """A token made from the server's key and `parts` (unguessable without the key, never stored)."""
    mac = hmac.new(key, "/".join(map(str, parts)).encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")[:32]


def same(a: str | None, b: str | None) -> bool:
    return isinstance(a, str) and isinstance(b, str) and hmac.compare_digest(a.encode(), b.encode())


def host_name(host: str) -> str:
    """A Host header's name without its port, lower case (`[::1]:8000` → `::1`)."""
    host = (host or "").strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class Refusal(Exception):
    """A request refused before it reaches a route: its status and a message for people."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


class Guard:
    def __init__(self, key: bytes, hostnames: set[str]):
        self.key, self.hostnames = key, {h.lower() for h in hostnames}

    def csrf(self, browser: str) -> str:
        return derived(self.key, "csrf", browser)

    def check_host(self, host: str) -> None:
        if host_name(host) not in self.hostnames:
            raise Refusal(400, "This server answers only to the address it was started for "
                               "(see `meeple serve --allow-host`).")

    def check_origin(self, headers, host: str, scheme: str) -> None:
        origin = headers.get("Origin")
        if origin is not None:
            if origin != f"{scheme}://{host}":
                raise Refusal(403, "A form of another site cannot act here.")
            return
        site = headers.get("Sec-Fetch-Site")
        if site is not None and site not in ("same-origin", "none"):
            raise Refusal(403, "A form of another site cannot act here.")

    def check_csrf(self, browser: str | None, sent: str | None) -> None:
        if not browser or not same(sent, self.csrf(browser)):
            raise Refusal(403, "This form has expired or came from elsewhere: load the page again and retry.")


def install(app, guard: Guard) -> None:
    """Check every request (Host; for POST the origin and the CSRF token), give the browser its id, and
    add the security headers to every response."""
    from flask import g, request

    @app.before_request
    def _check():
        g.browser = request.cookies.get(BROWSER_COOKIE)
        g.new_browser = None
        if not (isinstance(g.browser, str) and 20 <= len(g.browser) <= 64 and g.browser.isascii()):
            g.browser = g.new_browser = new_token()
        g.csrf = guard.csrf(g.browser)
        guard.check_host(request.host)
        if request.method not in SAFE_METHODS:
            guard.check_origin(request.headers, request.host, request.scheme)
            sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf")
            guard.check_csrf(None if g.new_browser else g.browser, sent)

    @app.after_request
    def _headers(response):
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        if request.path.startswith("/t/") or request.path.startswith("/replay/"):
            response.headers["Cache-Control"] = "no-store"
        if getattr(g, "new_browser", None):
            set_cookie(response, BROWSER_COOKIE, g.new_browser, "/")
        return response


def set_cookie(response, name: str, value: str, path: str, days: float = COOKIE_DAYS) -> None:
    response.set_cookie(name, value, max_age=int(days * 86400), path=path, httponly=True, samesite="Lax")
