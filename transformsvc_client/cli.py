"""The `transformsvc` command: upload, read, search, redact, merge and convert
documents through the service's REST API.

Exit codes: 0 done, 1 an order failed (its errorMessage is printed) or a redaction
left something behind, 2 a usage error, 3 the service refused or could not be
reached (the problem's detail is printed)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from transformsvc_client import commands
from transformsvc_client.client import Client
from transformsvc_client.core import DEFAULT_URL, KEY_ENV, URL_ENV
from transformsvc_client.documents import OCR_MODES
from transformsvc_client.errors import (
    ClientError,
    OrderFailed,
    ProblemError,
    ServiceUnreachable,
)
from transformsvc_client.progress import StderrProgress
from transformsvc_client.redaction import RedactionIncomplete

OK, ORDER_FAILED, USAGE, SERVICE_ERROR = 0, 1, 2, 3


def _common(parser: argparse.ArgumentParser, *, suppress: bool) -> None:
    """Options every command takes, before or after its name. After it they are
    SUPPRESSed when absent, so they do not undo what was given before it."""
    default = argparse.SUPPRESS if suppress else None
    parser.add_argument(
        "--url",
        default=default,
        help=f"the service's address (${URL_ENV}, else {DEFAULT_URL})",
    )
    parser.add_argument(
        "--key", default=default, help=f"API key sent as a bearer token (${KEY_ENV})"
    )
    parser.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        default=argparse.SUPPRESS if suppress else False,
        help="no progress on stderr",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="transformsvc",
        description="Upload, read, search, redact, merge and convert documents "
        "with a transformsvc service.",
        epilog="Exit codes: 0 done, 1 an order failed, 2 usage, 3 a service error.",
    )
    _common(parser, suppress=False)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help)
        _common(p, suppress=True)
        return p

    p = command("upload", "upload a file; prints its document id")
    p.add_argument("file")
    p.add_argument("--title", help="the document's title (default: the file name)")
    p.add_argument(
        "--ocr",
        nargs="?",
        const="always",
        choices=OCR_MODES,
        help="recognise text in scans: always (the default of a bare --ocr), "
        "auto or never",
    )
    p.add_argument("--id", dest="document_id", help="a document id of your choice")
    p.set_defaults(run=commands.upload)

    p = command("list", "your documents, newest first: id, format, pages, title (tabs)")
    p.add_argument(
        "--show",
        default="uploaded",
        choices=("uploaded", "part", "rendition", "result", "layout", "all"),
        help="uploaded (the default), parts of containers, renditions, results "
        "of orders, registered layouts, or all",
    )
    p.add_argument("--format", help="short format names, comma separated: pdf,docx")
    p.add_argument("words", nargs="?", help="words the title holds, in any order")
    p.set_defaults(run=commands.list_documents)

    p = command("layout", "the document's pages: size in points, rotation, dpi")
    p.add_argument("id")
    p.add_argument("--json", action="store_true", help="the service's JSON as is")
    p.set_defaults(run=commands.layout)

    p = command("search", "find text in a document; hits with pages counted from 1")
    p.add_argument("id")
    p.add_argument("text")
    p.add_argument("--regex", action="store_true", help="TEXT is a regular expression")
    p.add_argument("--case-sensitive", action="store_true")
    p.add_argument("--accent-sensitive", action="store_true")
    p.add_argument("--json", action="store_true", help="the search results as JSON")
    p.set_defaults(run=commands.search)

    p = command("redact", "truly remove words (and rule matches) from a file")
    p.add_argument("file")
    p.add_argument("-o", "--output", required=True, help="the redacted PDF to write")
    p.add_argument(
        "--text", action="append", default=[], help="a text to remove (repeatable)"
    )
    p.add_argument(
        "--rule",
        action="append",
        default=[],
        help="a redaction rule preset, e.g. email (repeatable; needs a server "
        "that takes redaction rules)",
    )
    p.add_argument("--case-sensitive", action="store_true")
    p.add_argument(
        "--keep-upload",
        action="store_true",
        help="keep the uploaded original on the service (deleted by default)",
    )
    p.set_defaults(run=commands.redact)

    p = command("merge", "one PDF of every page of the files, in order")
    p.add_argument("files", nargs="+", metavar="file")
    p.add_argument("-o", "--output", required=True, help="the PDF to write")
    p.add_argument("--title", help="the merged document's title")
    p.set_defaults(run=commands.merge)

    p = command("convert", "a file in another format (pdf, docx, odt, txt, png...)")
    p.add_argument("file")
    p.add_argument("--to", required=True, help="the format to make, e.g. pdf")
    p.add_argument("-o", "--output", help="where to write it (default: FILE.<to>)")
    p.set_defaults(run=commands.convert)

    p = command("download", "download a document's file")
    p.add_argument("id")
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--format", help="pdf, zip, or a format a conversion made")
    p.set_defaults(run=commands.download)

    p = command("order", "read or wait for an order")
    orders = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    for action, text in (
        ("get", "the order as JSON"),
        ("wait", "wait until the order ends; the order as JSON"),
    ):
        o = orders.add_parser(action, help=text, description=text)
        _common(o, suppress=True)
        o.add_argument("id")
        o.add_argument(
            "--kind",
            choices=sorted(commands.ORDER_KINDS),
            help="the kind of order (default: found by its id)",
        )
        o.set_defaults(
            run=commands.order_get if action == "get" else commands.order_wait
        )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    progress = StderrProgress(quiet=args.quiet)
    try:
        client = Client(args.url, args.key)
        return int(args.run(client, args, progress) or OK)
    except commands.UsageError as exc:
        parser.error(str(exc))  # exits 2
    except ValueError as exc:  # a malformed --url
        parser.error(str(exc))
    except OrderFailed as exc:
        return _fail(progress, str(exc), ORDER_FAILED)
    except RedactionIncomplete as exc:
        return _fail(progress, str(exc), ORDER_FAILED)
    except ProblemError as exc:
        lines = [exc.message()]
        lines += [f"  {field}: {'; '.join(msgs)}" for field, msgs in exc.errors.items()]
        return _fail(progress, "\n".join(lines), SERVICE_ERROR)
    except (ServiceUnreachable, ClientError) as exc:
        return _fail(progress, str(exc), SERVICE_ERROR)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader of stdout went away (`| head`): not a failure. Point stdout at
        # /dev/null so that the interpreter's final flush does not raise again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return OK
    return OK  # pragma: no cover (parser.error exits)


def _fail(progress: StderrProgress, message: str, code: int) -> int:
    progress.quiet = False  # errors are printed even with --quiet
    progress.note(f"transformsvc: error: {message}")
    return code


if __name__ == "__main__":
    sys.exit(main())
