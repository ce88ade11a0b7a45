"""No test listens on or connects to a fixed port: the suite runs beside `scripts/serve` (the
README's first command), beside another checkout's suite, and on xdist workers at once.

Every address a test uses takes its port from `risk_service.redis_server.free_port` (or from
the child that chose it); this scans the tests' source (and the support package's, support/)
for a loopback address with a port written out, as a string ("127.0.0.1:50051",
"localhost:6379") or as a (host, port) pair.
"""

from __future__ import annotations

import io
import re
import token
import tokenize
from pathlib import Path

TESTS = Path(__file__).resolve().parent
SUPPORT = TESTS.parent / "support"  # the harnesses tests share with the benchmarks
LOOPBACK = r"(?:127\.0\.0\.1|localhost|0\.0\.0\.0|\[::1?\])"
IN_TEXT = re.compile(rf"{LOOPBACK}:(\d+)")
# Python 3.12 splits an f-string into parts; 3.11 keeps it one STRING token
TEXT = frozenset({token.STRING, getattr(token, "FSTRING_MIDDLE", token.STRING)})
HOST = re.compile(rf"[rbf]*['\"]{LOOPBACK}['\"]", re.IGNORECASE)


def fixed_ports(source: str) -> list[tuple[int, str]]:
    """(line, text) of every loopback address in `source`'s code with a literal port."""
    found: list[tuple[int, str]] = []
    tokens = [t for t in tokenize.generate_tokens(io.StringIO(source).readline)
              if t.type not in (token.NL, token.NEWLINE, token.COMMENT, token.INDENT,
                                token.DEDENT)]
    for index, tok in enumerate(tokens):
        if tok.type in TEXT:
            found += [(tok.start[0], match.group(0)) for match in IN_TEXT.finditer(tok.string)
                      if int(match.group(1)) != 0]  # port 0: the kernel chooses
        after = tokens[index + 1:index + 3]
        if tok.type == token.STRING and HOST.fullmatch(tok.string) and len(after) == 2 \
                and after[0].string == "," and after[1].type == token.NUMBER \
                and int(after[1].string, 0) != 0:
            found.append((tok.start[0], f"{tok.string}, {after[1].string}"))
    return found


def test_the_scan_finds_fixed_ports() -> None:
    """The scan itself: the spellings a fixed port takes are found, free ones are not."""
    source = '''
target = "127.0.0.1:50051"
url = f"redis://localhost:6379/{db}"
sock.bind(("127.0.0.1", 8080))
ok = f"127.0.0.1:{free_port()}"
also = ("127.0.0.1", port)
kernel = "127.0.0.1:0"
# a comment may say 127.0.0.1:50051
'''
    assert [text for _line, text in fixed_ports(source)] == [
        "127.0.0.1:50051", "localhost:6379", '"127.0.0.1", 8080']


def test_no_test_uses_a_fixed_port() -> None:
    """Every address a test listens on or connects to has a port drawn when it runs."""
    offenders = [f"{path.relative_to(TESTS.parent)}:{line}: {text}"
                 for path in sorted([*TESTS.rglob("*.py"), *SUPPORT.rglob("*.py")])
                 if path != Path(__file__).resolve()
                 for line, text in fixed_ports(path.read_text())]
    assert not offenders, "fixed ports (take one from free_port()):\n" + "\n".join(offenders)
