"""One pool instance's server: LibreOffice driven by unoserver, behind a
Unix socket. Runs with the system Python (/usr/bin/python3, which has
LibreOffice's `uno` module); it imports nothing of this project.

    python3 server.py --socket S --profile P --pipe N --lib L --soffice B \
        --lifeline FD [--fsize BYTES]

It starts soffice.bin with the hardened profile P, listening on the UNO
pipe N (a Unix socket, so the instance needs no TCP port: it works inside a
network namespace that has none, and only our user can connect), connects
unoserver's `UnoConverter` to it, and serves XML-RPC on the Unix socket S
(`ping`, `info`, `convert`). Documents are loaded with macros never
executed and links never updated (`HardenedDesktop`); the indexes are not
refreshed (a refresh may update fields that fetch linked content).

It exits when soffice.bin exits (the pool sees a dead instance and replaces
it), and kills soffice.bin and exits when the pool process dies: the pool
holds the write end of the pipe FD, so EOF there means nobody is left to
supervise us.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import signal
import socketserver
import subprocess
import sys
import threading
import time
import xmlrpc.client
import xmlrpc.server
from typing import Any, cast

START_TIMEOUT = 60.0
# soffice.bin asks to be started again after it created a new profile.
EXIT_RESTART = 81
# XML-RPC fault codes the pool maps to its errors.
FAULT_LOAD = 2
FAULT_CONVERT = 3
FAULT_ARGUMENTS = 4
# Loaded before any fork: the code between fork and exec must not import.
_LIBC = ctypes.CDLL(None, use_errno=True)
_PR_SET_PDEATHSIG = 1


def main() -> None:
    args = _arguments()
    sys.path.insert(0, args.lib)  # unoserver, from the project's environment
    from unoserver import converter

    _watch_lifeline(args.lifeline)
    conv, office = _connect(converter, args, _start_office(args))
    server = _UnixXMLRPCServer(args.socket)
    _register(server, conv)
    threading.Thread(target=_reap_until, args=(office.pid,), daemon=True).start()
    server.serve_forever()


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--socket", required=True)
    parser.add_argument("--profile", required=True)
    parser.add_argument("--pipe", required=True)
    parser.add_argument("--lib", required=True)
    parser.add_argument("--soffice", required=True)
    parser.add_argument("--lifeline", type=int, required=True)
    parser.add_argument("--fsize", type=int, default=0)
    return parser.parse_args()


def _watch_lifeline(fd: int) -> None:
    def watch() -> None:
        while os.read(fd, 1):
            pass
        os._exit(0)  # the pool is gone; soffice.bin follows (PDEATHSIG)

    threading.Thread(target=watch, daemon=True).start()


def _start_office(args: argparse.Namespace) -> subprocess.Popen[bytes]:
    command = [
        args.soffice,
        "--headless",
        "--invisible",
        "--nocrashreport",
        "--nodefault",
        "--nologo",
        "--nofirststartwizard",
        "--norestore",
        "--nolockcheck",
        f"-env:UserInstallation=file://{args.profile}",
        f"--accept=pipe,name={args.pipe};urp;StarOffice.ComponentContext",
    ]

    def limits() -> None:
        # A document must not fill the disk: no file soffice writes (the
        # PDF, its temporary files) may grow past --fsize bytes.
        if args.fsize:
            resource.setrlimit(resource.RLIMIT_FSIZE, (args.fsize, args.fsize))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        # soffice.bin gets SIGKILL when this server dies, however it dies.
        _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)

    return subprocess.Popen(command, preexec_fn=limits, stdin=subprocess.DEVNULL)


def _connect(
    converter: Any, args: argparse.Namespace, office: subprocess.Popen[bytes]
) -> tuple[Any, subprocess.Popen[bytes]]:
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            return _hardened(converter, args.pipe), office
        except Exception as exc:  # UNO's NoConnectException until it listens
            code = office.poll()
            if code == EXIT_RESTART:
                office = _start_office(args)
            elif code is not None:
                sys.exit(f"soffice exited with status {code} while starting")
            if time.monotonic() > deadline:
                office.kill()
                sys.exit(f"soffice did not accept connections: {exc}")
            time.sleep(0.05)


def _hardened(converter: Any, pipe: str) -> Any:
    """unoserver's UnoConverter, connected over the UNO pipe, loading every
    document with macros never run and links never updated."""
    import uno
    from com.sun.star.beans import PropertyValue

    class HardenedDesktop:
        def __init__(self, desktop: Any) -> None:
            self.desktop = desktop
            self.extra: tuple[Any, ...] = ()

        def loadComponentFromURL(  # noqa: N802 (the UNO method's name)
            self, url: str, frame: str, flags: int, props: tuple[Any, ...]
        ) -> Any:
            hardened = (
                PropertyValue(Name="MacroExecutionMode", Value=0),  # NEVER_EXECUTE
                PropertyValue(Name="UpdateDocMode", Value=0),  # NO_UPDATE
                PropertyValue(Name="Hidden", Value=True),
            )
            return self.desktop.loadComponentFromURL(
                url, frame, flags, tuple(props) + hardened + self.extra
            )

    class Converter(converter.UnoConverter):
        def __init__(self) -> None:
            # As UnoConverter.__init__, over a pipe instead of a TCP port.
            self.local_context = uno.getComponentContext()
            self.resolver = self.local_context.ServiceManager.createInstanceWithContext(
                "com.sun.star.bridge.UnoUrlResolver", self.local_context
            )
            self.context = self.resolver.resolve(
                f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext"
            )
            self.service = self.context.ServiceManager
            self.desktop = HardenedDesktop(
                self.service.createInstanceWithContext(
                    "com.sun.star.frame.Desktop", self.context
                )
            )
            self.filter_service = self.service.createInstanceWithContext(
                "com.sun.star.document.FilterFactory", self.context
            )
            self.type_service = self.service.createInstanceWithContext(
                "com.sun.star.document.TypeDetection", self.context
            )
            self.temp_dir = None
            self._export_filters = None
            self._import_filters = None
            self.property_value = PropertyValue

    return Converter()


class _Handler(xmlrpc.server.SimpleXMLRPCRequestHandler):
    disable_nagle_algorithm = False  # a Unix socket has no Nagle

    def address_string(self) -> str:
        return "pool"


class _UnixXMLRPCServer(
    socketserver.UnixStreamServer, xmlrpc.server.SimpleXMLRPCDispatcher
):
    def __init__(self, path: str) -> None:
        xmlrpc.server.SimpleXMLRPCDispatcher.__init__(self, allow_none=True)
        self.logRequests = False
        if os.path.exists(path):
            os.remove(path)
        old = os.umask(0o177)  # only our user may connect
        try:
            socketserver.UnixStreamServer.__init__(self, path, _Handler)
        finally:
            os.umask(old)


def _register(server: _UnixXMLRPCServer, conv: Any) -> None:
    def ping() -> str:
        return "ok"

    def info() -> dict[str, Any]:
        return {"libreoffice": conv.uno_info(), "settings": _settings(conv)}

    def convert(inpath: str, outpath: str, filter_options: str = "") -> bool:
        if not (os.path.isabs(inpath) and os.path.isabs(outpath)):
            raise xmlrpc.client.Fault(FAULT_ARGUMENTS, "paths must be absolute")
        extra: tuple[Any, ...] = ()
        if filter_options:  # import options, e.g. a CSV's separator and charset
            extra = (conv.property_value(Name="FilterOptions", Value=filter_options),)
        conv.desktop.extra = extra
        try:
            conv.convert(inpath=inpath, outpath=outpath, update_index=False)
        except RuntimeError as exc:
            if "Could not load" in str(exc):
                raise xmlrpc.client.Fault(FAULT_LOAD, "load") from None
            raise xmlrpc.client.Fault(FAULT_CONVERT, type(exc).__name__) from None
        except Exception as exc:  # UNO exceptions: IOException, IllegalArgument...
            name = type(exc).__name__
            code = (
                FAULT_LOAD
                if "IOException" in name or "Illegal" in name
                else FAULT_CONVERT
            )
            raise xmlrpc.client.Fault(code, name) from None
        finally:
            conv.desktop.extra = ()
        return True

    server.register_function(ping)
    server.register_function(info)
    server.register_function(cast(Any, convert))


def _settings(conv: Any) -> dict[str, Any]:
    """The security settings as the running office reads them (tests check
    that the profile took effect)."""
    provider = conv.service.createInstanceWithContext(
        "com.sun.star.configuration.ConfigurationProvider", conv.context
    )
    found: dict[str, Any] = {}
    for node, names in (
        (
            "/org.openoffice.Office.Common/Security/Scripting",
            (
                "MacroSecurityLevel",
                "DisableMacrosExecution",
                "BlockUntrustedRefererLinks",
            ),
        ),
        ("/org.openoffice.Office.Writer/Content/Update", ("Link",)),
        ("/org.openoffice.Office.Calc/Content/Update", ("Link",)),
        (
            "/org.openoffice.Office.Calc/Formula/Load",
            ("OOXMLRecalcMode", "ODFRecalcMode"),
        ),
        ("/org.openoffice.Inet/Settings", ("ooInetProxyType", "ooInetHTTPProxyName")),
    ):
        access = provider.createInstanceWithArguments(
            "com.sun.star.configuration.ConfigurationAccess",
            (conv.property_value(Name="nodepath", Value=node),),
        )
        for name in names:
            found[f"{node}/{name}"] = access.getByName(name)
    return found


def _reap_until(office_pid: int) -> None:
    """Reap every child (as PID 1 of a PID namespace, orphans are ours too)
    until soffice.bin is gone, then exit: the pool replaces the instance."""
    while True:
        try:
            pid, _ = os.wait()
        except ChildProcessError:
            os._exit(3)
        if pid == office_pid:
            os._exit(3)


if __name__ == "__main__":
    main()
