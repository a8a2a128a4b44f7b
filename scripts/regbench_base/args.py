"""The command lines' argument parser: argparse's, its complaints one line and a UsageError."""
import argparse


class UsageError(Exception):
    """A command line the tool cannot use; str() is the line to print (after the tool's name)."""


class Parser(argparse.ArgumentParser):
    """argparse's parser, its complaints raised as one line naming the command's help."""

    def error(self, message):
        raise UsageError(f"{message} (see scripts/{self.prog} --help)")
