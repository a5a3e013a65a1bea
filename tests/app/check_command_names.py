#!/usr/bin/env python3
"""Each subcommand's name is written once, in its row of app/commands.inc (cli.CommandNamesOnce).

Everything else in app/ gets a name from the table (commandName(kRender), the row's name), so a
renamed or added subcommand changes one line. This check lists every C++ string literal in app/
that is exactly a command's name ("render") outside commands.inc, and exits 1 if there is any.
An option row whose option shares a command's word ({"ids", "FILE.npy", ...}: --ids) is an
option's name, not the command's, and is allowed.

usage: check_command_names.py SOURCE_DIR
"""
import re
import sys
from pathlib import Path

ROW = re.compile(r'ROPESCOPE_COMMAND\(\s*(k\w+)\s*,\s*"([^"]+)"')
SUFFIXES = {".cpp", ".h", ".inc"}


def command_names(table_text):
    return [name for _, name in ROW.findall(table_text)]


def repeats(app, table, names):
    problems = []
    literal = re.compile(r'(\{\s*)?"(' + "|".join(re.escape(n) for n in names) + r')"(\s*,)?')
    for path in sorted(app.rglob("*")):
        if not path.is_file() or path.suffix not in SUFFIXES or path == table:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith("//"):
                continue
            for m in literal.finditer(line):
                if m.group(1) and m.group(3):  # {"ids", ...: an option row's name
                    continue
                problems.append(f"{path.relative_to(app.parent)}:{number}: the command name "
                                f"\"{m.group(2)}\" spelled out; use commandName() of its row in "
                                "app/commands.inc")
    return problems


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_command_names.py SOURCE_DIR")
    app = Path(sys.argv[1]).resolve() / "app"
    table = app / "commands.inc"
    names = command_names(table.read_text(encoding="utf-8"))
    if len(names) < 2:
        print(f"{table}: no rows found (ROPESCOPE_COMMAND(kId, \"name\", ...))")
        return 1
    problems = repeats(app, table, names)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
