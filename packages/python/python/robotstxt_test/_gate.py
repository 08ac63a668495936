"""Runs the corpus through the binary and reads what it says, case by case.

Nothing here scores a check: `robotstxt-test run --format json` does, against the expectation
file, and this module only groups its verdicts by case and finds the block the binary prints
for each regression.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from . import binary

NOT_FAILURES = ("pass", "unspecified")
# A regression's block, as `run --expectations` prints it: a headline, then indented lines.
HEADLINE = re.compile(r"^(REGRESSION|UNSTABLE) ")


class RunError(Exception):
    """The binary could not judge the run: bad input, or an adapter that would not run."""


def case_ids(cwd: str) -> List[str]:
    """Every case of the corpus the binary uses from `cwd`, in corpus order (from a run of the
    reference, which needs no adapter)."""
    proc = _run([binary(), "run", "--format", "json"], cwd)
    if proc.returncode != 0:
        raise RunError(_said(proc))
    seen: Dict[str, None] = {}
    for row in json.loads(proc.stdout)["results"]:
        seen.setdefault(row["case"], None)
    return list(seen)


@dataclass
class Verdict:
    """What one case came to: pass, fail (with the blocks), xfail (listed) or xpass."""

    kind: str
    message: str = ""


@dataclass
class Judged:
    """One gated run of the corpus."""

    document: dict
    file: str
    blocks: Dict[str, str] = field(default_factory=dict)
    by_case: Dict[str, List[dict]] = field(default_factory=dict)

    def __post_init__(self):
        for row in self.document["results"]:
            self.by_case.setdefault(row["case"], []).append(row)

    def rows(self, case: str) -> List[dict]:
        return self.by_case.get(case, [])

    def _ids(self, key: str, case: str) -> List[str]:
        return [i for i in self.document["gate"][key] if i.rpartition("#")[0] == case]

    def verdict(self, case: str) -> Verdict:
        broken = self._ids("regression_ids", case) + self._ids("unstable_ids", case)
        if broken:
            shown = [self.blocks.get(i) or self._fallback(i) for i in broken]
            return Verdict("fail", "\n".join(shown))
        listed = [r for r in self.rows(case) if r["outcome"] not in NOT_FAILURES]
        if listed:
            what = "; ".join(
                f"#{r['check']} {r['outcome']}" + (f" ({r['cause']})" if r.get("cause") else "")
                for r in listed
            )
            return Verdict("xfail", f"listed in {os.path.basename(self.file)}: {what}")
        passing = self._ids("unexpected_pass_ids", case)
        if passing:
            return Verdict("xpass", f"listed in {self.file} but passes now: {', '.join(passing)}")
        return Verdict("pass")

    def _fallback(self, check_id: str) -> str:
        case, _, check = check_id.rpartition("#")
        row = next(r for r in self.rows(case) if str(r["check"]) == check)
        return (
            f"REGRESSION {check_id} — {row['outcome']}: agent `{row['agent']}`, path "
            f"`{row['path']}`, expected {row['expected']}, actual {row['actual']}"
        )

    def summary(self) -> str:
        """The binary's own summary line for the run, with the gate's counts."""
        d, s, g = self.document, self.document["summary"], self.document["gate"]
        h = d["handshake"]
        return (
            f"{h['name']} {h['version']} ({d['profile']}): {s['passed']} passed, "
            f"{s['failed']} failed, {s['unspecified']} unspecified, {s['errored']} errored\n"
            f"  against {self.file}: {g['as_listed']} non-passes as listed, "
            f"{g['regressions']} regressions, {g['unstable']} unstable, "
            f"{g['unexpected_passes']} unexpected passes"
        )


def gate(config: dict, expectations: str, update: bool, cwd: str, timeout=None) -> Judged:
    """Runs the corpus against the adapter process `config` describes, gated on `expectations`
    (written first when `update`). A missing file lists nothing: every non-pass is a failure."""
    with tempfile.TemporaryDirectory(prefix="robotstxt-test-") as tmp:
        config_file = os.path.join(tmp, "adapter.json")
        with open(config_file, "w", encoding="utf-8") as f:
            json.dump(config, f)
        adapter = shlex.join([sys.executable, "-m", "robotstxt_test.adapter", config_file])
        args = [binary(), "run", "--adapter-cmd", adapter]
        if timeout is not None:
            args += ["--timeout", str(timeout)]
        file = expectations
        if update:
            args += ["--update-expectations", expectations]
        else:
            if not os.path.isfile(expectations):
                file = os.path.join(tmp, "none.yaml")
                with open(file, "w", encoding="utf-8") as f:
                    f.write(f"adapter: {json.dumps(config['hello']['name'])}\nexpectations: []\n")
            args += ["--expectations", file]
        proc = _run(args + ["--format", "json"], cwd)
        # 0 as expected, 1 a regression, 4 an unstable answer; anything else is no verdict.
        if proc.returncode not in (0, 1, 4):
            raise RunError(_said(proc, args, cwd))
        document = json.loads(proc.stdout)
        if update:
            retitle(
                expectations,
                [
                    "Written by: ROBOTSTXT_TEST_UPDATE_EXPECTATIONS=1 pytest",
                    "Gate: pytest (a listed check is an expected failure, xfail; strict=True "
                    "fails on unexpected passes too).",
                ],
            )
        judged = Judged(document, expectations)
        gate = document["gate"]
        if gate["regression_ids"] or gate["unstable_ids"]:
            # The blocks `run` prints, from the same run again as text (update mode never
            # gets here: it judges against the file it has just written).
            text = _run(args, cwd).stdout
            judged.blocks = blocks_of(text)
        return judged


def retitle(file: str, lines: List[str]) -> None:
    """The header of a file the binary wrote names the temporary adapter command it was run
    with; say instead how this file is written and used."""
    with open(file, encoding="utf-8") as f:
        text = f.read().split("\n")
    starts = [i for i, line in enumerate(text) if line.startswith("# Written by: ")]
    ends = [i for i, line in enumerate(text) if line.startswith("# Every entry was generated")]
    if not starts or not ends or ends[0] < starts[0]:
        return
    text[starts[0] : ends[0]] = [f"# {line}" for line in lines]
    partial = file + ".partial"
    with open(partial, "w", encoding="utf-8") as f:
        f.write("\n".join(text))
    os.replace(partial, file)


def blocks_of(text: str) -> Dict[str, str]:
    """Each regression's (and unstable answer's) block in `run`'s text, by check id."""
    blocks: Dict[str, str] = {}
    current: Optional[List[str]] = None
    for line in text.splitlines():
        if HEADLINE.match(line):
            current = [line]
            match = re.search(r"(\S+#\d+) — ", line)
            if match:
                blocks[match.group(1)] = current
        elif current is not None and line.startswith(" "):
            current.append(line)
        else:
            current = None
    return {k: "\n".join(v) for k, v in blocks.items()}


def _run(args: List[str], cwd: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)


def _said(proc: subprocess.CompletedProcess, args=None, cwd=None) -> str:
    """Why the binary gave no verdict, in its own words. For an adapter that would not run (3),
    that is its text output, which holds the adapter's stderr (a traceback), not the JSON."""
    said = proc.stderr
    if proc.returncode == 3 and args:
        again = _run(args, cwd)
        said = again.stdout + again.stderr
    lines = [line for line in said.splitlines() if not line.startswith("corpus: ")]
    return f"robotstxt-test exited {proc.returncode}:\n" + "\n".join(lines).strip()
