"""The one compiled part: harness._cardread (harness/_cardread.c), the quick readers' steady state.

Optional: where it cannot be built (no C compiler), the package installs without it and reads
every board in Python, to the same lines, more slowly."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("harness._cardread", ["harness/_cardread.c"], optional=True)])
