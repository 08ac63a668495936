"""`python -m robotstxt_test ...` runs the binary, as `robotstxt-test ...` does."""
import os
import sys

from . import binary

if __name__ == "__main__":
    exe = binary()
    os.execv(exe, [exe, *sys.argv[1:]])
