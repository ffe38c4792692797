"""Screenshots with the Debian chromium, driven over the DevTools protocol on a
pipe (--remote-debugging-pipe): no driver, no websocket library."""

from __future__ import annotations

import base64
import json
import mimetypes
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

BINARY = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
)


class Chromium:
    """One headless browser and one page; `shoot(url, path)` saves a full-page PNG."""

    def __init__(self, width: int = 1400, height: int = 900) -> None:
        self.width, self.height = width, height
        self.profile = tempfile.mkdtemp(prefix="ts-chromium-")
        to_chrome, self._write = os.pipe()
        self._read, from_chrome = os.pipe()

        def wire() -> None:  # in the child: the protocol's fds 3 (in) and 4 (out)
            os.dup2(to_chrome, 3)
            os.dup2(from_chrome, 4)

        self.proc = subprocess.Popen(
            [BINARY, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=wire,
            pass_fds=(3, 4),
        )
        os.close(to_chrome)
        os.close(from_chrome)
        self._buffer = b""
        self._next = 0
        self.events: list[dict[str, Any]] = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call(
            "Target.attachToTarget", targetId=target, flatten=True
        )["sessionId"]
        self.call("Page.enable", session=True)
        self.viewport(height)

    def _send(self, message: dict[str, Any]) -> None:
        os.write(self._write, json.dumps(message).encode() + b"\0")

    def _receive(self, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("chromium did not answer")
            chunk = os.read(self._read, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed its pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return dict(json.loads(message))

    def call(
        self, method: str, *, session: bool = False, timeout: float = 30, **params: Any
    ) -> dict[str, Any]:
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        self._send(message)
        while True:
            answer = self._receive(timeout)
            if answer.get("id") == self._next:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return dict(answer.get("result", {}))
            self.events.append(answer)

    def wait_for(self, event: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while True:
            for n, seen in enumerate(self.events):
                if seen.get("method") == event:
                    del self.events[: n + 1]
                    return
            self.events.append(self._receive(max(0.1, deadline - time.monotonic())))

    def evaluate(self, expression: str) -> Any:
        result = self.call(
            "Runtime.evaluate", session=True, expression=expression, returnByValue=True
        )
        return result.get("result", {}).get("value")

    def viewport(self, height: int) -> None:
        self.call(
            "Emulation.setDeviceMetricsOverride",
            session=True,
            width=self.width,
            height=height,
            deviceScaleFactor=1,
            mobile=False,
        )

    def set_cookie(self, name: str, value: str, url: str) -> None:
        self.call("Network.setCookie", session=True, name=name, value=value, url=url)

    def shoot(self, url: str, path: Path, max_height: int = 5000) -> int:
        """Open `url`, let every lazy image load, save the whole page (up to
        `max_height` px) as PNG at `path`; returns the page's height."""
        self.viewport(self.height)
        self.events.clear()
        self.call("Page.navigate", session=True, url=url)
        self.wait_for("Page.loadEventFired")
        height = int(
            self.evaluate("document.documentElement.scrollHeight") or self.height
        )
        height = min(max(height, self.height), max_height)
        self.viewport(height)  # every lazy image is now in view, so it loads
        deadline = time.monotonic() + 20
        while (
            not self.evaluate("Array.from(document.images).every(i => i.complete)")
            and time.monotonic() < deadline
        ):
            time.sleep(0.1)
        time.sleep(0.2)
        shot = self.call("Page.captureScreenshot", session=True, format="png")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(shot["data"]))
        return height

    def close(self) -> None:
        try:
            self.call("Browser.close", timeout=5)
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._write)
        os.close(self._read)
        shutil.rmtree(self.profile, ignore_errors=True)


KEYS = {"ArrowRight": 39, "ArrowLeft": 37, "PageDown": 34, "PageUp": 33}
KEYS |= {"End": 35, "Home": 36}


def _static(path: str) -> dict[str, Any] | None:
    """A static file's answer, found as `collectstatic` would find it (the
    tests run without collecting); None for other paths."""
    from django.conf import settings
    from django.contrib.staticfiles import finders

    prefix = "/" + settings.STATIC_URL.lstrip("/")
    if not path.startswith(prefix):
        return None
    found = finders.find(path[len(prefix) :].split("?", 1)[0])
    if not found:
        return {"responseCode": 404, "body": ""}
    kind = mimetypes.guess_type(str(found))[0] or "application/octet-stream"
    return {
        "responseCode": 200,
        "responseHeaders": [{"name": "Content-Type", "value": kind}],
        "body": base64.b64encode(Path(str(found)).read_bytes()).decode(),
    }


class ServedChromium(Chromium):
    """A Chromium whose every request is answered by a Django test client, in
    this process (DevTools' Fetch domain): pages read the test's own database,
    inside its transaction, with no server to start. `served` lists the paths
    asked for, in order."""

    HOST = "http://testserver"

    def __init__(self, width: int = 1400, height: int = 900) -> None:
        self.client: Any = None
        self.served: list[str] = []
        self._fulfilled = 1_000_000  # ids of our own answers, apart from call()'s
        super().__init__(width, height)
        self.call("Fetch.enable", session=True, patterns=[{"urlPattern": "*"}])

    def _receive(self, timeout: float) -> dict[str, Any]:
        while True:
            message = super()._receive(timeout)
            if message.get("method") != "Fetch.requestPaused":
                return message
            self._answer(message["params"])

    def _answer(self, paused: dict[str, Any]) -> None:
        url = paused["request"]["url"]
        self._fulfilled += 1
        reply: dict[str, Any] = {"id": self._fulfilled, "sessionId": self.session}
        if not url.startswith(self.HOST + "/") or self.client is None:
            reply |= {
                "method": "Fetch.failRequest",
                "params": {"requestId": paused["requestId"], "errorReason": "Failed"},
            }
            self._send(reply)
            return
        path = url[len(self.HOST) :]
        self.served.append(path)
        static = _static(path)
        if static is not None:
            reply |= {"method": "Fetch.fulfillRequest", "params": static}
            reply["params"]["requestId"] = paused["requestId"]
            self._send(reply)
            return
        response = self.client.generic(paused["request"]["method"], path)
        if response.streaming:
            # Read to its end, the client closes it (a second close() would
            # send request_finished again, which closes the test's connection).
            body = b"".join(response.streaming_content)
        else:
            body = response.content
        reply |= {
            "method": "Fetch.fulfillRequest",
            "params": {
                "requestId": paused["requestId"],
                "responseCode": response.status_code,
                "responseHeaders": [
                    {"name": k, "value": v} for k, v in response.items()
                ],
                "body": base64.b64encode(body).decode(),
            },
        }
        self._send(reply)

    def open(self, path: str) -> None:
        """Navigate to `path` of the test client's site and wait for its load."""
        self.viewport(self.height)
        self.events.clear()
        self.call("Page.navigate", session=True, url=self.HOST + path)
        self.wait_for("Page.loadEventFired")

    def until(self, expression: str, timeout: float = 20) -> Any:
        """Wait until the page's `expression` is truthy; returns its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value or time.monotonic() > deadline:
                return value
            time.sleep(0.05)

    def press(self, key: str) -> None:
        code = KEYS.get(key, 0)
        for kind in ("rawKeyDown", "keyUp"):
            self.call(
                "Input.dispatchKeyEvent",
                session=True,
                type=kind,
                key=key,
                code=key,
                windowsVirtualKeyCode=code,
            )

    def screenshot(self) -> bytes:
        """The viewport as PNG bytes."""
        shot = self.call("Page.captureScreenshot", session=True, format="png")
        return base64.b64decode(shot["data"])
