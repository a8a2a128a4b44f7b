"""The report folder: which files in it are the report's, and writing them all or none.

A report folder may sit among a user's files (a README of their own, their
charts), so the report keeps a manifest of the files it wrote (MANIFEST) and
removes or overwrites only those.  A folder holding anything else is refused
unless the caller forces it, and even then only same-named files are
overwritten; nothing unlisted is ever removed.  Files are rendered into a
staging folder first and moved into place only when all of them exist, so an
interrupted or failed rendering leaves the folder as it was.
"""
import os
import re
import shutil
import tempfile

MANIFEST = ".report-files"
_HEAD = "# the files scripts/report wrote in this folder: it removes or overwrites only these\n"
_STAGING = ".report-staging-"
# A README that an older scripts/report (before the manifest) rendered: its own links name its files.
_OLD_README = re.compile(r"^> \*\*Headline:\*\* .*^Render this report again with `scripts/report", re.M | re.S)
_LINK = re.compile(r"\]\(([^()/\s]+)\)")


class FolderError(Exception):
    """The output folder cannot take the report; str() is `DIR: why (what to try)`."""


def _plain(name):
    """A file name of the folder itself: an edited manifest must not reach outside the folder."""
    return name and "/" not in name and name not in (".", "..")


def owned(out_dir):
    """The files of out_dir the report wrote: its manifest's, or those an older report's README links to."""
    try:
        with open(os.path.join(out_dir, MANIFEST), encoding="utf-8") as f:
            return {l.strip() for l in f if _plain(l.strip()) and not l.startswith("#")}
    except FileNotFoundError:
        pass
    readme = os.path.join(out_dir, "README.md")
    try:
        with open(readme, encoding="utf-8") as f:
            text = f.read()
    except (FileNotFoundError, UnicodeDecodeError):
        return set()
    if not _OLD_README.search(text):
        return set()
    return {"README.md"} | {f for f in _LINK.findall(text) if os.path.isfile(os.path.join(out_dir, f))}


def foreign(out_dir, sources=()):
    """The entries of out_dir the report did not write (sources: input files that sit there, theirs to keep)."""
    mine = owned(out_dir) | {MANIFEST}
    keep = {os.path.abspath(p) for p in sources}
    return sorted(e for e in os.listdir(out_dir) if e not in mine and not e.startswith(_STAGING)
                  and os.path.abspath(os.path.join(out_dir, e)) not in keep)


def check(out_dir, force=False, sources=()):
    """Raises FolderError when the report may not write into out_dir (a file, or a folder with others' files)."""
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise FolderError(f"{out_dir}: not a folder (give a new or empty folder for the report, "
                          f"e.g. {out_dir}-report)")
    if not os.path.isdir(out_dir) or force:
        return
    others = foreign(out_dir, sources)
    if others:
        shown = ", ".join(others[:4]) + (f" and {len(others) - 4} more" if len(others) > 4 else "")
        raise FolderError(f"{out_dir}: holds {len(others)} file{'s' if len(others) > 1 else ''} the report did not "
                          f"write ({shown}) (give a new or empty folder, or --force to write beside them: same-named "
                          "ones are overwritten, the rest kept)")


class Staging:
    """A context: files written into .path are moved into out_dir on commit(); on any exit without it, nothing is."""

    def __init__(self, out_dir):
        self.out_dir = out_dir
        self.created = not os.path.isdir(out_dir)
        os.makedirs(out_dir, exist_ok=True)
        self.path = tempfile.mkdtemp(prefix=_STAGING, dir=out_dir)

    def __enter__(self):
        return self

    def commit(self, sources=()):
        """Moves the staged files into place, removes what the last report wrote and this one did not, lists the new."""
        old = owned(self.out_dir)
        new = sorted(os.listdir(self.path))
        for name in new:
            os.replace(os.path.join(self.path, name), os.path.join(self.out_dir, name))
        keep = {os.path.abspath(p) for p in sources}
        for name in old - set(new):
            p = os.path.join(self.out_dir, name)
            if os.path.isfile(p) and os.path.abspath(p) not in keep:
                os.remove(p)
        # a copy made by an earlier report that is now this one's input stays the report's
        listed = sorted(set(new) | {n for n in old if os.path.abspath(os.path.join(self.out_dir, n)) in keep})
        tmp = os.path.join(self.path, MANIFEST)
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(_HEAD + "".join(n + "\n" for n in listed))
        os.replace(tmp, os.path.join(self.out_dir, MANIFEST))
        os.rmdir(self.path)
        self.path = None

    def __exit__(self, *exc):
        if self.path:
            shutil.rmtree(self.path, ignore_errors=True)
            if self.created:
                try:
                    os.rmdir(self.out_dir)
                except OSError:
                    pass
        return False
