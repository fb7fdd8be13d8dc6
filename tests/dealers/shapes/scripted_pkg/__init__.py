"""A package whose `__init__` reads its command line as it is imported: only the dealer's own process
may run it (the harness only looks for its files), and there it finds no arguments."""

import argparse

OPTIONS = argparse.ArgumentParser(description="FreeCell").parse_args()
