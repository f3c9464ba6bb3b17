"""Reading what a user named (a file, or standard input) as UTF-8 text, within a size bound.

Every failure is an :class:`~rami.errors.UnreadableFileError` whose message names the input
(:class:`~rami.errors.InputTooLargeError` past the bound). Input is read in chunks and never past
its bound, so ``/dev/zero`` or an endless pipe cannot hang a command or fill the memory; a file
that is not a regular file or a pipe (a device, a socket) is refused before any read. A leading
UTF-8 byte order mark is dropped.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, BinaryIO

from rami.errors import InputTooLargeError, UnreadableFileError, quote

#: Bytes one position may take (a file, standard input): far more than any real position.
MAX_POSITION_BYTES = 1 << 20
#: Bytes a file of many lines may take: a puzzle pack, a ``--batch`` file, game records.
MAX_FILE_BYTES = 64 << 20

_CHUNK = 1 << 16


def _size(limit: int) -> str:
    return f"{limit >> 20} MiB" if limit >= 1 << 20 and not limit % (1 << 20) else f"{limit} bytes"


def read_bounded(stream: IO[Any], limit: int, name: str) -> bytes | str:
    """Everything ``stream`` holds, read in chunks; InputTooLargeError past ``limit``."""
    chunks = []
    total = 0
    while True:
        chunk = stream.read(min(_CHUNK, limit + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
        if total > limit:
            raise InputTooLargeError(
                f"cannot read {name}: more than {_size(limit)}, the most it may hold"
            )
    if chunks and isinstance(chunks[0], str):
        return "".join(chunks)
    return b"".join(chunks)


def decode(data: bytes | str, name: str, errors: str = "strict") -> str:
    """UTF-8 text without a leading byte order mark.

    ``errors="surrogateescape"`` keeps bytes that are not UTF-8 as lone surrogates (U+DC80 to
    U+DCFF) instead of refusing the whole input: for inputs read line by line, where each
    line that holds one gets its own error (:func:`undecodable`)."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8", errors)
        except UnicodeDecodeError:
            raise UnreadableFileError(f"cannot read {name}: not UTF-8 text") from None
    return data[1:] if data.startswith("\ufeff") else data


#: The lone surrogates ``surrogateescape`` decodes a byte that is not UTF-8 to.
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")


def undecodable(text: str) -> str | None:
    """Why ``text`` (decoded with ``errors="surrogateescape"``) is not UTF-8 text, naming the
    first byte at fault and where it is (counted in bytes); None when it is. Text decoded
    from valid UTF-8 never holds a lone surrogate, so one is always an escaped byte."""
    match = _ESCAPED_BYTE.search(text)
    if match is None:
        return None
    byte = ord(match.group(0)) - 0xDC00
    offset = len(text[: match.start()].encode("utf-8", "surrogateescape")) + 1
    return f"not UTF-8 text (byte 0x{byte:02X}, the line's byte {offset})"


def _open_file(path: Path | str) -> tuple[BinaryIO, str]:
    """The file opened for reading in binary, and its quoted name for messages; a regular
    file or a pipe only (UnreadableFileError otherwise, naming the file)."""
    name = quote(str(path))
    if str(path) == "":
        raise UnreadableFileError("cannot read '': no file name given")
    try:
        handle = open(path, "rb")  # noqa: SIM115 - the caller closes it
    except FileNotFoundError:
        raise UnreadableFileError(f"cannot read {name}: no such file") from None
    except IsADirectoryError:
        raise UnreadableFileError(f"cannot read {name}: it is a directory") from None
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise UnreadableFileError(f"cannot read {name}: {reason}") from None
    try:
        mode = os.fstat(handle.fileno()).st_mode
    except OSError as error:
        handle.close()
        raise UnreadableFileError(f"cannot read {name}: {error.strerror or error}") from None
    if stat.S_ISDIR(mode) or not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode)):
        handle.close()
        raise UnreadableFileError(
            f"cannot read {name}: "
            + ("it is a directory" if stat.S_ISDIR(mode) else "not a regular file")
        )
    return handle, name


def read_text_file(path: Path | str, *, limit: int = MAX_FILE_BYTES, errors: str = "strict") -> str:
    """A file's text; UnreadableFileError naming the file (InputTooLargeError past ``limit``).
    ``errors``: as :func:`decode`."""
    handle, name = _open_file(path)
    with handle:
        try:
            data = read_bounded(handle, limit, name)
        except IsADirectoryError:
            raise UnreadableFileError(f"cannot read {name}: it is a directory") from None
        except OSError as error:
            raise UnreadableFileError(f"cannot read {name}: {error.strerror or error}") from None
    return decode(data, name, errors)


def split_lines(stream: IO[Any], name: str, max_line_bytes: int) -> Iterator[tuple[int, str]]:
    """(number, text) of each line of ``stream`` (its end, ``\n`` or ``\r\n``, taken off),
    read in chunks as it is consumed: the memory held is one line, whatever the input's size.

    InputTooLargeError for a line longer than ``max_line_bytes`` (raised before the rest of it
    is read), UnreadableFileError for a line that is not UTF-8 text (both naming the line); a
    leading byte order mark is dropped. Lines end at ``\n`` only (a JSON string may hold
    U+2028, which :meth:`str.splitlines` would cut)."""
    pending = bytearray()
    number = 0

    def too_long() -> InputTooLargeError:
        return InputTooLargeError(
            f"cannot read {name}: line {number} is longer than {_size(max_line_bytes)}, "
            "the most one line may hold"
        )

    def line() -> str:
        data = bytes(pending[:-1] if pending.endswith(b"\r") else pending)
        if len(data) > max_line_bytes:
            raise too_long()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise UnreadableFileError(
                f"cannot read {name}: line {number} is not UTF-8 text "
                f"(byte 0x{data[error.start]:02X}, the line's byte {error.start + 1})"
            ) from None
        return text[1:] if number == 1 and text.startswith("\ufeff") else text

    while True:
        try:
            chunk = stream.read(_CHUNK)
        except OSError as error:
            raise UnreadableFileError(f"cannot read {name}: {error.strerror or error}") from None
        if not chunk:
            break
        if isinstance(chunk, str):  # a text stream (standard input in tests)
            chunk = chunk.encode("utf-8", "surrogateescape")
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            pending += chunk[start:] if end < 0 else chunk[start:end]
            if end < 0:
                if len(pending) > max_line_bytes + 1:  # (+1: a "\r" before the "\n")
                    number += 1
                    raise too_long()
                break
            number += 1
            yield number, line()
            pending.clear()
            start = end + 1
    if pending:
        number += 1
        yield number, line()


def file_lines(path: Path | str, *, max_line_bytes: int) -> Iterator[tuple[int, str]]:
    """The numbered lines of a file, streamed (:func:`split_lines`); the file is closed when
    the iteration ends or the iterator is closed."""
    handle, name = _open_file(path)
    with handle:
        yield from split_lines(handle, name, max_line_bytes)


STDIN_NAME = "standard input"


def read_stdin(
    *, limit: int = MAX_POSITION_BYTES, stream: IO[Any] | None = None, errors: str = "strict"
) -> str:
    """Standard input's text; UnreadableFileError when it is closed or unreadable.
    ``errors``: as :func:`decode`."""
    source = sys.stdin if stream is None else stream
    if source is None or getattr(source, "closed", False):
        raise UnreadableFileError("cannot read standard input: standard input is closed")
    binary = getattr(source, "buffer", None)
    try:
        data = read_bounded(binary if binary is not None else source, limit, STDIN_NAME)
    except (OSError, ValueError) as error:
        if isinstance(error, InputTooLargeError):
            raise
        raise UnreadableFileError(
            "cannot read standard input: standard input is closed"
            if isinstance(error, ValueError) or getattr(error, "errno", None) == 9
            else f"cannot read standard input: {getattr(error, 'strerror', None) or error}"
        ) from None
    return decode(data, STDIN_NAME, errors)


def stdin_lines(*, max_line_bytes: int, stream: IO[Any] | None = None) -> Iterator[tuple[int, str]]:
    """The numbered lines of standard input, streamed (:func:`split_lines`)."""
    source = sys.stdin if stream is None else stream
    if source is None or getattr(source, "closed", False):
        raise UnreadableFileError("cannot read standard input: standard input is closed")
    binary = getattr(source, "buffer", None)
    try:
        yield from split_lines(binary if binary is not None else source, STDIN_NAME, max_line_bytes)
    except ValueError as error:  # a stream closed under us (not one of ours: RamiError)
        if isinstance(error, UnreadableFileError):
            raise
        raise UnreadableFileError("cannot read standard input: standard input is closed") from None
