"""A one-shot `soffice --convert-to pdf`, for the documents a warm instance
cannot load.

Debian's LibreOffice 7.4 "nogui" packages ship no Writer dialog files, and
a document with comments makes an instance build its comment windows from
one of them (modules/swriter/ui/annotation.ui) while it is open over UNO:
the load fails or soffice aborts. The command-line conversion loads,
exports and closes in one step of soffice's main loop, before those windows
are built, so it converts such documents. It costs a start of LibreOffice
(about a second), so the pool uses it only after a warm instance failed.

It runs with the same protections as an instance: the hardened profile (a
profile of its own), the network and PID namespaces when available, the
time limit, and a kill of its whole process tree.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

from engines.convert.office import procs
from engines.convert.office.profile import write_profile
from engines.errors import ConversionFailed, ConversionTimeout


def convert_once(
    src: str,
    dest: str,
    *,
    profile: str,
    prefix: list[str] | None,
    soffice: str,
    environment: dict[str, str],
    timeout: float,
) -> None:
    """Convert `src` to `dest` with a fresh soffice process (in the format of
    `dest`'s extension: pdf, docx, odt...)."""
    extension = os.path.splitext(dest)[1].lstrip(".") or "pdf"
    write_profile(profile)
    outdir = tempfile.mkdtemp(prefix="oneshot-", dir=os.path.dirname(dest))
    # The wrapper script (oosplash) restarts soffice.bin after it created a
    # new profile, which the command line needs; the pool's instances run
    # soffice.bin directly and restart it themselves.
    program = os.path.join(os.path.dirname(soffice), "soffice")
    command = [*(prefix or []), program if os.path.exists(program) else soffice]
    command += ["--headless", "--invisible", "--nologo", "--norestore", "--nolockcheck"]
    command += [f"-env:UserInstallation=file://{profile}"]
    command += ["--convert-to", extension, "--outdir", outdir, src]
    process = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=environment,
        start_new_session=True,
    )
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        procs.kill_tree(process.pid)
        process.wait()
        shutil.rmtree(outdir, ignore_errors=True)
        raise ConversionTimeout(
            f"the conversion took longer than its time limit of {timeout:g} s "
            "and was stopped"
        ) from None
    try:
        produced = os.path.join(
            outdir, os.path.splitext(os.path.basename(src))[0] + "." + extension
        )
        if not os.path.exists(produced):
            raise ConversionFailed(
                "LibreOffice could not open the document: it is damaged, "
                "protected, or in a format it does not read"
            )
        os.replace(produced, dest)
    finally:
        shutil.rmtree(outdir, ignore_errors=True)
