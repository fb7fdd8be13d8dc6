"""The compiled parts, both optional: where no C compiler is, the package installs without them.

- harness._cardread (harness/_cardread.c), the quick readers' steady state: without it, every board
  is read in Python, to the same lines, more slowly.
- The `freecell-harness` command's launcher (harness/launcher.c): it blocks Ctrl-C and SIGTERM before
  Python starts, then runs the script `freecell-harness-python` installed beside it with the
  interpreter that script's first line names (the installer rewrites its `#!python`).  Without it,
  `freecell-harness` is that script itself, and the interpreter's own start-up is not covered.
"""

import os
import shutil

from setuptools import Extension, setup

from distutils.ccompiler import new_compiler
from distutils.command.build_scripts import build_scripts
from distutils.errors import CCompilerError, DistutilsExecError, DistutilsPlatformError, LinkError
from distutils.sysconfig import customize_compiler

COMMAND, PLAIN = "freecell-harness", "freecell-harness-python"


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
        if os.name != "posix":
            raise DistutilsPlatformError("it is for POSIX systems")
        compiler = new_compiler()
        customize_compiler(compiler)
        temp = self.get_finalized_command("build").build_temp
        objects = compiler.compile(["harness/launcher.c"], output_dir=temp, extra_postargs=["-O2"])
        try:  # static where it can be: nothing for a dynamic loader to do before its first instruction
            compiler.link_executable(objects, launcher, extra_postargs=["-static"])
        except LinkError:
            compiler.link_executable(objects, launcher)


setup(
    ext_modules=[Extension("harness._cardread", ["harness/_cardread.c"], optional=True)],
    scripts=[f"harness/{PLAIN}"],
    cmdclass={"build_scripts": build_scripts_and_launcher},
)
