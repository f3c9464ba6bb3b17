"""Reading a file a user named, as UTF-8 text, with errors that name the file."""

from __future__ import annotations

from pathlib import Path

from rami.errors import UnreadableFileError


def read_text_file(path: Path | str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UnreadableFileError(f"cannot read {str(path)!r}: no such file") from None
    except IsADirectoryError:
        raise UnreadableFileError(f"cannot read {str(path)!r}: it is a directory") from None
    except UnicodeDecodeError:
        raise UnreadableFileError(f"cannot read {str(path)!r}: not UTF-8 text") from None
    except OSError as error:
        raise UnreadableFileError(
            f"cannot read {str(path)!r}: {error.strerror or error}"
        ) from None
