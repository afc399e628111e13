"""mlir_interp: the mlir-interp reference interpreter for MLIR, called
with numpy arrays. Exact results, undefined behaviour reported at the op
that commits it, one exception class per kind of failure."""

import os
from typing import Any, Callable, Optional, Sequence, Tuple, Union


Source = Union[str, os.PathLike[str]]
"""A program's text, or the path of a .mlir file."""

class Location:
    """Where in the program something happened (1-based line and column)."""
    @property
    def file(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...

class Note:
    """A place that explains an error: where memory was allocated, where a poison was made."""
    @property
    def location(self) -> Location: ...
    @property
    def message(self) -> str: ...

class Error(Exception):
    """Any failure of mlir_interp; str() is the diagnostic as the CLI prints it."""
    message: str
    location: Optional[Location]
    op: Optional[str]
    notes: list[Note]
    output: str
    """What the program printed before the failure."""

class UndefinedBehavior(Error):
    """Division by zero, out-of-bounds access, use after free, observed poison, a failed cf.assert."""

class InvalidIR(Error):
    """The program does not parse or verify."""

class Unsupported(Error):
    """An op, type or value the interpreter does not execute or convert."""

class LimitExceeded(Error):
    """max_steps, max_memory, timeout or the call depth was reached."""

class InternalError(Error):
    """An interpreter bug, never the program's fault."""

class ArgumentError(Error):
    """An argument does not fit its parameter, or there is no such function."""

class Poison:
    """The type of `poison`."""

poison: Poison
"""What a function returns for a poison scalar."""

class Program:
    """A parsed and verified MLIR module."""
    @staticmethod
    def parse(text: str, filename: str = "<string>") -> Program: ...
    @staticmethod
    def from_file(path: Union[str, os.PathLike[str]]) -> Program: ...

Observer = Callable[[dict[str, Any]], object]
"""Called after every executed op with {"op", "line", "column", "results"}."""

class Interpreter:
    """Calls a program's functions with Python and numpy values.

    Scalars: bool, int, float, complex, or a numpy scalar of the parameter's
    dtype. Tensors and vectors: arrays (copied). Memrefs: arrays lent in
    place (the function's stores land in them). Results: numpy scalars and
    arrays of the dtype of each result type (ml_dtypes for bfloat16, fp8,
    fp6, fp4, int4, int2), a Python int for integers with no dtype.
    """
    def __init__(
        self,
        program: Program,
        *,
        max_memory: Optional[int] = None,
        max_steps: Optional[int] = None,
        timeout: Optional[float] = None,
        observer: Optional[Observer] = None,
    ) -> None: ...
    def call(self, name: str, *args: Any) -> Tuple[Any, ...]: ...
    def take_printed(self) -> str: ...

def run(
    text_or_path: Source,
    entry: str = "main",
    args: Sequence[Any] = (),
    *,
    max_memory: Optional[int] = None,
    max_steps: Optional[int] = None,
    timeout: Optional[float] = None,
    observer: Optional[Observer] = None,
) -> str:
    """Runs `entry` and returns what the program printed."""

class Verdict:
    """passcheck's judgement on one input."""
    @property
    def kind(self) -> str:
        """"same", "refines", "miscompile", "inconclusive" or "unusable"."""
    @property
    def reason(self) -> str: ...
    @property
    def args(self) -> list[str]: ...
    @property
    def source_output(self) -> str: ...

class PasscheckResult:
    @property
    def verdicts(self) -> list[Verdict]: ...
    @property
    def summary(self) -> str: ...
    @property
    def miscompiled(self) -> bool: ...
    @property
    def first_miscompile(self) -> Optional[Verdict]: ...

def passcheck(
    text_or_path: Source,
    passes: Optional[str] = None,
    opt: Optional[str] = None,
    *,
    entry: Optional[str] = None,
    args: Optional[list[str]] = None,
    inputs: int = 8,
    seed: int = 0,
    nan_exact: bool = False,
    max_steps: Optional[int] = None,
    timeout: float = 10.0,
    opt_timeout: float = 120.0,
) -> PasscheckResult:
    """Do `passes` (mlir-opt, or the command `opt`) keep the program's meaning?"""

class DiffResult:
    @property
    def verdict(self) -> str:
        """"same", "differ" or "undefined"."""
    @property
    def first_difference(self) -> Optional[str]: ...
    @property
    def interp_output(self) -> str: ...
    @property
    def runner_output(self) -> str: ...
    @property
    def interp_error(self) -> str: ...

def diff(
    text_or_path: Source,
    entry: str = "main",
    pipeline: Optional[str] = None,
    *,
    nan_exact: bool = False,
    max_steps: Optional[int] = None,
    timeout: float = 60.0,
) -> DiffResult:
    """Does mlir-opt's lowering under mlir-runner print what mlir-interp prints?"""
