#!/usr/bin/env python3
"""The habits CONTRIBUTING.md asks for, checked (docs.Habits):

* no issue of this project's tracker named in code, scripts or build files (the word and a
  number: it points at nothing a reader of the code has; upstream references keep their "#",
  as in transformers #45381);
* every commit after HABITS_SINCE has a subject of at most 72 characters.

usage: check_habits.py SOURCE_DIR. Prints one line per problem and exits 1 if there is any; exits
77 (ctest: skipped, with the reason printed) when SOURCE_DIR is not a git checkout with that
commit, as in a tarball or a shallow clone.
"""
import re
import subprocess
import sys
from pathlib import Path

# The commit from which subjects are checked (the merge of the branches that were under way
# when the check came); those before it are history.
HABITS_SINCE = "ed60b4a"
MAX_SUBJECT = 72
CODE_FOLDERS = ["core", "app", "ui", "gpu", "python", "tests", "scripts", "shaders", "packaging"]
CODE_SUFFIXES = {".cpp", ".h", ".inc", ".py", ".sh", ".cmake", ".txt", ".glsl", ".comp", ".pyi"}
OWN_ISSUE = re.compile(r"\b[Ii]ssues? [0-9]+\b")
SKIP_PARTS = {"data", "corpus", "regressions", "baselines"}


def git(root, *args):
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)


def issue_mentions(root):
    problems = []
    for folder in CODE_FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if not path.is_file() or path.suffix not in CODE_SUFFIXES:
                continue
            if SKIP_PARTS & set(path.relative_to(root).parts):
                continue
            try:
                text = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
            for number, line in enumerate(text.splitlines(), 1):
                match = OWN_ISSUE.search(line)
                if match:
                    problems.append(f"{path.relative_to(root)}:{number}: names \"{match.group(0)}\" "
                                    "of this project's tracker; say what the code does instead")
    return problems


def long_subjects(root):
    """(problems, reason the check could not run or None)."""
    if git(root, "rev-parse", "--git-dir").returncode != 0:
        return [], "not a git checkout"
    if git(root, "cat-file", "-e", HABITS_SINCE + "^{commit}").returncode != 0:
        return [], f"commit {HABITS_SINCE} is not in this clone's history (shallow clone?)"
    log = git(root, "log", "--format=%h %s", f"{HABITS_SINCE}..HEAD")
    problems = []
    for line in log.stdout.splitlines():
        commit, _, subject = line.partition(" ")
        if len(subject) > MAX_SUBJECT:
            problems.append(f"commit {commit}: subject of {len(subject)} characters "
                            f"(at most {MAX_SUBJECT}): {subject[:60]}...")
    return problems, None


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_habits.py SOURCE_DIR")
    root = Path(sys.argv[1]).resolve()
    problems = issue_mentions(root)
    subject_problems, skipped = long_subjects(root)
    problems += subject_problems
    for p in problems:
        print(p)
    if problems:
        return 1
    if skipped:
        print(f"check_habits: no issue named in code; commit subjects not checked: {skipped}")
        return 77
    print("check_habits: no issue named in code; every subject since "
          f"{HABITS_SINCE} is at most {MAX_SUBJECT} characters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
