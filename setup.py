"""The compiled parts, all optional: where no C compiler is, the package installs without them.

- harness._cardread (harness/_cardread.c), the quick readers' steady state: without it, every board
  is read in Python, to the same lines, more slowly.
- reference._shuffle (reference/_shuffle.c), the reference's shuffle of many deals at once: without
  it, reference/bulk.py's NumPy loop deals the same cards, some times more slowly.
- The spawner in C (harness/process/spawner.c), built as the executable harness/process/_spawner beside
  spawner_main.py (in the build, or in the source tree for an in-place build or an editable install):
  it starts every dealer process.  Without it, the harness runs spawner_main.py, the same program in
  Python, which costs some 300 us of CPU more per process.
- The `freecell-harness` command's launcher (harness/launcher.c): it blocks Ctrl-C and SIGTERM before
  Python starts, then runs the script `freecell-harness-python` installed beside it with the
  interpreter that script's first line names (the installer rewrites its `#!python`).  Without it,
  `freecell-harness` is that script itself, and the interpreter's own start-up is not covered.
"""

import os
import shutil

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

from distutils.ccompiler import CCompiler, new_compiler
from distutils.command.build_scripts import build_scripts
from distutils.errors import CCompilerError, DistutilsExecError, DistutilsPlatformError, LinkError
from distutils.sysconfig import customize_compiler

COMMAND, PLAIN = "freecell-harness", "freecell-harness-python"


def _compiler() -> CCompiler:
    if os.name != "posix":
        raise DistutilsPlatformError("it is for POSIX systems")
    compiler = new_compiler()
    customize_compiler(compiler)
    return compiler


def _link(compiler: CCompiler, objects: list[str], executable: str) -> None:
    try:  # static where it can be: nothing for a dynamic loader to do before its first instruction
        compiler.link_executable(objects, executable, extra_postargs=["-static"])
    except LinkError:
        compiler.link_executable(objects, executable)


class build_ext_and_spawner(build_ext):
    def run(self) -> None:
        super().run()
        # Beside where harness/process's extension would go: the build, or the source tree in place.
        spawner = os.path.join(os.path.dirname(self.get_ext_fullpath("harness.process._spawner")), "_spawner")
        try:
            compiler = _compiler()
            source = ["harness/process/spawner.c"]
            objects = compiler.compile(source, output_dir=self.build_temp, extra_postargs=["-O2"])
            _link(compiler, objects, spawner)
        except (CCompilerError, DistutilsExecError, DistutilsPlatformError, OSError) as exc:
            self.warn(f"the spawner in C was not built ({exc}): the harness runs spawner_main.py instead")


class build_scripts_and_launcher(build_scripts):
    def run(self) -> None:
        super().run()
        launcher = os.path.join(self.build_dir, COMMAND)
        try:
            self.build_launcher(launcher)
        except (CCompilerError, DistutilsExecError, DistutilsPlatformError, OSError) as exc:
            self.warn(f"the launcher was not built ({exc}): {COMMAND} is the Python script {PLAIN}")
            shutil.copy2(os.path.join(self.build_dir, PLAIN), launcher)

    def build_launcher(self, launcher: str) -> None:
        compiler = _compiler()
        temp = self.get_finalized_command("build").build_temp
        objects = compiler.compile(["harness/launcher.c"], output_dir=temp, extra_postargs=["-O2"])
        _link(compiler, objects, launcher)


setup(
    ext_modules=[
        Extension("harness._cardread", ["harness/_cardread.c"], optional=True),
        Extension("reference._shuffle", ["reference/_shuffle.c"], optional=True),
    ],
    scripts=[f"harness/{PLAIN}"],
    cmdclass={"build_ext": build_ext_and_spawner, "build_scripts": build_scripts_and_launcher},
)
