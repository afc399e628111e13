"""The README's ten-line numpy example is python/examples/quickstart.py,
verbatim, and runs as printed."""

import subprocess
import sys

from conftest import REPO

EXAMPLE = REPO / "python/examples/quickstart.py"


def test_the_example_runs_as_printed():
    out = subprocess.run([sys.executable, str(EXAMPLE)], capture_output=True, text=True, check=True).stdout
    # a = [[0, 1, 2], [3, 4, 5]] times a 3x2 of ones: each row's sum, twice.
    assert out == "[[ 3.  3.]\n [12. 12.]]\n"


def test_the_readme_shows_the_example_verbatim():
    text = EXAMPLE.read_text()
    assert len(text.splitlines()) == 10
    # The README and the book's Python chapter.
    docs = [REPO / "README.md", REPO / "docs/src/python.md"]
    assert all(text in d.read_text() for d in docs), "the README or the book lost the example"
