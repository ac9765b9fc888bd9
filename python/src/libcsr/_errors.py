# SPDX-License-Identifier: BSD-3-Clause
"""The exceptions libcsr raises: one per kind of failure, each also a built-in exception
(ValueError, OSError, MemoryError, ...) so that code catching those catches these."""

from __future__ import annotations

import re


class Error(Exception):
    """A libcsr call failed.

    Attributes: ``status`` (the C library's status name, such as ``"CSR_ERR_PARSE"``), ``code``
    (its number), ``message`` (what the C library's message says: ``"web.mtx:17: expected a value,
    found the end of the line"``) and ``detail`` (the same with the library source line that
    raised it, for bug reports).
    """

    def __init__(self, message: str, status: str = "", code: int = 0, detail: str = ""):
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.detail = detail or message


class FileFormatError(Error, ValueError):
    """A file's text is not what its format allows. ``path`` and ``line`` name where."""

    path: str | None
    line: int | None

    def __init__(self, message: str, status: str = "", code: int = 0, detail: str = ""):
        super().__init__(message, status, code, detail)
        where = re.match(r"^(.*?):(\d+): ", message)
        self.path = where.group(1) if where else None
        self.line = int(where.group(2)) if where else None


class LibcsrIOError(Error, OSError):
    """A file could not be opened, read or written."""


class LibcsrFileNotFoundError(LibcsrIOError, FileNotFoundError):
    """The file does not exist."""


class InvalidMatrixError(Error, ValueError):
    """A matrix breaks the CSR invariants, or a solver found it singular or indefinite."""


class IndexOutOfBoundsError(InvalidMatrixError, IndexError):
    """An index lies outside the matrix."""


class DimensionMismatchError(Error, ValueError):
    """Operand shapes do not fit together."""


class TypeMismatchError(Error, TypeError):
    """Operand value types do not fit together."""


class InvalidValueError(Error, ValueError):
    """An argument is out of its documented range."""


class SizeOverflowError(Error, OverflowError):
    """A size or value exceeds what libcsr (32-bit indices, 64-bit counts, doubles) can hold."""


class UnsupportedError(Error, NotImplementedError):
    """A valid request that libcsr does not support (complex matrices, bzip2 input, ...)."""


class LibcsrMemoryError(Error, MemoryError):
    """A host or device allocation failed (the message gives the size)."""


class DeviceError(Error, RuntimeError):
    """The CUDA runtime reported an error."""


class NotCompiledError(Error, RuntimeError):
    """The backend asked for is not built into this package (see libcsr.build_info())."""


class LocationMismatchError(Error, ValueError):
    """Operands live in different places (host and device)."""


_BY_CODE = {
    -1: Error,  # CSR_ERR_NULL_POINTER: never from the package's own calls
    -2: InvalidValueError,
    -3: DimensionMismatchError,
    -4: IndexOutOfBoundsError,
    -5: InvalidMatrixError,
    -6: FileFormatError,
    -7: LibcsrIOError,
    -8: SizeOverflowError,
    -9: UnsupportedError,
    -10: LibcsrMemoryError,
    -11: DeviceError,
    -12: NotCompiledError,
    -13: LocationMismatchError,
    -14: TypeMismatchError,
}


def error_class(code: int) -> type[Error]:
    """The exception class of a C status code (negative)."""
    return _BY_CODE.get(code, Error)


def raise_error(code: int, status: str, message: str, detail: str) -> None:
    """Raises the exception of a failed C call (called from the extension module)."""
    cls = error_class(code)
    if cls is LibcsrIOError and "No such file or directory" in message:
        cls = LibcsrFileNotFoundError
    raise cls(message, status, code, detail)
