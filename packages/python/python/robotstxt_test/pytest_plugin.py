"""The pytest plugin: one test per case of the corpus for each robotstxt_test.conformance(...).

Registered through the `pytest11` entry point. A test made by `conformance()` is parametrized
with the corpus's case ids at collection (`test_conformance[line-endings/cr-only]`, so `-k`
picks cases). The corpus runs once per session, at the first such test that runs, through the
binary; each test then reads its case's verdict from that run.
"""
import os
import sys

import pytest

from . import UPDATE_VARIABLE, Conformance, _gate

_STATE = pytest.StashKey["_State"]()


class _State:
    """The session's case ids and gated runs, each made once."""

    def __init__(self, config):
        self.config = config
        self.cwd = str(config.rootpath)
        self._ids = None
        self.runs = {}  # (id of the spec, expectation file) -> Judged or RunError

    def ids(self):
        if self._ids is None:
            self._ids = _gate.case_ids(self.cwd)
        return self._ids

    def update(self) -> bool:
        value = os.environ.get(UPDATE_VARIABLE, "")
        return self.config.getoption("robotstxt_update_expectations") or value not in ("", "0")

    def judged(self, spec: Conformance, expectations: str):
        # A spec lives as long as its test function, so its id stays its own for the session.
        key = (id(spec), expectations)
        if key not in self.runs:
            config = {
                "hello": spec.handshake,
                "module": spec.module,
                "file": spec.file,
                "qualname": spec.qualname,
                "sys_path": [os.path.abspath(p) for p in sys.path],
            }
            try:
                self.runs[key] = _gate.gate(
                    config, expectations, self.update(), self.cwd, spec.timeout
                )
            except _gate.RunError as e:
                self.runs[key] = e
        return self.runs[key]


def pytest_addoption(parser):
    group = parser.getgroup("robotstxt-test")
    group.addoption(
        "--robotstxt-update-expectations",
        action="store_true",
        default=False,
        help="write each conformance test's expectation file from the parser as it is today "
        f"(as {UPDATE_VARIABLE}=1 does)",
    )


def pytest_configure(config):
    config.stash[_STATE] = _State(config)


def pytest_generate_tests(metafunc):
    spec = getattr(metafunc.function, "_robotstxt_conformance", None)
    if spec is None:
        return
    ids = metafunc.config.stash[_STATE].ids()
    metafunc.parametrize("robotstxt_case", ids, ids=ids)


def _expectations_of(request, spec: Conformance) -> str:
    """The expectation file, relative to the test module's folder."""
    return os.path.join(os.path.dirname(str(request.node.path)), spec.expectations)


def judge_case(request, spec: Conformance, case: str):
    """The body of every conformance test: its case's verdict from the session's run."""
    state = request.config.stash[_STATE]
    expectations = _expectations_of(request, spec)
    judged = state.judged(spec, expectations)
    if isinstance(judged, _gate.RunError):
        pytest.fail(str(judged), pytrace=False)
    verdict = judged.verdict(case)
    if verdict.kind == "fail":
        hint = ""
        if not os.path.isfile(expectations):
            hint = (
                f"\n(no {expectations}: every non-pass fails; write it from today's parser "
                f"with {UPDATE_VARIABLE}=1 pytest)"
            )
        pytest.fail(verdict.message + hint, pytrace=False)
    if verdict.kind == "xfail":
        pytest.xfail(verdict.message)
    if verdict.kind == "xpass":
        # Shown as XPASS, or failed under strict: write the file again to drop the entry.
        request.node.add_marker(pytest.mark.xfail(reason=verdict.message, strict=spec.strict))


def pytest_terminal_summary(terminalreporter):
    state = terminalreporter.config.stash.get(_STATE, None)
    if state is None or not state.runs:
        return
    terminalreporter.section("robotstxt-test")
    for judged in state.runs.values():
        if isinstance(judged, _gate.Judged):
            terminalreporter.write_line(judged.summary())
        else:
            # The first lines (the exit status and what the binary said); each test has it all.
            terminalreporter.write_line("\n".join(str(judged).splitlines()[:2]))
