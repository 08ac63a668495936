"""The adapter process the pytest plugin hands to `robotstxt-test run --adapter-cmd`.

It speaks the adapter protocol (adapters/PROTOCOL.md in the robotstxt-test repository) on
stdin/stdout and answers each query by calling the parser under test in-process. Usage:

    python -m robotstxt_test.adapter CONFIG.json

CONFIG.json, written by the plugin, holds the handshake, the parent's sys.path, and where the
callable lives (module name, its file, the attribute path).
"""
import base64
import importlib
import importlib.util
import inspect
import json
import sys


def load(config):
    """The function or class under test, imported as the test session imported it."""
    for entry in reversed(config["sys_path"]):
        if entry not in sys.path:
            sys.path.insert(0, entry)
    name, file = config["module"], config.get("file")
    if file:
        # By file, under the module's own name: a test module is often not importable by name
        # (pytest's rootdir-relative imports), and its own imports then resolve as they did.
        spec = importlib.util.spec_from_file_location(name, file)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    else:
        module = importlib.import_module(name)
    target = module
    for part in config["qualname"].split("."):
        target = getattr(target, part)
    return target


def refusal(error):
    return f"{type(error).__name__}: {error}"


def answer_check(target, msg):
    """One check: every query about one body, in order."""
    body = base64.b64decode(msg["robots_b64"], validate=True)
    if inspect.isclass(target):
        try:
            parsed = target(body)
        except Exception as e:  # the parser refusing the body
            return {"id": msg["id"], "error": refusal(e)}

        def ask(q):
            return parsed.is_allowed(q["agent"], q["product_token"], q["url"])

    else:

        def ask(q):
            return target(body, q["agent"], q["product_token"], q["url"])

    results = []
    for q in msg["queries"]:
        try:
            allowed = ask(q)
        except Exception as e:  # the parser refusing this query
            results.append({"error": refusal(e)})
            continue
        if not isinstance(allowed, bool):
            results.append({"error": f"answered {allowed!r}, not True or False"})
            continue
        results.append("allowed" if allowed else "disallowed")
    return {"id": msg["id"], "results": results}


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        config = json.load(f)
    out = sys.stdout
    sys.stdout = sys.stderr  # stdout carries protocol lines only; a stray print goes to stderr
    target = load(config)
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            if msg.get("protocol") != 1:
                error = f"unsupported protocol {msg.get('protocol')}"
                print(json.dumps({"error": error}), file=out, flush=True)
                return
            answer = config["hello"]
        elif kind == "check":
            answer = answer_check(target, msg)
        elif kind == "stop":
            return
        else:
            raise ValueError(f"unknown request type {kind!r}")
        print(json.dumps(answer), file=out, flush=True)


if __name__ == "__main__":
    main()
