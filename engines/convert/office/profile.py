"""The hardened LibreOffice user profile of a pool instance.

Each instance has its own user installation (a profile directory): two
soffice processes must never share one. Before every start, its
`user/registrymodifications.xcu` is (re)written with the settings below, so
a document cannot leave a weaker configuration behind for the next one.

What each setting closes (values from LibreOffice's officecfg schema and
the enums behind them: sw UpdateLinks NEVER=0, sc ScLkUpdMode LM_NEVER=1):
- macros: security level 3 ("very high": only signed macros from trusted
  locations, of which there are none) and macro execution disabled;
- links: Writer and Calc never update links (linked sections, OLE links,
  DDE, external references) when a document loads;
- recalculation: OOXML and ODF spreadsheets are never recalculated on load,
  so WEBSERVICE() and friends are not called (cached values are shown);
- referer: images linked from untrusted documents are blocked;
- network: a manual proxy that does not exist (127.0.0.1:1) for HTTP, HTTPS
  and FTP, with no exceptions, so a fetch that slips through fails at once;
- no update checks, no crash recovery data, no first-start wizard.
The pool also starts instances without network access where it can
(`instance.py`): these settings are the second wall.
"""

from __future__ import annotations

import os
from xml.sax.saxutils import escape, quoteattr

DEAD_PROXY_HOST = "127.0.0.1"
DEAD_PROXY_PORT = 1

_SCRIPTING = "/org.openoffice.Office.Common/Security/Scripting"
_INET = "/org.openoffice.Inet/Settings"
_CALC = "/org.openoffice.Office.Calc"
_JOBS = "/org.openoffice.Office.Jobs/Jobs"
_UPDATE_CHECK = f"{_JOBS}/org.openoffice.Office.Jobs:Job['UpdateCheck']/Arguments"
_PROXY_HOST, _PROXY_PORT = DEAD_PROXY_HOST, str(DEAD_PROXY_PORT)

# (node path, property, XML schema type, value)
SETTINGS: tuple[tuple[str, str, str, str], ...] = (
    (_SCRIPTING, "MacroSecurityLevel", "int", "3"),
    (_SCRIPTING, "DisableMacrosExecution", "boolean", "true"),
    (_SCRIPTING, "BlockUntrustedRefererLinks", "boolean", "true"),
    # Newer releases (24.8+) only; older ones ignore an unknown property.
    (_SCRIPTING, "DisableActiveContent", "boolean", "true"),
    ("/org.openoffice.Office.Writer/Content/Update", "Link", "int", "0"),
    (f"{_CALC}/Content/Update", "Link", "int", "1"),
    (f"{_CALC}/Formula/Load", "OOXMLRecalcMode", "int", "1"),
    (f"{_CALC}/Formula/Load", "ODFRecalcMode", "int", "1"),
    (_INET, "ooInetProxyType", "int", "1"),
    (_INET, "ooInetNoProxy", "string", ""),
    (_INET, "ooInetHTTPProxyName", "string", _PROXY_HOST),
    (_INET, "ooInetHTTPProxyPort", "int", _PROXY_PORT),
    (_INET, "ooInetHTTPSProxyName", "string", _PROXY_HOST),
    (_INET, "ooInetHTTPSProxyPort", "int", _PROXY_PORT),
    (_INET, "ooInetFTPProxyName", "string", _PROXY_HOST),
    (_INET, "ooInetFTPProxyPort", "int", _PROXY_PORT),
    (_UPDATE_CHECK, "AutoCheckEnabled", "boolean", "false"),
    ("/org.openoffice.Office.Recovery/RecoveryInfo", "Enabled", "boolean", "false"),
    ("/org.openoffice.Office.Recovery/AutoSave", "Enabled", "boolean", "false"),
    ("/org.openoffice.Office.Common/Misc", "FirstRun", "boolean", "false"),
    (
        "/org.openoffice.Office.Common/Misc",
        "CollectUsageInformation",
        "boolean",
        "false",
    ),
    ("/org.openoffice.Setup/Office", "ooSetupInstCompleted", "boolean", "true"),
)


def registry_xml() -> str:
    """The content of registrymodifications.xcu for `SETTINGS`."""
    items = []
    for path, name, kind, value in SETTINGS:
        items.append(
            f"<item oor:path={quoteattr(path)}>"
            f'<prop oor:name="{name}" oor:op="fuse" oor:type="xs:{kind}">'
            f"<value>{escape(value)}</value></prop></item>"
        )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<oor:items xmlns:oor="http://openoffice.org/2001/registry" '
        'xmlns:xs="http://www.w3.org/2001/XMLSchema" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
        + "\n".join(items)
        + "\n</oor:items>\n"
    )


def write_profile(profile_dir: str) -> None:
    """Create or refresh the hardened profile in `profile_dir` (the
    `-env:UserInstallation` directory), and drop a stale lock left by an
    instance that was killed."""
    user = os.path.join(profile_dir, "user")
    os.makedirs(user, mode=0o700, exist_ok=True)
    with open(os.path.join(user, "registrymodifications.xcu"), "w") as fh:
        fh.write(registry_xml())
    try:
        os.remove(os.path.join(user, ".lock"))
    except FileNotFoundError:
        pass
