"""The sentences of the service's HTTP-level refusals (400, 408, 413, 431), said in the same
words by a worker (:mod:`rami.service.protocol`, :mod:`rami.service.limits`) and by the front
(:mod:`rami.service.front_http`)."""

from __future__ import annotations

MALFORMED = "invalid HTTP request: malformed request line, header or body framing"
FRAMED_TWICE = (
    "ambiguous request framing: both Content-Length and Transfer-Encoding are "
    "given (send one of them)"
)


def head_too_large(limit: int) -> str:
    return f"request headers too large: the limit is {limit} bytes"


def body_too_large(limit: int) -> str:
    return f"request body too large: the limit is {limit} bytes"


def head_timeout(seconds: float) -> str:
    return f"request headers not received within {seconds:g} s"


def body_timeout(seconds: float) -> str:
    return (
        f"request body not received within {seconds:g} s (a body shorter than its Content-Length?)"
    )
