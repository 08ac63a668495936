"""`python -m robotstxt_test ...` runs the binary, as `robotstxt-test ...` does."""
import os
import subprocess
import sys

from . import binary


def main() -> int:
    exe = binary()
    if sys.platform == "win32":
        return subprocess.call([exe, *sys.argv[1:]])
    os.execv(exe, [exe, *sys.argv[1:]])
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
