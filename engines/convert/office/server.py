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
refreshed (a refresh may update fields that fetch linked content). A CSV
made into a PDF has its columns fitted to their text first (`fit_columns`).

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
from collections.abc import Callable
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
            self.prepare: Callable[[Any], None] | None = None

        def loadComponentFromURL(  # noqa: N802 (the UNO method's name)
            self, url: str, frame: str, flags: int, props: tuple[Any, ...]
        ) -> Any:
            hardened = (
                PropertyValue(Name="MacroExecutionMode", Value=0),  # NEVER_EXECUTE
                PropertyValue(Name="UpdateDocMode", Value=0),  # NO_UPDATE
                PropertyValue(Name="Hidden", Value=True),
            )
            if self.prepare is not None:
                # A read-only Calc document ignores changes to its columns;
                # the file is our staged copy, and it is never saved.
                props = tuple(p for p in props if p.Name != "ReadOnly")
            document = self.desktop.loadComponentFromURL(
                url, frame, flags, tuple(props) + hardened + self.extra
            )
            if document is not None and self.prepare is not None:
                try:
                    self.prepare(document)
                except Exception:
                    document.close(True)  # never left open in the instance
                    raise
            return document

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
            if outpath.endswith(".pdf"):  # a CSV (only it has options) to PDF
                conv.desktop.prepare = fit_columns
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
            conv.desktop.prepare = None
        return True

    server.register_function(ping)
    server.register_function(info)
    server.register_function(cast(Any, convert))


# Wider CSVs keep Calc's own widths: reading and setting each column is a
# round trip to Calc (3,000 columns: 4 s against 0.5 s for the whole
# conversion), and a table that wide prints over many pages anyway.
MAX_FITTED_COLUMNS = 256


def fit_columns(document: Any) -> None:
    """Lay out a CSV's table so that every word of every cell is drawn.

    Calc's CSV import makes each column as wide as its longest text, up to
    58 cm: a column wider than the page is printed alone and cut at the
    page's edge, and the words past it never reach the PDF. Each used column
    keeps that width up to a cap (its share of the page's printable width,
    see `column_widths`); a capped column wraps its text, and the rows, which
    Calc keeps at their optimal height, grow to show every line. A table
    wider than a portrait page is printed landscape; one wider still goes on
    over the next pages, as Calc prints wide sheets."""
    sheet = document.Sheets.getByIndex(0)  # a CSV has one sheet
    cursor = sheet.createCursor()
    cursor.gotoEndOfUsedArea(False)
    used = cursor.RangeAddress
    if used.EndColumn + 1 > MAX_FITTED_COLUMNS:
        return  # each column is a round trip to Calc; such tables print as Calc makes them
    columns = [sheet.Columns.getByIndex(i) for i in range(used.EndColumn + 1)]
    before = [column.Width for column in columns]  # 1/100 mm
    # All columns at once: one by one, each setting lays out the sheet again
    # (3,000 columns took 10 s against 0.5 s for the whole conversion before).
    sheet.getCellRangeByPosition(
        0, 0, used.EndColumn, used.EndRow
    ).Columns.OptimalWidth = True
    optimal = [column.Width for column in columns]
    page = document.StyleFamilies.getByName("PageStyles").getByName(sheet.PageStyle)
    widths, capped = column_widths(before, optimal, _printable_width(page))
    if sum(widths) > _printable_width(page) and not page.IsLandscape:
        page.Width, page.Height = page.Height, page.Width
        page.IsLandscape = True
        widths, capped = column_widths(before, optimal, _printable_width(page))
    for column, width, best, wrap in zip(columns, widths, optimal, capped, strict=True):
        if width != best:
            column.Width = width
        if wrap:  # other cells keep Calc's wrapping (a cell with line breaks)
            column.IsTextWrapped = True


def column_widths(
    before: list[int], optimal: list[int], printable: int
) -> tuple[list[int], list[bool]]:
    """Each column's width, and whether it is capped (its text then wraps).

    A column is as wide as its text (`optimal`), never narrower than it was
    (`before`). One whose text is wider than half the `printable` width is
    capped: the capped columns share what the others leave of the page, each
    at least a quarter of it (a lone long column takes all that is left)."""
    half, quarter = printable // 2, printable // 4
    capped = [best > half for best in optimal]
    natural = [max(old, best) for old, best in zip(before, optimal, strict=True)]
    if not any(capped):
        return natural, capped
    left = printable - sum(w for w, cap in zip(natural, capped, strict=True) if not cap)
    share = max(quarter, left // sum(capped))
    widths = [share if cap else w for w, cap in zip(natural, capped, strict=True)]
    return widths, capped


def _printable_width(page: Any) -> int:
    return int(page.Width - page.LeftMargin - page.RightMargin)


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
