#!/usr/bin/env python3
"""Checks the relative links of the project's Markdown files.

Walks README.md, CONTRIBUTING.md and docs/**/*.md under the repository root given as the only
argument (default: two folders above this file). For every Markdown link or image whose target is
relative (no scheme such as https:, no mailto:), checks that the file or folder exists and, when
the link carries a #fragment, that the target Markdown file has a heading with that anchor under
GitHub's rules: lowercase; every character that is not a letter, digit, space, hyphen or
underscore dropped; each space turned into a hyphen; a repeated heading gets -1, -2, ... Explicit
<a name="..."> or id="..." anchors count too. Links inside fenced code blocks and inline code are
not links and are skipped.

Exit status 0 when every link resolves; 1 otherwise, with one line per broken link:
    FILE:LINE: broken link TARGET (why)
Python 3 standard library only.
"""

import os
import re
import sys
import unicodedata
from urllib.parse import unquote

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REF_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"<a\s+[^>]*(?:name|id)\s*=\s*\"([^\"]+)\"", re.IGNORECASE)
FENCE = re.compile(r"^\s{0,3}(```|~~~)")
INLINE_CODE = re.compile(r"(`+)(.+?)\1")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def slug(text):
    """GitHub's anchor for a heading's text."""
    # Inline markup does not reach the anchor: drop emphasis and code markers, keep link text.
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = text.replace("`", "")
    out = []
    for ch in text.strip().lower():
        if ch in " -_":
            out.append("-" if ch == " " else ch)
        elif unicodedata.category(ch)[0] in "LN":
            out.append(ch)
        # anything else (punctuation, symbols) is dropped
    return "".join(out)


def without_code(lines):
    """Yields (line number, text) outside fenced code, with inline code blanked."""
    fence = None
    for number, line in enumerate(lines, 1):
        m = FENCE.match(line)
        if m:
            if fence is None:
                fence = m.group(1)
            elif m.group(1) == fence:
                fence = None
            continue
        if fence is None:
            yield number, INLINE_CODE.sub(lambda c: " " * len(c.group(0)), line)


def anchors_of(path, cache={}):
    if path not in cache:
        found = set()
        counts = {}
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        for _, line in without_code(lines):
            m = HEADING.match(line)
            if m:
                base = slug(m.group(2))
                n = counts.get(base, 0)
                counts[base] = n + 1
                found.add(base if n == 0 else "%s-%d" % (base, n))
            for a in HTML_ANCHOR.findall(line):
                found.add(a)
        cache[path] = found
    return cache[path]


def markdown_files(root):
    for name in ("README.md", "CONTRIBUTING.md"):
        path = os.path.join(root, name)
        if os.path.isfile(path):
            yield path
    docs = os.path.join(root, "docs")
    for folder, dirs, files in os.walk(docs):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".md"):
                yield os.path.join(folder, name)


def check(root):
    broken = []
    for path in markdown_files(root):
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        rel = os.path.relpath(path, root)
        for number, line in without_code(lines):
            targets = [m.group(1) for m in LINK.finditer(line)]
            m = REF_DEF.match(line)
            if m:
                targets.append(m.group(1))
            for target in targets:
                if SCHEME.match(target) or target.startswith("//"):
                    continue  # an address outside the repository
                file_part, _, fragment = target.partition("#")
                file_part = unquote(file_part)
                if file_part:
                    if file_part.startswith("/"):
                        resolved = os.path.join(root, file_part.lstrip("/"))
                    else:
                        resolved = os.path.join(os.path.dirname(path), file_part)
                    resolved = os.path.normpath(resolved)
                    if not os.path.exists(resolved):
                        broken.append("%s:%d: broken link %s (no such file)" % (rel, number, target))
                        continue
                else:
                    resolved = path
                if fragment:
                    if os.path.isdir(resolved) or not resolved.endswith(".md"):
                        broken.append("%s:%d: broken link %s (an anchor into a file that is not "
                                      "Markdown)" % (rel, number, target))
                    elif unquote(fragment) not in anchors_of(resolved):
                        broken.append("%s:%d: broken link %s (no heading with anchor #%s in %s)"
                                      % (rel, number, target, fragment,
                                         os.path.relpath(resolved, root)))
    return broken


def main(argv):
    if len(argv) > 2:
        print("usage: check_links.py [REPOSITORY_ROOT]", file=sys.stderr)
        return 2
    root = argv[1] if len(argv) == 2 else os.path.join(os.path.dirname(__file__), "..", "..")
    root = os.path.abspath(root)
    broken = check(root)
    for line in broken:
        print(line)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
