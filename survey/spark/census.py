#!/usr/bin/env python3
"""A census of robots.txt WARC files on Apache Spark, in the style of Common Crawl's cc-pyspark.

    spark-submit survey/spark/census.py INPUT --out DIR --binary PATH [--adapter NAME]...

INPUT is a text file listing WARC files, one path or URL a line (local paths, file://, http://,
https://, or s3:// with boto3 installed), like cc-pyspark's input lists (warc.paths). Every file
is one task, twice:

1. captures: the task fetches its file and runs `robotstxt-test survey captures`, one line per
   response (host, time, file, offset, status, body digest);
2. the shuffle by host keeps each host's last capture; a second shuffle, by body digest, counts
   the hosts serving each body and picks the capture that stands for it; the result is one plan
   per file;
3. survey: the task fetches its file again and runs `robotstxt-test survey --warc FILE --plan
   PLAN` with the adapters it was given, and returns that part's survey.json.

The driver writes the parts and merges them with `robotstxt-test survey merge` (the same code as
for any shards) into DIR/survey.json and DIR/survey.md. A task that fails is retried by Spark
(spark.task.maxFailures); on its last attempt a file that still cannot be fetched or read is
reported as unreadable instead of failing the job: the report names it, and the job exits 2.

The rules of the shuffle are those of `survey --warc` in one process (survey/src/hosts.rs):
a host's last capture has the greatest (time, file name, offset, index); the capture standing for
a body has the least (file name, offset, index) among the last captures serving it. So the
census here and one process over the same files give the same survey.json.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request

PLAN_FORMAT = "robotstxt-test census plan 1"
# Keys that no host has: what a task says of itself besides its captures.
UNREADABLE = "\0unreadable"
RETRIED = "\0retried"


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("input", help="a text file listing WARC paths or URLs, one a line")
    p.add_argument("--out", required=True, help="where survey.json and survey.md go")
    p.add_argument("--binary", required=True,
                   help="the robotstxt-test binary, at this path on every executor")
    p.add_argument("--adapter", action="append", default=[],
                   help="an adapter to survey with (repeatable; default: all available)")
    p.add_argument("--binary-arg", action="append", default=[],
                   help="another argument for every survey run, e.g. --cache-dir=/opt/rt-cache")
    p.add_argument("--cwd", default=os.getcwd(),
                   help="the folder the binary runs in (default: the driver's: inside a checkout "
                        "the binary uses its adapters)")
    p.add_argument("--name", help="the census's name (default: the file's name, or 'N WARC files')")
    p.add_argument("--hosts", choices=["named", "hidden"], default="named",
                   help="name the sites quoted, or hide them (survey merge --hosts)")
    p.add_argument("--work", help="a scratch folder on each executor (default: the system's)")
    p.add_argument("--fail-first-attempt", action="append", default=[], metavar="WARC_NAME",
                   help="for tests: the first attempt of each task on this file fails")
    return p.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    # Imported here so that --help works without Spark.
    from pyspark import SparkConf, SparkContext, StorageLevel

    with open(args.input) as listing:
        paths = [line.strip() for line in listing if line.strip() and not line.startswith("#")]
    if not paths:
        sys.exit("%s: no WARC path in it" % args.input)
    names = [warc_name(p) for p in paths]
    if len(set(names)) != len(names):
        sys.exit("two WARC files have the same name: a census tells files apart by name")
    name = args.name or (names[0] if len(paths) == 1 else "%d WARC files" % len(paths))

    conf = SparkConf().setAppName("robotstxt-census")
    sc = SparkContext.getOrCreate(conf)
    settings = {
        "binary": os.path.abspath(args.binary) if os.path.exists(args.binary) else args.binary,
        "adapters": args.adapter,
        "binary_args": args.binary_arg,
        "cwd": args.cwd,
        "work": args.work,
        "fail_first": set(args.fail_first_attempt),
        "max_failures": max_failures(sc),
        "name": name,
        "parts": len(paths),
    }
    files = list(enumerate(paths, start=1))

    # 1. One task per file: its captures, keyed by host.
    # Kept (spilling to disk) so that the two uses below read every file once.
    captures = (
        sc.parallelize(files, len(files))
        .flatMap(lambda f: captures_task(f, settings))
        .persist(StorageLevel.MEMORY_AND_DISK)
    )
    notes = captures.filter(lambda kv: kv[0] in (UNREADABLE, RETRIED)).collect()
    unreadable = dict(v for k, v in notes if k == UNREADABLE)
    retried = [{"warc": w, "stage": "captures", "attempts": n} for k, (w, n) in notes if k == RETRIED]
    good = captures.filter(lambda kv: kv[0] not in (UNREADABLE, RETRIED))

    # 2. The shuffle by host: each host's last capture. Then by body: its hosts and the capture
    # standing for it.
    last = good.reduceByKey(later)
    bodies = (
        last.filter(lambda kv: 200 <= kv[1][4] < 300)
        .map(lambda kv: (kv[1][5], (1, place(kv[1]))))
        .reduceByKey(lambda a, b: (a[0] + b[0], min(a[1], b[1])))
    )
    standing = bodies.map(lambda kv: (kv[1][1], kv[1][0]))
    entries = (
        last.map(lambda kv: (place(kv[1]), kv[1][4]))
        .leftOuterJoin(standing)
        .map(lambda kv: (kv[0][0], (kv[0][1], kv[0][2], kv[1][0], kv[1][1])))
    )
    index = {n: k for k, n in enumerate(names)}
    plans = (
        sc.parallelize([(n, (k, p)) for (k, p), n in zip(files, names)], len(files))
        .leftOuterJoin(entries.groupByKey())
        .partitionBy(len(files), lambda n: index[n])
    )

    # 3. One task per file again: its part of the survey.
    parts = plans.mapPartitions(
        lambda rows: survey_task(rows, unreadable, settings), preservesPartitioning=True
    ).collect()
    sc.stop()

    os.makedirs(args.out, exist_ok=True)
    retried += [{"warc": names[k - 1], "stage": "survey", "attempts": n}
                for k, _, n in parts if n > 1]
    with tempfile.TemporaryDirectory() as scratch:
        part_files = []
        for k, text, _ in sorted(parts):
            path = os.path.join(scratch, "part-%05d.json" % k)
            with open(path, "w") as f:
                f.write(text)
            part_files.append(path)
        merged = subprocess.run(
            [settings["binary"], "survey", "merge", *part_files, "--out=" + args.out,
             "--hosts=" + args.hosts],
            cwd=args.cwd,
        )
    # What the job did beside the survey: which tasks Spark retried, which files could not be
    # read (the report names them too). Written to a file as well as said: spark-submit may
    # drop a driver's last lines.
    job = {
        "name": name,
        "warc_files": len(paths),
        "retried": sorted(retried, key=lambda r: (r["warc"], r["stage"])),
        "unreadable": [{"warc": w, "error": why, "attempts": n}
                       for w, (why, n) in sorted(unreadable.items())],
        "merge_exit": merged.returncode,
    }
    with open(os.path.join(args.out, "census-job.json"), "w") as f:
        json.dump(job, f, indent=2)
        f.write("\n")
    for r in job["retried"]:
        print("%s: %s task retried, done at attempt %d" % (r["warc"], r["stage"], r["attempts"]),
              file=sys.stderr)
    for u in job["unreadable"]:
        print("%s: could not be read after %d attempts: %s" % (u["warc"], u["attempts"], u["error"]),
              file=sys.stderr)
    sys.stderr.flush()
    if merged.returncode not in (0, 2):
        sys.exit("survey merge failed (exit %d)" % merged.returncode)
    return 2 if unreadable or merged.returncode == 2 else 0


def max_failures(sc):
    """spark.task.maxFailures, or the F of a local[N,F] master (local mode retries only so)."""
    master = sc.master
    if master.startswith("local[") and "," in master:
        return int(master[len("local["):-1].split(",")[1])
    if master.startswith("local"):
        return 1
    return int(sc.getConf().get("spark.task.maxFailures", "4"))


def warc_name(path):
    return os.path.basename(urllib.parse.urlparse(path).path if "://" in path else path)


def place(capture):
    """(file name, offset, index): where a capture is, and the order of ties."""
    return (capture[1], capture[2], capture[3])


def later(a, b):
    """The later capture of two of one host: by time, then file name, offset, index."""
    return a if (a[0], a[1], a[2], a[3]) >= (b[0], b[1], b[2], b[3]) else b


def attempt():
    from pyspark import TaskContext

    context = TaskContext.get()
    return context.attemptNumber() if context else 0


def fetch(path, work, settings):
    """A local path for `path`, downloading it into `work` when it is remote."""
    name = warc_name(path)
    if name in settings["fail_first"] and attempt() == 0:
        raise IOError("%s: first attempt failed on purpose (--fail-first-attempt)" % name)
    url = urllib.parse.urlparse(path)
    if url.scheme in ("", "file"):
        local = url.path if url.scheme == "file" else path
        if not os.path.isfile(local):
            raise IOError("%s: no such file" % local)
        return local
    local = os.path.join(work, name)
    if url.scheme in ("http", "https"):
        with urllib.request.urlopen(path, timeout=120) as answer, open(local, "wb") as out:
            shutil.copyfileobj(answer, out, 1 << 20)
    elif url.scheme == "s3":
        import boto3  # as cc-pyspark does; untested here

        boto3.client("s3").download_file(url.netloc, url.path.lstrip("/"), local)
    else:
        raise IOError("%s: no way to fetch %s:// files" % (path, url.scheme))
    return local


def run_binary(argv, settings):
    command = [settings["binary"], *argv]
    done = subprocess.run(command, cwd=settings["cwd"], capture_output=True)
    return done.returncode, done.stdout, done.stderr.decode("utf-8", "replace")


def last_attempt(settings):
    return attempt() + 1 >= settings["max_failures"]


def captures_task(file, settings):
    k, path = file
    work = tempfile.mkdtemp(prefix="census-", dir=settings["work"])
    try:
        local = fetch(path, work, settings)
        # `--warc=PATH`: a path starting with `-` is a value, not a flag.
        code, out, err = run_binary(["survey", "captures", "--warc=" + local], settings)
        if code != 0:
            raise IOError("%s: survey captures exited %d: %s" % (path, code, err.strip()[-2000:]))
        result = []
        if attempt() > 0:
            result.append((RETRIED, (warc_name(path), attempt() + 1)))
        for line in out.splitlines():
            c = json.loads(line)
            # (time, file, offset, index, status, digest): tuples shuffle small and compare fast.
            result.append((c["host"], (c["time"], c["warc"], c["offset"], c.get("index", 0),
                                       c["status"], c.get("digest"))))
        return result
    except Exception as e:
        if not last_attempt(settings):
            raise  # Spark retries the task.
        return [(UNREADABLE, (warc_name(path), (str(e), attempt() + 1)))]
    finally:
        shutil.rmtree(work, ignore_errors=True)


def survey_task(rows, unreadable, settings):
    for warc, ((k, path), entries) in rows:
        text = survey_part(k, path, warc, entries or [], unreadable.get(warc), settings)
        yield k, text, attempt() + 1


def survey_part(k, path, warc, entries, unreadable, settings):
    work = tempfile.mkdtemp(prefix="census-", dir=settings["work"])
    try:
        reason = unreadable[0] if unreadable else None
        local = None
        if reason is None:
            try:
                local = fetch(path, work, settings)
            except Exception as e:
                if not last_attempt(settings):
                    raise
                reason = "%s (after %d attempts)" % (e, attempt() + 1)
        plan = os.path.join(work, "plan.jsonl")
        with open(plan, "w") as f:
            header = {"plan": PLAN_FORMAT, "name": settings["name"], "warc": warc,
                      "part": k, "parts": settings["parts"]}
            if reason is not None:
                header["unreadable"] = reason
            f.write(json.dumps(header) + "\n")
            for offset, index, status, hosts in sorted(entries):
                entry = {"offset": offset, "status": status}
                if index:
                    entry["index"] = index
                if hosts is not None:
                    entry["hosts"] = hosts
                f.write(json.dumps(entry) + "\n")
        out = os.path.join(work, "out")
        argv = ["survey", "--warc=" + (local or warc), "--plan=" + plan, "--out=" + out]
        for adapter in settings["adapters"]:
            argv += ["--adapter", adapter]
        argv += settings["binary_args"]
        code, _, err = run_binary(argv, settings)
        written = os.path.join(out, "survey.json")
        # 2: the part names an unreadable file; 3: an adapter broke down, which the part counts.
        if code not in (0, 2, 3) or not os.path.exists(written):
            raise RuntimeError("%s: survey exited %d: %s" % (path, code, err.strip()[-2000:]))
        with open(written) as f:
            return f.read()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
