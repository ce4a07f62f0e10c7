"""A real `meeple serve` on loopback for the attack tests, and a browser-like client of it.

    server = LiveServer(tmp_path, "--max-tables", "200")     # waitress in a child process
    people = Client(server.url)                               # its own cookie jar, like a browser
    status, headers, body = people.get("/")
    people.post("/new", {...})                                # with this browser's CSRF token
    server.kill()                                             # SIGKILL; server.start() again on the same db
"""
from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    def __init__(self, folder: Path, *args: str):
        self.db = str(Path(folder) / "tables.sqlite3")
        self.args = args
        self.port = free_port()
        self.url = f"127.0.0.1:{self.port}"
        self.process = None
        self.start()

    def start(self) -> None:
        env = dict(os.environ)
        self.log = open(Path(self.db).with_suffix(f".{time.monotonic_ns()}.log"), "w")
        self.process = subprocess.Popen([sys.executable, "-m", "interpreter", "serve", "--port", str(self.port),
                                         "--db", self.db, *self.args], cwd=ROOT, env=env,
                                        stdout=self.log, stderr=subprocess.STDOUT)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(f"the server did not start: {Path(self.log.name).read_text()}")
                time.sleep(0.1)
        raise RuntimeError("the server did not start within a minute")

    def rss_kib(self) -> int:
        """The server process's resident memory, in KiB."""
        text = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(r"VmRSS:\s+(\d+)", text).group(1))

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def kill(self, sig=signal.SIGKILL) -> None:
        self.process.send_signal(sig)
        self.process.wait(30)
        self.log.close()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.kill(signal.SIGTERM)


CSRF = re.compile(r'name="csrf" (?:value|content)="([^"]+)"')


class Client:
    """A browser of its own: its cookies, its CSRF token; no redirect followed."""

    def __init__(self, host: str):
        self.host = host
        self.cookies: dict[str, tuple[str, str]] = {}   # name -> (value, path)
        self.token: str | None = None

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
                timeout: float = 30):
        conn = http.client.HTTPConnection(self.host, timeout=timeout)
        sent = {"Host": self.host, **(headers or {})}
        jar = "; ".join(f"{k}={v}" for k, (v, p) in self.cookies.items() if path.startswith(p))
        if jar:
            sent["Cookie"] = jar
        conn.request(method, path, body=body, headers=sent)
        r = conn.getresponse()
        data = r.read()
        for value in r.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            cookie, _, attrs = rest.partition(";")
            where = re.search(r"Path=([^;]+)", attrs)
            self.cookies[name] = (cookie, where.group(1) if where else "/")
        conn.close()
        text = data.decode("utf-8", "replace")
        found = CSRF.search(text)
        if found:
            self.token = found.group(1)
        return r.status, r.headers, text

    def get(self, path: str, **kw):
        return self.request("GET", path, **kw)

    def post(self, path: str, data: dict | None = None, headers: dict | None = None, token: bool = True, **kw):
        if token and self.token is None:
            self.get("/")
        fields = dict(data or {})
        if token:
            fields.setdefault("csrf", self.token)
        body = urllib.parse.urlencode(fields, doseq=True).encode()
        return self.request("POST", path, body, {"Content-Type": "application/x-www-form-urlencoded",
                                                 **(headers or {})}, **kw)
