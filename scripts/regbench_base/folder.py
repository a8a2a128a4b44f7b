"""An output folder: which files in it are the writer's, and writing them all or none.

An output folder may sit among a user's files (a README of their own, their
charts), so each writer (scripts/report, and scripts/results' table, site and
history -o) keeps a manifest of the files it wrote (MANIFEST, its first line
naming the writer) and removes or overwrites only those.  A folder holding
anything else, another writer's files among them, is refused unless the
caller forces it, and even then only same-named files are overwritten;
nothing unlisted is ever removed.  Files are rendered into a staging folder
first and moved into place only when all of them exist, as one step that is
rolled back if it fails midway, so an interrupted (SIGINT, SIGTERM, SIGHUP:
command.py) or failed rendering leaves the folder as it was.
"""
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from typing import Callable

from .command import held, settled

MANIFEST = ".report-files"
STAGING = ".report-staging-"
_HEAD = re.compile(r"^# the files (.+?) wrote in this folder: ")
# A README that an older scripts/report (before the manifest) rendered: its own links name its files.
_OLD_README = re.compile(r"^> \*\*Headline:\*\* .*^Render this report again with `scripts/report", re.M | re.S)
_LINK = re.compile(r"\]\(([^()/\s]+)\)")


@dataclass(frozen=True)
class Writer:
    """A command that writes output folders: its name in the manifest, and which files of a manifest written before
    writers were told apart it takes as its own (every command then wrote "scripts/report" in the manifest's head:
    a table, a site and history charts are each recognized by the files they are made of)."""
    name: str
    said: str                                      # how a message names it: the report, the site, ...
    legacy: Callable = lambda names: True

    @property
    def head(self):
        return f"# the files {self.name} wrote in this folder: it removes or overwrites only these\n"


# The report's head is the one every manifest had before writers were told apart.
REPORT = Writer("scripts/report", "the report")


class FolderError(Exception):
    """The output folder cannot take the report; str() is `DIR: why (what to try)`."""


def _plain(name):
    """A file name of the folder itself: an edited manifest must not reach outside the folder."""
    return name and "/" not in name and name not in (".", "..")


def manifest(out_dir):
    """(the writer the manifest names, the files it lists), or None where out_dir has no manifest."""
    try:
        with open(os.path.join(out_dir, MANIFEST), encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None
    head = _HEAD.match(lines[0]) if lines else None
    return (head.group(1) if head else REPORT.name), {l.strip() for l in lines if _plain(l.strip())
                                                      and not l.startswith("#")}


def owned(out_dir, writer=REPORT):
    """The files of out_dir this writer wrote: its manifest's, or those an older report's README links to.

    Another writer's manifest owns nothing of this one's; a manifest from before writers were told apart is this
    writer's where it lists only files this writer writes (Writer.legacy)."""
    found = manifest(out_dir)
    if found is not None:
        name, files = found
        return files if name == writer.name or name == REPORT.name and writer.legacy(files) else set()
    if writer != REPORT:
        return set()
    readme = os.path.join(out_dir, "README.md")
    try:
        with open(readme, encoding="utf-8") as f:
            text = f.read()
    except (FileNotFoundError, IsADirectoryError, UnicodeDecodeError):
        return set()
    if not _OLD_README.search(text):
        return set()
    return {"README.md"} | {f for f in _LINK.findall(text) if os.path.isfile(os.path.join(out_dir, f))}


def _mine(out_dir, writer):
    """What the writer may replace: its files, and the manifest where the manifest is its own (or there is none)."""
    files = owned(out_dir, writer)
    found = manifest(out_dir)
    return files | ({MANIFEST} if found is None or files or not found[1] else set())


def foreign(out_dir, sources=(), writer=REPORT):
    """The entries of out_dir the writer did not write (sources: input files that sit there, theirs to keep)."""
    mine = _mine(out_dir, writer)
    keep = {os.path.abspath(p) for p in sources}
    return sorted(e for e in os.listdir(out_dir) if e not in mine and not e.startswith(STAGING)
                  and os.path.abspath(os.path.join(out_dir, e)) not in keep)


def check(out_dir, force=False, sources=(), writer=REPORT):
    """Raises FolderError when the writer may not write into out_dir (a file, or a folder with others' files)."""
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise FolderError(f"{out_dir}: not a folder (give a new or empty folder for the report, "
                          f"e.g. {out_dir}-report)")
    if not os.path.isdir(out_dir) or force:
        return
    others = foreign(out_dir, sources, writer)
    if others:
        found = manifest(out_dir)
        whose = (f", {found[0]}'s among them" if found and found[0] != writer.name and not owned(out_dir, writer)
                 and found[1] else "")
        listed = ", ".join(others[:4]) + (f" and {len(others) - 4} more" if len(others) > 4 else "")
        raise FolderError(f"{out_dir}: holds {len(others)} file{'s' if len(others) > 1 else ''} {writer.said} did not "
                          f"write ({listed}{whose}) (give a new or empty folder, or --force to write beside them: "
                          "same-named ones are overwritten, the rest kept)")


class Staging:
    """A context: files written into .path are moved into out_dir on commit(); on any exit without it, nothing is.

    The staging folder sits inside out_dir (one file system, so every move is a rename); out_dir and
    any missing folders above it are created on entry and removed again when nothing was committed.
    """

    def __init__(self, out_dir, writer=REPORT):
        self.out_dir = out_dir
        self.writer = writer
        self.created = []
        self.path = None

    def __enter__(self):
        # a signal that came meanwhile interrupts at the end of the block, and __exit__ is not called then
        try:
            with held():
                try:
                    missing, d = [], os.path.abspath(self.out_dir)
                    while not os.path.isdir(d):
                        if os.path.lexists(d):
                            raise FolderError(f"{self.out_dir}: {d} is not a folder (give a folder, or a new "
                                              "one inside folders)")
                        missing.append(d)
                        d = os.path.dirname(d)
                    for d in reversed(missing):
                        os.mkdir(d)
                        self.created.append(d)
                    self.path = tempfile.mkdtemp(prefix=STAGING, dir=self.out_dir)
                except OSError as e:
                    raise FolderError(f"{self.out_dir}: cannot write in it: {e.strerror} (give a folder you can "
                                      "write to)") from None
        except BaseException:
            self._clean()
            raise
        return self

    def commit(self, sources=()):
        """Puts the staged files in place, removes what the last report wrote and this one did not, lists the new.

        All or nothing: each file it replaces or removes is first moved aside (a rename), the
        manifest comes last, and a failure on the way moves everything back, so the folder is
        either the new report or exactly what it was.
        """
        old = owned(self.out_dir, self.writer) - {MANIFEST}
        new = sorted(os.listdir(self.path))
        keep = {os.path.abspath(p) for p in sources}
        if MANIFEST in new:
            raise FolderError(f"{os.path.join(self.out_dir, MANIFEST)}: a file of the report would take the manifest's "
                              "name (rename the result file called that)")
        for name in new + [MANIFEST]:
            p = os.path.join(self.out_dir, name)
            if os.path.isdir(p) and not os.path.islink(p):
                raise FolderError(f"{p}: a folder has the name of a file the report writes (rename or move it, "
                                  "or give another output folder)")
        gone = [n for n in sorted(old - set(new)) if os.path.isfile(os.path.join(self.out_dir, n))
                and os.path.abspath(os.path.join(self.out_dir, n)) not in keep]
        # a copy made by an earlier report that is now this one's input stays the report's
        listed = sorted(set(new) | {n for n in old if os.path.abspath(os.path.join(self.out_dir, n)) in keep})
        with open(os.path.join(self.path, MANIFEST), "w", encoding="utf-8") as f:
            f.write(self.writer.head + "".join(n + "\n" for n in listed))
        self.swap(new + [MANIFEST], gone)

    def swap(self, names, gone=()):
        """Puts the staged entries names (files or folders) in place of out_dir's and removes gone from out_dir.

        All or nothing: each entry it replaces or removes is first moved aside (a rename), and a
        failure on the way moves everything back.  A signal waits for the end, after which it has
        nothing left to stop (settled).
        """
        with held():
            aside = tempfile.mkdtemp(prefix=STAGING, dir=self.out_dir)
            done = []    # [name, what was there is aside, the new entry is in place], in order
            try:
                for name in list(names) + list(gone):
                    dest = os.path.join(self.out_dir, name)
                    done.append([name, os.path.lexists(dest), False])
                    if done[-1][1]:
                        os.rename(dest, os.path.join(aside, name))
                    if name not in gone:
                        os.replace(os.path.join(self.path, name), dest)
                        done[-1][2] = True
            except BaseException:
                self._roll_back(done, aside)
                raise
            settled()
            shutil.rmtree(aside, ignore_errors=True)
            shutil.rmtree(self.path, ignore_errors=True)
            self.path = None

    def _roll_back(self, done, aside):
        """Moves back what commit() moved, last first; what cannot go back stays in aside, which is then kept."""
        stuck = []
        for name, had, placed in reversed(done):
            dest = os.path.join(self.out_dir, name)
            try:
                if placed:
                    shutil.rmtree(dest) if os.path.isdir(dest) and not os.path.islink(dest) else os.remove(dest)
                if had and os.path.lexists(os.path.join(aside, name)):
                    os.rename(os.path.join(aside, name), dest)
            except OSError:
                stuck.append(name)
        if stuck:
            raise FolderError(f"{self.out_dir}: the report failed while putting its files in place, and "
                              f"{', '.join(stuck)} could not be put back (what was there is in {aside}: move it "
                              "back by hand)")
        os.rmdir(aside)

    def _clean(self):
        """Removes the staging folder and the folders __enter__ created (what is in them is the report's)."""
        with held():
            if self.path:
                shutil.rmtree(self.path, ignore_errors=True)
                self.path = None
            for d in reversed(self.created):
                try:
                    os.rmdir(d)
                except OSError:
                    break
            self.created = []

    def __exit__(self, *exc):
        if self.path:
            self._clean()
        return False
