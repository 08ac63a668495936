#!/usr/bin/env python3
"""Measures the census on this machine and projects the cost of one Common Crawl crawl: the
figures of reports/census.md, written between its `census-bench` markers.

    scripts/census-bench.py ARCHIVE [--binary target/release/robotstxt-test] [--files 8]
                            [--report reports/census.md] [--json target/census-bench/figures.json]

ARCHIVE is the real-world corpus; scripts/census-warc.py builds WARC files from it (Common
Crawl's robotstxt layout) under target/census-bench/. Then, with the release binary, each run
timed for wall time and for CPU time (the process and every adapter process it waited for):

1. reading alone: `survey captures` on every file in turn (gunzip, WARC and HTTP framing, codings
   removed, SHA-256 of each body);
2. the census with the reference alone (`survey --warc ... --adapter reference`);
3. the census with every available adapter (`--adapter all`), each adapter process sampled every
   0.2 s for its CPU time and resident memory (its process tree, from /proc);
4. the same two censuses on Spark in local mode (survey/spark/census.py, pyspark from
   `--spark-venv`), a task per file as on a cluster. What a task with every adapter costs beyond
   its share of the one-process run (starting every adapter, reducing its examples) is the
   difference of the two differences, per file: Spark's own cost (its JVM, its Python workers,
   starting the binary) is the same in both and cancels out.

Figures per core are WARC megabytes per CPU second: what one core of a cluster does. The
projection multiplies them out to one crawl with the assumptions it names. Run it on a machine
as quiet as can be found; it records the load average before and after.
"""

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN = "<!-- census-bench: begin (written by scripts/census-bench.py) -->"
END = "<!-- census-bench: end -->"

# One crawl, from what Common Crawl published: CC-MAIN-2016-40's robots.txt files are 30,374
# WARC files, 0.24 TiB compressed (its announcement, 2016-10-07); in October 2016 "180 million
# fetched robots.txt for 50 million hosts" (S. Nagel, common-crawl list, 2016-11-29). Later
# crawls fetch fewer (58 to 92 million a year-end crawl, 2016-2023) for a like number of hosts.
CRAWL_BYTES = 0.24 * 2**40
CRAWL_FILES = 30374
CRAWL_HOSTS = 50e6
# Hosts whose robots.txt is a valid 2xx file: 56.0 % in the December 2023 crawl (41.6 million
# of 74.3 million; the robots.txt study of padas-lab-de, 2024).
OK_SHARE = 0.56
# Distinct bodies among them: not known before a census has run. The two ends: every 2xx host
# its own body, and one body for every four hosts (CMS defaults, hosting companies' files).
BODIES_PER_2XX_HOST = (1.0, 0.25)
EXECUTOR_CORES = 4


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("archive")
    p.add_argument("--binary", default=os.path.join(ROOT, "target/release/robotstxt-test"))
    p.add_argument("--files", type=int, default=8)
    p.add_argument("--bodies", type=int, default=0, help="only the first N bodies (0: all), for a trial")
    p.add_argument("--report", default=os.path.join(ROOT, "reports/census.md"))
    p.add_argument("--json", default=os.path.join(ROOT, "target/census-bench/figures.json"))
    p.add_argument("--spark-venv", default=os.path.join(ROOT, "target/spark-venv"),
                   help="a venv with pyspark (survey/spark/requirements.txt)")
    p.add_argument("--render-only", action="store_true",
                   help="measure nothing: write the section again from the figures in --json")
    args = p.parse_args()
    if args.render_only:
        with open(args.json) as f:
            section = markdown(json.load(f))
        write_section(args.report, section)
        print(section)
        return

    work = os.path.join(ROOT, "target/census-bench")
    warc_dir = os.path.join(work, "warc")
    if os.path.isdir(warc_dir):
        for old in os.listdir(warc_dir):
            os.remove(os.path.join(warc_dir, old))
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts/census-warc.py"), args.archive,
                    "--files", str(args.files), "--bodies", str(args.bodies), "--out", warc_dir],
                   check=True)
    warcs = sorted(os.path.join(warc_dir, f) for f in os.listdir(warc_dir) if f.endswith(".warc.gz"))
    size = sum(os.path.getsize(w) for w in warcs)
    figures = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
               "machine": machine(), "load_before": os.getloadavg(),
               "warc_files": len(warcs), "warc_bytes": size}

    # 1. Reading alone.
    read = timed([args.binary, "survey", "captures", "--warc", w, "--out", os.devnull] for w in warcs)
    figures["read"] = read

    # 2 and 3. The census.
    # The surveys written, to read after the run: target/census-bench/out/<run>/survey.md.
    out = os.path.join(work, "out")
    shutil.rmtree(out, ignore_errors=True)
    for key, adapters in (("reference", ["--adapter", "reference"]), ("all", ["--adapter", "all"])):
        command = [args.binary, "survey", "--warc", *warcs, *adapters, "--out", os.path.join(out, key)]
        run = timed([command], sample=(key == "all"))
        with open(os.path.join(out, key, "survey.json")) as f:
            survey = json.load(f)
        run["bodies"] = survey["files"]
        run["adapters"] = len(survey["adapters"])
        run["census"] = survey["census"]
        figures[key] = run
    # 4. On Spark in local mode, a task per file.
    listing = os.path.join(work, "warc.paths")
    with open(listing, "w") as f:
        f.write("\n".join(warcs) + "\n")
    venv = args.spark_venv
    os.environ["PYSPARK_PYTHON"] = os.path.join(venv, "bin/python")
    for key, adapter in (("spark_reference", "reference"), ("spark", "all")):
        spark = [os.path.join(venv, "bin/spark-submit"), "--master", "local[%d]" % os.cpu_count(),
                 "--conf", "spark.ui.enabled=false", os.path.join(ROOT, "survey/spark/census.py"),
                 listing, "--out", os.path.join(out, key), "--binary", args.binary,
                 "--adapter", adapter]
        figures[key] = timed([spark])
    figures["load_after"] = os.getloadavg()
    figures["adapter_disk"] = adapter_disk()

    os.makedirs(os.path.dirname(args.json), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump(figures, f, indent=2)
    section = markdown(figures)
    write_section(args.report, section)
    print(section)


def machine():
    cores = os.cpu_count()
    model = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        kib = int(f.readline().split()[1])
    return "%d cores (%s), %.1f GiB of memory" % (cores, model, kib / (1 << 20))


def timed(commands, sample=False):
    """Runs the commands one after another: wall seconds, CPU seconds of them and every process
    they waited for, peak memory the survey reports, and (with `sample`) each adapter's share."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    peak = 0.0
    adapters = {}
    sampled = 0.0
    for command in commands:
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, text=True)
        stop = threading.Event()
        seen = {}
        samplers = [threading.Thread(target=sample_tree, args=(process.pid, seen, stop))]
        if sample:
            samplers.append(threading.Thread(target=sample_adapters, args=(process.pid, adapters, stop)))
        for sampler in samplers:
            sampler.start()
        _, err = process.communicate()
        stop.set()
        for sampler in samplers:
            sampler.join()
        sampled += sum(seen.values())
        if process.returncode not in (0, 3):
            sys.exit("%s exited %d:\n%s" % (" ".join(command), process.returncode, err[-4000:]))
        for line in err.splitlines():
            m = re.match(r"peak memory \(VmHWM\): ([0-9.]+) MiB", line)
            if m:
                peak = max(peak, float(m.group(1)))
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    waited = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    # What the processes reported when waited for, or, where a process was not waited for (as
    # Spark's Python workers and their children are not), what sampling them saw.
    result = {"wall": wall, "cpu": max(waited, sampled), "cpu_waited": waited,
              "cpu_sampled": sampled, "peak_mib": peak}
    if sample:
        result["per_adapter"] = adapters
    return result


TICK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def sample_adapters(root, adapters, stop):
    """Every 0.2 s: each child of `root` (one per adapter) with its descendants, by the adapter's
    name; the last CPU time seen and the largest resident memory."""
    while not stop.wait(0.2):
        table = {}
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open("/proc/%s/stat" % pid) as f:
                    stat = f.read()
                fields = stat[stat.rindex(")") + 2:].split()
                ppid, cpu = int(fields[1]), int(fields[11]) + int(fields[12])
                rss = int(fields[21]) * PAGE
                with open("/proc/%s/cmdline" % pid, "rb") as f:
                    cmdline = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
            except (OSError, ValueError, IndexError):
                continue
            table[int(pid)] = (ppid, cpu, rss, cmdline)
        for pid, (ppid, _, _, cmdline) in table.items():
            if ppid != root:
                continue
            cpu = rss = 0
            for member in tree(pid, table):
                cpu += table[member][1]
                rss += table[member][2]
            if not cmdline.strip():
                continue  # exited, not yet reaped
            name = adapter_name(cmdline)
            if name is None:
                continue  # not an adapter: a check that a runtime is there
            seen = adapters.setdefault(name, {"cpu": 0.0, "rss_mib": 0.0})
            seen["cpu"] = max(seen["cpu"], cpu / TICK)
            seen["rss_mib"] = max(seen["rss_mib"], rss / (1 << 20))


def sample_tree(root, seen, stop):
    """Every 0.1 s: the CPU seconds of every process under `root` (itself included), the last
    value seen for each, by process and start time."""
    while True:
        table = {}
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open("/proc/%s/stat" % pid) as f:
                    stat = f.read()
                fields = stat[stat.rindex(")") + 2:].split()
                table[int(pid)] = (int(fields[1]), int(fields[11]) + int(fields[12]), fields[19])
            except (OSError, ValueError, IndexError):
                continue
        members, todo = set(), [root]
        children = {}
        for pid, (ppid, _, _) in table.items():
            children.setdefault(ppid, []).append(pid)
        while todo:
            pid = todo.pop()
            if pid in members or pid not in table:
                continue
            members.add(pid)
            todo.extend(children.get(pid, []))
        for pid in members:
            _, cpu, started = table[pid]
            seen[(pid, started)] = cpu / TICK
        if stop.wait(0.1):
            return


def tree(pid, table):
    members = [pid]
    for child, (ppid, _, _, _) in table.items():
        if ppid == pid:
            members += tree(child, table)
    return members


def adapter_name(cmdline):
    m = re.search(r"adapters/([A-Za-z0-9_.@-]+)/", cmdline) or re.search(r"adapter-([a-z0-9-]+)", cmdline)
    return m.group(1) if m else None


def adapter_disk():
    """Bytes the installed adapters take: their venvs, npm prefixes and builds."""
    total = 0
    for folder in ("target/adapters",):
        for base, _, files in os.walk(os.path.join(ROOT, folder)):
            for f in files:
                try:
                    total += os.lstat(os.path.join(base, f)).st_size
                except OSError:
                    pass
    release = os.path.join(ROOT, "target/release")
    for f in os.listdir(release):
        if f.startswith("adapter-") and not f.endswith(".d"):
            total += os.path.getsize(os.path.join(release, f))
    return total


def markdown(f):
    mb = f["warc_bytes"] / 1e6
    read, ref, every = f["read"], f["reference"], f["all"]
    census = every["census"]
    fetches = sum(census["fetches"].values())
    hosts = sum(census["hosts"].values())
    ok_hosts = census["hosts"]["success"]
    bodies = every["bodies"]
    per_fetch = f["warc_bytes"] / fetches

    def rate(run):
        return mb / run["cpu"]

    # The census reads every file twice (last captures, then the survey): the rest of its CPU
    # is the survey of its distinct bodies.
    read_cpu_per_byte = read["cpu"] / f["warc_bytes"]

    def per_body(run):
        return max(run["cpu"] - 2 * read["cpu"], 0.0) / bodies

    lines = [BEGIN, ""]
    lines.append("## Measured\n")
    lines.append(
        "Measured %s on %s (load average %.2f before, %.2f after), with the release binary, over "
        "%d WARC files (%.1f MB) that `scripts/census-warc.py` built from the real-world corpus: "
        "%d fetches of %d hosts (%d answering 2xx) serving %d distinct bodies, %.0f bytes of WARC "
        "per fetch (its request record included)."
        % (f["date"], f["machine"], f["load_before"][0], f["load_after"][0], f["warc_files"], mb,
           fetches, hosts, ok_hosts, bodies, per_fetch))
    lines.append("")
    spark, spark_ref = f["spark"], f["spark_reference"]
    lines.append("| run | wall s | CPU s | WARC MB/s per core | time per 1 GB WARC, one core | peak memory of the survey process |")
    lines.append("|---|--:|--:|--:|--:|--:|")
    for label, run in (("reading alone (`survey captures`, each file once)", read),
                       ("census in one process, reference alone", ref),
                       ("census in one process, all %d adapters" % every["adapters"], every),
                       ("census on Spark (local mode, a task per file), reference alone", spark_ref),
                       ("census on Spark (local mode, a task per file), all %d adapters" % every["adapters"], spark)):
        peak = "%.1f MiB" % run["peak_mib"] if run["peak_mib"] else "–"
        lines.append("| %s | %.1f | %.1f | %.2f | %s | %s |"
                     % (label, run["wall"], run["cpu"], rate(run), duration(1000 / rate(run)), peak))
    lines.append("")
    lines.append(
        "CPU time is that of the binary and of every adapter process it ran (as reported when "
        "they were waited for, or as sampled, whichever is more); MB/s per core is "
        "WARC megabytes (compressed, as stored) per CPU second. A census reads every file twice "
        "(each host's last capture first, then the bodies to survey), so of its CPU time %.1f s "
        "is reading; the rest is the survey of the distinct bodies: %.2f ms per body with the "
        "reference alone, %.1f ms per body with all %d adapters."
        % (2 * read["cpu"], 1000 * per_body(ref), 1000 * per_body(every), every["adapters"]))
    spark_own = spark_ref["cpu"] - ref["cpu"]
    per_task = max((spark["cpu"] - spark_ref["cpu"]) - (every["cpu"] - ref["cpu"]), 0.0) / f["warc_files"]
    lines.append("")
    lines.append(
        "On Spark, a task per file: with the reference alone, Spark's own work (its JVM, its "
        "Python workers, a binary per task) took %.1f CPU s more than one process, most of it "
        "starting once; with all adapters, each task took %.1f CPU s more again than its share of "
        "the one-process run, for starting every adapter and reducing its own examples. (Spark's "
        "Python workers, and what they run, are not waited for: their CPU time is sampled every "
        "0.1 s from /proc, a little short of the whole.)"
        % (spark_own, per_task))
    per_adapter = every.get("per_adapter", {})
    if per_adapter:
        # Processes that were no adapter (a check that a runtime is there) carry no name.
        ranked = sorted(((n, a) for n, a in per_adapter.items()
                         if re.fullmatch(r"[A-Za-z0-9_.@-]+", n)),
                        key=lambda kv: -kv[1]["cpu"])
        total = sum(a["cpu"] for _, a in ranked)
        lines.append("")
        lines.append("Each adapter's process tree in the census with all adapters (sampled every "
                     "0.2 s from /proc, so a little short of the whole), most CPU first:")
        lines.append("")
        lines.append("| adapter | CPU s | share of adapters' CPU | peak resident memory |")
        lines.append("|---|--:|--:|--:|")
        for name, a in ranked:
            lines.append("| %s | %.1f | %.1f%% | %.0f MiB |"
                         % (name, a["cpu"], 100 * a["cpu"] / total if total else 0, a["rss_mib"]))
        rss = sum(a["rss_mib"] for _, a in ranked)
        lines.append("")
        lines.append("All adapters together hold %.0f MiB resident at their peaks; installed, they "
                     "take %.0f MB of disk (venvs, npm prefixes, builds; the runtimes themselves "
                     "not counted)." % (rss, f["adapter_disk"] / 1e6))
    lines.append("")

    # Projection.
    lines.append("## Projected: one crawl's `robotstxt/` subset\n")
    lines.append(
        "Computed from the figures above, not measured. The crawl, from what Common Crawl "
        "published: %.2f TiB of robots.txt WARC files in %d files (CC-MAIN-2016-40), %.0f "
        "million hosts (October 2016), %.0f%% of them serving a valid robots.txt (December 2023, "
        "padas-lab-de's robots.txt study). How many distinct bodies those hosts serve is not "
        "known until a census has run, so two ends are given: every such host its own body, and "
        "one body for every four hosts. Core-hours are reading (every byte twice) + the survey "
        "of the distinct bodies + the cost of each task, each at the rate measured above."
        % (CRAWL_BYTES / 2**40, CRAWL_FILES, CRAWL_HOSTS / 1e6, 100 * OK_SHARE))
    lines.append("")
    lines.append("| adapters | distinct bodies | reading | survey | tasks | total core-hours | cores for one hour | executors of %d cores |" % EXECUTOR_CORES)
    lines.append("|---|--:|--:|--:|--:|--:|--:|--:|")
    reading_hours = 2 * CRAWL_BYTES * read_cpu_per_byte / 3600
    task_hours = {"reference": 0.0, "all": CRAWL_FILES * per_task / 3600}
    projection = []
    for key, label, run in (("reference", "reference alone", ref), ("all", "all %d" % every["adapters"], every)):
        for ratio in BODIES_PER_2XX_HOST:
            distinct = CRAWL_HOSTS * OK_SHARE * ratio
            survey_hours = distinct * per_body(run) / 3600
            total = reading_hours + survey_hours + task_hours[key]
            projection.append((label, distinct, survey_hours, task_hours[key], total))
            lines.append("| %s | %.1f M | %.1f | %.1f | %s | %.0f | %.0f | %.0f |"
                         % (label, distinct / 1e6, reading_hours, survey_hours,
                            "%.1f" % task_hours[key] if key == "all" else "–", total, total,
                            -(-total // EXECUTOR_CORES)))
    lines.append("")
    worst = max(projection, key=lambda p: p[4])
    slowest = max(per_adapter.items(), key=lambda kv: kv[1]["cpu"])[0] if per_adapter else "?"
    lines.append(
        "What bounds it: with all adapters, the survey of the distinct bodies is %.0f%% of the "
        "work at the upper end and the tasks' own cost %.0f%%; reading (gunzip, framing, "
        "SHA-256, every file twice) is the rest, and with the reference alone it is nearly all "
        "of it: decompression bounds a census with few adapters, the adapters one with many. "
        "Among the adapters the slowest sets the pace (table above: %s first): a task runs its "
        "adapters side by side, each in its own process, and the last body of a task waits for "
        "the slowest. The tasks' own cost falls with larger files: Common Crawl's are about %.0f MB "
        "(%.0f GB in %d files), those measured here %.1f MB. Memory does not bound it: the survey "
        "process holds little (above: its peak), and a task's adapters hold their resident memory "
        "(above) once per concurrent task. Not counted: Spark's own start, and the shuffle."
        % (100 * worst[2] / worst[4], 100 * worst[3] / worst[4], slowest,
           CRAWL_BYTES / CRAWL_FILES / 1e6, CRAWL_BYTES / 1e9, CRAWL_FILES, mb / f["warc_files"]))
    lines.append("")
    lines.append(END)
    return "\n".join(lines)


def duration(seconds):
    if seconds < 120:
        return "%.0f s" % seconds
    if seconds < 7200:
        return "%.1f min" % (seconds / 60)
    return "%.1f h" % (seconds / 3600)


def write_section(path, section):
    text = open(path).read() if os.path.exists(path) else ""
    if BEGIN in text and END in text:
        text = text[: text.index(BEGIN)] + section + text[text.index(END) + len(END):]
    else:
        text = text.rstrip() + "\n\n" + section + "\n"
    with open(path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
