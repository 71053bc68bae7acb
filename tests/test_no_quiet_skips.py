"""No test skips quietly when a real part is missing (issue #26, goal 6).

A missing part (mosquitto, the MicroPython unix port, openssl, Chromium, PokerKit) stops
the run with one line saying what to install: tests declare it with
``@pytest.mark.needs(...)`` and tests/conftest.py does the rest. A ``skipif`` on the
part, an ``importorskip`` or a ``pytest.skip`` in a fixture would instead turn the tests
into quiet skips, so none may come back. Two skips are not about a missing part: they
are listed here with the reason they give.
"""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
QUIET = re.compile(r"skipif\(|importorskip\(|pytest\.skip\(|find_mosquitto\(\) is None")
NOT_A_MISSING_PART = {
    # The premise of the test is absent, not a part: as root the script would install.
    ("console/test_deploy_files.py", 'pytest.skip("running as root: the script would really'),
    # The test is about a Pi *without* RPi.GPIO.
    ("console/test_gpio_backend.py", 'pytest.skip("RPi.GPIO is installed here")'),
}


def test_no_test_skips_quietly_for_a_missing_part() -> None:
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        name = path.relative_to(TESTS).as_posix()
        if name in ("conftest.py", "test_no_quiet_skips.py"):
            continue  # the ``needs`` mechanism itself, and this list
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if QUIET.search(line) and not any(
                name == where and text in line for where, text in NOT_A_MISSING_PART
            ):
                found.append(f"{name}:{number}: {line.strip()}")
    assert found == [], "use @pytest.mark.needs(...) instead:\n" + "\n".join(found)
