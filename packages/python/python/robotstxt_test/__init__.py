"""robotstxt-test for Python: the `robotstxt-test` binary, and the corpus in pytest.

A parser's test module asks for one pytest test per case of the corpus:

    import robotstxt_test

    def can_fetch(robots: bytes, agent: str, product_token: str, url: str) -> bool:
        ...

    test_conformance = robotstxt_test.conformance(can_fetch, name="my-parser", profile="rfc9309")

Scoring stays in the binary: the pytest plugin (robotstxt_test.pytest_plugin) runs
`robotstxt-test run --adapter-cmd ...` with an adapter process (robotstxt_test.adapter) that calls
the function, and maps the binary's JSON results to the tests.
"""

import inspect
import os
import shutil
import sys
import sysconfig
from dataclasses import dataclass
from typing import Any, Dict, Optional

__all__ = ["binary", "conformance", "Conformance", "PROFILES", "UPDATE_VARIABLE"]

# The texts a parser can claim, as the adapter protocol's handshake names them.
PROFILES = ("norobots-1994", "rfc9309", "other")

# Set (to anything but empty or 0) to write the expectation file from today's parser, as the
# Rust recipe (suite/examples/conformance.rs) reads the same variable.
UPDATE_VARIABLE = "ROBOTSTXT_TEST_UPDATE_EXPECTATIONS"


def binary() -> str:
    """The path of the `robotstxt-test` binary this package installed.

    `ROBOTSTXT_TEST_BINARY` names another one. The wheel puts the binary in the scripts folder of
    the environment it is installed in, which is not always on PATH (a venv used without
    activating it), so that folder is looked in first.
    """
    chosen = os.environ.get("ROBOTSTXT_TEST_BINARY")
    if chosen:
        return chosen
    exe = "robotstxt-test"
    scripts = [sysconfig.get_path("scripts")]
    try:
        scripts.append(sysconfig.get_path("scripts", scheme="posix_user"))  # pip install --user
    except KeyError:
        pass
    for folder in scripts:
        candidate = os.path.join(folder, exe)
        if os.path.isfile(candidate):
            return candidate
    found = shutil.which(exe)
    if found:
        return found
    raise FileNotFoundError(
        f"robotstxt-test: no {exe} in {scripts[0]} nor on PATH; reinstall the package "
        "(pip install robotstxt-test) or set ROBOTSTXT_TEST_BINARY"
    )


@dataclass(frozen=True)
class Conformance:
    """What a conformance test runs: the parser's callable and its handshake."""

    # Where the adapter process finds the callable: a module (by name, and by file when it
    # has one) and the attribute path inside it.
    module: str
    file: Optional[str]
    qualname: str
    handshake: Dict[str, str]
    expectations: str
    timeout: Optional[float] = None
    strict: bool = False

    @property
    def name(self) -> str:
        return self.handshake["name"]


def conformance(
    parser: Any,
    *,
    name: str,
    profile: str,
    version: str = "unknown",
    parser_name: Optional[str] = None,
    homepage: str = "",
    expectations: str = "expectations.yaml",
    timeout: Optional[float] = None,
    strict: bool = False,
):
    """A pytest test function running the corpus against `parser`, one test per case.

    `parser` is either a function `(robots: bytes, agent: str, product_token: str, url: str) ->
    bool` (True: allowed), or a class built once per robots.txt body, `Parser(robots: bytes)`,
    whose method `is_allowed(agent, product_token, url) -> bool` answers each query about it
    (parse once, ask many times). It may also be given as a string, "package.module:attribute".
    An exception from the class's constructor is the parser refusing the body; one from the
    function or from `is_allowed` refuses that query. It is called in a separate process that
    imports its module, so it must be defined at the top level of a module (a test module will
    do).

    `name` names the parser in the expectation file; `profile` is the text it claims to
    implement (`norobots-1994`, `rfc9309` or `other`), which decides how each check is scored.
    `expectations` (relative to the test module's folder) lists the checks it is known not to
    pass: a case failing only as listed is an expected failure (xfail); any other failure fails.
    Write it with ROBOTSTXT_TEST_UPDATE_EXPECTATIONS=1 pytest. `strict` also fails a case
    whose listed check now passes. `timeout` is the binary's per-answer limit, in seconds.

    Assign the result to a name starting with `test_` in a test module.
    """
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {', '.join(PROFILES)}, not {profile!r}")
    module, file, qualname = _locate(parser)
    handshake = {
        "name": name,
        "parser": parser_name or name,
        "version": str(version),
        "language": "Python",
        "homepage": homepage,
        "profile": profile,
    }
    spec = Conformance(module, file, qualname, handshake, expectations, timeout, strict)

    def test_conformance(robotstxt_case, request):
        from .pytest_plugin import judge_case

        judge_case(request, spec, robotstxt_case)

    test_conformance._robotstxt_conformance = spec
    return test_conformance


def _locate(parser: Any):
    """(module name, module file or None, attribute path) of a callable, for the adapter."""
    if isinstance(parser, str):
        module, sep, qualname = parser.partition(":")
        if not sep or not module or not qualname:
            raise ValueError(f"expected 'package.module:attribute', not {parser!r}")
        return module, None, qualname
    if not callable(parser):
        raise TypeError(f"parser must be a function or a class, not {type(parser).__name__}")
    qualname = getattr(parser, "__qualname__", "")
    module = sys.modules.get(getattr(parser, "__module__", None) or "")
    if not qualname or "<locals>" in qualname or module is None:
        raise ValueError(
            "the parser must be defined at the top level of a module: the adapter process "
            f"imports it from there ({getattr(parser, '__qualname__', parser)!r} is not)"
        )
    file = getattr(module, "__file__", None) or inspect.getsourcefile(parser)
    return module.__name__, file and os.path.abspath(file), qualname
