#!/usr/bin/python3
"""Every program the scripts and tests call comes from a package that scripts/install-deps.sh
installs, or from one that every Debian 12 system has (Essential: yes or Priority: required, what
`debootstrap --variant=minbase` installs).

The commands are found in the sources, not listed by hand, so a test or script that starts
calling a new tool fails here until install-deps names its package:
  - shell scripts (scripts/*.sh, .ci/run, tests/**/*.sh): the word in command position of each
    simple command, command substitutions included, through the wrappers env, nice, timeout,
    xvfb-run, exec and sudo;
  - CMake test commands (tests/**/CMakeLists.txt): the program after COMMAND;
  - C++ tests: programs started by name (QProcess start, popen, system, execlp/execvp);
  - Python tests: programs given to subprocess by name, and every module imported that is
    neither the standard library's nor the project's.

Usage: commands_test.py SOURCE_DIR [--list]    (--list prints each command, its package, where)
"""
import ast
import fnmatch
import os
import re
import subprocess
import sys

# A fresh Debian's PATH: programs under /usr/local or a user's own folders are not packaged.
SYSTEM_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"

BUILTINS = set("""
. : [ [[ ]] alias bg break builtin caller cd command compgen complete continue declare dirs
disown echo enable eval exec exit export false fc fg getopts hash help history jobs kill let
local logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt source
suspend test times trap true type typeset ulimit umask unalias unset wait
if then else elif fi case esac for select while until do done in function time coproc ! { }
""".split())
# Words after which the next word is again in command position.
COMMAND_STARTERS = {"|", "||", "&&", ";", "&", "(", "then", "do", "else", "elif", "if", "while",
                    "until", "!", "{", "time", ";;", "|&"}
# Wrappers: (name, options that take a value, number of leading operands that are not commands).
WRAPPERS = {
    "env": (set(), 0),
    "nice": ({"-n"}, 0),
    "timeout": ({"-s", "-k", "--signal", "--kill-after"}, 1),
    "xvfb-run": ({"-s", "-n", "-f", "-e", "-p", "-w", "--server-args", "--server-num"}, 0),
    "exec": (set(), 0),
    "sudo": ({"-u", "-g"}, 0),
    "$SUDO": (set(), 0),
}


def fail(msg):
    print(msg)
    return 1


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def install_deps_packages(source):
    text = read(os.path.join(source, "scripts", "install-deps.sh"))
    m = re.search(r"^PACKAGES=\((.*?)^\)", text, re.S | re.M)
    if not m:
        raise SystemExit("commands_test: no PACKAGES=( ... ) list in scripts/install-deps.sh")
    words = []
    for line in m.group(1).splitlines():
        words += line.split("#", 1)[0].split()
    return set(words)


# ---- shell ------------------------------------------------------------------------------------

def strip_heredocs_and_comments(text):
    """The script with heredoc bodies blanked and comments removed (lines kept)."""
    out, end = [], None
    for line in text.split("\n"):
        if end is not None:
            if line.strip() == end:
                end = None
            out.append("")
            continue
        line = strip_comment(line)
        m = re.search(r"<<-?\s*['\"]?(\w+)['\"]?", line)
        if m and "<<<" not in line:
            end = m.group(1)
        out.append(line)
    return "\n".join(out).replace("\\\n", " \r")  # a continued line: \r counts the line


def strip_comment(line):
    quote, i = None, 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 1
            elif c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "\\":
            i += 1
        elif c == "#" and (i == 0 or line[i - 1] in " \t;|&("):
            return line[:i]
        i += 1
    return line


def substitutions(text, base=0):
    """[(body, offset)] of every $( ... ) and `...` in text (nested ones too), and text with each
    replaced by one word of the same length in lines."""
    bodies, out, i = [], [], 0
    while i < len(text):
        if text.startswith("$((", i):  # arithmetic: no commands
            depth, j = 0, i + 1
            while j < len(text):
                depth += {"(": 1, ")": -1}.get(text[j], 0)
                j += 1
                if depth == 0:
                    break
            out.append("0" + "\n" * text.count("\n", i, j))
            i = j
        elif text.startswith("$(", i) or text[i] == "`":
            if text[i] == "`":
                j = text.find("`", i + 1)
                j = len(text) if j < 0 else j
                body, start, i2 = text[i + 1:j], i + 1, j + 1
            else:
                depth, j = 0, i + 1
                while j < len(text):
                    depth += {"(": 1, ")": -1}.get(text[j], 0)
                    if depth == 0:
                        break
                    j += 1
                body, start, i2 = text[i + 2:j], i + 2, j + 1
            inner, rest = substitutions(body, base + start)
            bodies += [(rest, base + start)] + inner
            out.append("SUBST" + "\n" * body.count("\n"))
            i = i2
        else:
            out.append(text[i])
            i += 1
    return bodies, "".join(out)


def shell_words(text):
    """Splits shell text into (word, offset); operators and newlines (as ';') are words."""
    words, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            words.append((";", i))
            i += 1
        elif c.isspace():
            i += 1
        elif text.startswith(("&&", "||", ";;", "|&"), i):
            words.append((text[i:i + 2], i))
            i += 2
        elif c in "|&;()" or c in "{}" and (i + 1 >= n or text[i + 1].isspace()):
            words.append((c, i))
            i += 1
        else:
            j, quote = i, None
            while j < n:
                ch = text[j]
                if quote:
                    if ch == "\\" and quote == '"':
                        j += 1
                    elif ch == quote:
                        quote = None
                elif ch in "'\"":
                    quote = ch
                elif ch == "\\":
                    j += 1
                elif ch.isspace() or ch in "|&;()<>":
                    break
                j += 1
            word = text[i:j]
            if j < n and text[j] in "<>":  # a redirection (2>&1, >file): not a word
                k = j
                while k < n and text[k] in "<>&":
                    k += 1
                if re.fullmatch(r"\d*", word):
                    word = ""
                while k < n and text[k] in " \t":
                    k += 1
                while k < n and not text[k].isspace() and text[k] not in "|;&()":
                    k += 1
                j = k
            if word:
                words.append((word, i))
            i = j
    return words


def unquote(word):
    return word.replace('"', "").replace("'", "")


ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=")


def commands_in_shell(words, functions):
    """[(command, offset)] of the words in command position."""
    found, expect, skip_until, wrapper, case_pattern = [], True, None, None, False
    skip = set()  # indices of words already accounted for (array bodies, "()" of functions)
    for k, (w, at) in enumerate(words):
        nxt = words[k + 1][0] if k + 1 < len(words) else None
        if k in skip:
            continue
        if skip_until:
            if w in skip_until:
                skip_until = None
                expect = w not in ("]", "]]")
            continue
        if case_pattern:  # from `in` or `;;` to the pattern's `)`
            if w == ")":
                case_pattern, expect = False, True
            elif w == "esac":
                case_pattern = False
            continue
        if w == "case":
            skip_until, case_pattern = {"in"}, True
            continue
        if w == ";;":
            case_pattern, expect = True, False
            continue
        if expect and w == "(" and nxt == "(" and words[k + 1][1] == at + 1:  # (( arithmetic )): no commands
            depth = 0
            for j in range(k, len(words)):
                depth += {"(": 1, ")": -1}.get(words[j][0], 0)
                skip.add(j)
                if depth == 0:
                    break
            expect = False
            continue
        if w in COMMAND_STARTERS:
            expect, wrapper = True, None
            continue
        if ASSIGNMENT.match(w) and w.endswith("=") and nxt == "(":  # name=( ... ): an array
            depth = 0
            for j in range(k + 1, len(words)):
                depth += {"(": 1, ")": -1}.get(words[j][0], 0)
                skip.add(j)
                if depth == 0:
                    break
            continue
        if not expect:
            continue
        if w in ("for", "select"):
            skip_until = {"do"}
            continue
        if w in ("[", "[["):
            skip_until = {"]", "]]"}
            continue
        if w == "command" and nxt in ("-v", "-V"):
            expect = False
            continue
        if nxt == "(" and k + 2 < len(words) and words[k + 2][0] == ")":
            functions.add(w)  # name() { ... }
            skip.update((k + 1, k + 2))
            expect = False
            continue
        if ASSIGNMENT.match(w):
            continue  # an assignment before the command
        name = unquote(w)
        if wrapper:
            opts, operands = WRAPPERS[wrapper[0]]
            if wrapper[1]:  # this word is an option's value
                wrapper = (wrapper[0], False, wrapper[2])
                continue
            if name.startswith("-"):
                wrapper = (wrapper[0], name in opts, wrapper[2])
                continue
            if wrapper[2] < operands:
                wrapper = (wrapper[0], False, wrapper[2] + 1)
                continue
            if wrapper[0] == "env" and "=" in name:
                continue
            wrapper = None
        if name in WRAPPERS:
            if name not in ("exec", "$SUDO"):
                found.append((name, at))
            wrapper = (name, False, 0)
            continue
        expect = False
        if name in BUILTINS or name in functions or name == "SUBST":
            continue
        if "$" in name:
            continue  # a program named by a variable: its value is checked where it is set
        if "/" in name and not name.startswith("/"):
            continue  # the project's own files
        found.append((name, at))
    return found


def shell_commands(path):
    text = strip_heredocs_and_comments(read(path))
    functions = set(re.findall(r"^\s*(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)", text, re.M))
    bodies, rest = substitutions(text)
    out = []
    for body, base in [(rest, 0)] + bodies:
        for c, at in commands_in_shell(shell_words(body), functions):
            out.append((c, text.count("\n", 0, base + at) + text.count("\r", 0, base + at) + 1))
    return out


# ---- CMake, C++, Python -----------------------------------------------------------------------

def cmake_targets(source):
    """The executables the project builds: a test COMMAND naming one runs the built program."""
    names = set()
    for top, dirs, files in os.walk(source):
        dirs[:] = [d for d in dirs if not d.startswith((".", "build"))]
        if "CMakeLists.txt" in files:
            names.update(re.findall(r"add_executable\(\s*([\w${}-]+)",
                                    read(os.path.join(top, "CMakeLists.txt"))))
    return {re.sub(r"\$\{\w+\}", "*", n) for n in names}


def cmake_commands(path, targets):
    out = []
    for no, line in enumerate(read(path).split("\n"), 1):
        line = line.split("#", 1)[0]
        for m in re.finditer(r"\bCOMMAND\s+(\S+)", line):
            word = m.group(1)
            if word.startswith(("$", '"$')) or any(fnmatch.fnmatchcase(word.replace("${", "*")
                                                   .split("}")[-1] if "${" in word else word, t)
                                                   for t in targets):
                continue
            out.append((word, no))
    return out


CPP_PATTERNS = [
    r"\.start\(\s*(?:QStringLiteral\()?\s*\"([^\"\s]+)\"",
    r"QProcess::execute\(\s*(?:QStringLiteral\()?\s*\"([^\"\s]+)\"",
    r"\b(?:popen|system)\(\s*\"([^\"\s]+)",
    r"\bexec[lv]p\(\s*\"([^\"\s]+)\"",
    r"commandOutput\(\s*std::string\(\s*\"([^\"\s]+)",
]


def cpp_commands(path):
    out = []
    for no, line in enumerate(read(path).split("\n"), 1):
        for p in CPP_PATTERNS:
            for m in re.finditer(p, line):
                out.append((m.group(1), no))
    return out


def python_uses(path, project_modules):
    """(commands, modules) used by a Python file."""
    tree = ast.parse(read(path), path)
    commands, modules = [], []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules += [(a.name.split(".")[0], node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.append((node.module.split(".")[0], node.lineno))
        elif isinstance(node, ast.Call) and node.args:
            f = node.func
            if isinstance(f, ast.Attribute) and getattr(f.value, "id", "") == "subprocess" and \
                    f.attr in ("run", "check_output", "check_call", "call", "Popen"):
                first = node.args[0]
                if isinstance(first, (ast.List, ast.Tuple)) and first.elts:
                    first = first.elts[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    commands.append((first.value.split()[0], node.lineno))
    stdlib = set(sys.stdlib_module_names)
    modules = [(m, no) for m, no in modules if m not in stdlib and m not in project_modules]
    return commands, modules


# ---- packages ---------------------------------------------------------------------------------

def aliases(path):
    """The names dpkg may know a file by: as given, resolved, and across the /usr merge."""
    names = [path, os.path.realpath(path)]
    for p in list(names):
        for a, b in (("/usr/bin/", "/bin/"), ("/usr/sbin/", "/sbin/"), ("/usr/lib/", "/lib/")):
            if p.startswith(a):
                names.append(b + p[len(a):])
            elif p.startswith(b):
                names.append(a + p[len(b):])
    return names


def owners(paths):
    """{path: package that installed it}, for every path dpkg knows (one dpkg-query call)."""
    names = sorted({n for p in paths for n in aliases(p)})
    r = subprocess.run(["dpkg-query", "-S"] + names, capture_output=True, text=True)
    found = {}
    for line in r.stdout.splitlines():
        pkgs, _, file = line.rpartition(": ")
        if "diversion" not in pkgs:
            found.setdefault(file, pkgs.split(",")[0].strip().split(":")[0])
    return {p: next((found[n] for n in aliases(p) if n in found), None) for p in paths}


def depends_closure(packages):
    """The listed packages and everything apt installs with them (Depends, Pre-Depends; of an
    alternative or a virtual package, whichever is installed here)."""
    r = subprocess.run(["dpkg-query", "-W", "-f=${Package}\t${Depends}, ${Pre-Depends}\t"
                        "${Provides}\t${db:Status-Abbrev}\n"], capture_output=True, text=True)
    depends, providers = {}, {}
    for line in r.stdout.splitlines():
        name, deps, provides, status = (line.split("\t") + ["", "", ""])[:4]
        if not status.startswith("ii"):
            continue
        depends[name] = [[a.strip().split()[0].split(":")[0] for a in d.split("|") if a.strip()]
                         for d in deps.split(",") if d.strip()]
        for p in provides.split(","):
            if p.strip():
                providers.setdefault(p.strip().split()[0], []).append(name)
    seen, todo = set(), list(packages)
    while todo:
        p = todo.pop()
        for q in [p] + providers.get(p, []):
            if q in depends and q not in seen:
                seen.add(q)
                for alternatives in depends[q]:
                    todo += alternatives
    return seen


def is_base(package):
    r = subprocess.run(["dpkg-query", "-W", "-f=${Essential} ${Priority}", package],
                       capture_output=True, text=True)
    return r.returncode == 0 and (r.stdout.startswith("yes") or "required" in r.stdout)


def which(name):
    if name.startswith("/"):
        return name if os.access(name, os.X_OK) else None
    for d in SYSTEM_PATH.split(":"):
        p = os.path.join(d, name)
        if os.access(p, os.X_OK) and not os.path.isdir(p):
            return p
    return None


def module_file(module):
    code = ("import importlib.util, sys; s = importlib.util.find_spec(sys.argv[1]); "
            "print(s.origin if s and s.origin not in (None, 'built-in', 'frozen') else "
            "(list(s.submodule_search_locations)[0] if s and s.submodule_search_locations else ''))")
    r = subprocess.run(["/usr/bin/python3", "-c", code, module], capture_output=True, text=True,
                       env={"PATH": SYSTEM_PATH})
    return r.stdout.strip() if r.returncode == 0 else ""


SELF_TEST = r"""
set -e
X=$(mktemp) PACKAGES=(
  not-a-command also-not
)
case $1 in
  --flag|-f) shift ;;
  *) exit 2 ;;
esac
run() { frob --x "$@"; }  # frob: not a command: a comment
env A=1 nice -n 5 timeout -s KILL 10 xvfb-run -a -s "-screen 0 9x9x24" grep -q x /dev/null \
  && tar --version | sed -n 1p >/dev/null
for w in a b; do echo "$(basename "$(dirname "$w")")"; done
[ -x ./build/x ] || "$tool" --y
(( count > limit )) && stat -c %s /dev/null
command -v zzz >/dev/null && cat <<'EOF'
heredoc words are not commands
EOF
"""


def self_test():
    """The shell reader finds exactly the commands in a script that uses every form it handles."""
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"commands_test_{os.getpid()}.sh")
    with open(path, "w") as f:
        f.write(SELF_TEST)
    try:
        found = shell_commands(path)
    finally:
        os.remove(path)
    got = sorted({c for c, _ in found})
    lines = dict(found)
    want = sorted(["mktemp", "env", "nice", "timeout", "xvfb-run", "grep", "tar", "sed", "basename",
                   "dirname", "cat", "frob", "stat"])
    if got != want or lines.get("tar") != 12:
        print(f"commands_test --self-test: found {got} (tar on line {lines.get('tar')}), "
              f"expected {want} (tar on line 12)")
        return 1
    print(f"commands_test --self-test: {len(want)} commands found, as expected")
    return 0


def main():
    if "--self-test" in sys.argv:
        return self_test()
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    listing = "--list" in sys.argv
    if len(args) != 1:
        print(__doc__)
        return 2
    source = os.path.abspath(args[0])
    packages = install_deps_packages(source)
    uses = {}  # command or "python module X" -> [where]

    def add(kind, name, path, no):
        uses.setdefault((kind, name), []).append(f"{os.path.relpath(path, source)}:{no}")

    project_modules = {"ropescope", "conftest"}
    targets = cmake_targets(source)
    elsewhere = {}  # command -> the script that says where it comes from instead
    for top, dirs, files in os.walk(source):
        dirs[:] = [d for d in dirs if not d.startswith((".", "build")) and d != "__pycache__"]
        rel = os.path.relpath(top, source)
        for f in files:
            path = os.path.join(top, f)
            in_tests = rel == "tests" or rel.startswith("tests" + os.sep)
            if rel in ("scripts", ".ci") and (f.endswith(".sh") or f == "run") or \
                    in_tests and f.endswith(".sh"):
                for c, no in shell_commands(path):
                    add("command", c, path, no)
                for m in re.finditer(r"commands-test: elsewhere ([\w .+-]+?)(?: --|$)", read(path),
                                     re.M):
                    for c in m.group(1).split():
                        elsewhere.setdefault(c, set()).add(os.path.relpath(path, source))
            elif in_tests and f == "CMakeLists.txt":
                for c, no in cmake_commands(path, targets):
                    add("command", c, path, no)
            elif in_tests and f.endswith((".cpp", ".h")):
                for c, no in cpp_commands(path):
                    add("command", c, path, no)
            elif f.endswith(".py") and (in_tests or rel.startswith(os.path.join("python", "tests"))):
                for top_module in [os.path.splitext(f)[0]]:
                    project_modules.add(top_module)
    # Python files second: the project's own helper modules are known by then.
    for top, dirs, files in os.walk(source):
        dirs[:] = [d for d in dirs if not d.startswith((".", "build")) and d != "__pycache__"]
        rel = os.path.relpath(top, source)
        in_tests = rel == "tests" or rel.startswith("tests" + os.sep) or \
            rel.startswith(os.path.join("python", "tests"))
        for f in files:
            if in_tests and f.endswith(".py"):
                path = os.path.join(top, f)
                commands, modules = python_uses(path, project_modules)
                for c, no in commands:
                    add("command", c, path, no)
                for m, no in modules:
                    add("python module", m, path, no)

    status = 0
    closure = depends_closure(packages)
    located = []  # (kind, name, where, path)
    for (kind, name), where in sorted(uses.items()):
        if kind == "command" and name in elsewhere:
            files = elsewhere[name]
            if {w.rsplit(":", 1)[0] for w in where} <= files:
                continue  # only called where the script says the machine brings it
        if kind == "command":
            path = which(name)
            if not path:
                status = fail(f"{name} (called at {where[0]}) is not installed on this system's "
                              f"PATH ({SYSTEM_PATH}): add its package to scripts/install-deps.sh")
                continue
        else:
            path = module_file(name)
            if not path:
                status = fail(f"python module {name} (imported at {where[0]}) is missing for "
                              "/usr/bin/python3: add its package to scripts/install-deps.sh")
                continue
        located.append((kind, name, where, path))
    package_of = owners([path for _, _, _, path in located])
    for kind, name, where, path in located:
        pkg = package_of[path]
        if pkg is None:
            status = fail(f"{kind} {name} ({path}, used at {where[0]}) belongs to no Debian "
                          "package: install it from a package named in scripts/install-deps.sh")
        elif pkg not in closure and not is_base(pkg):
            status = fail(f"{kind} {name} (used at {where[0]}) comes from package {pkg}, which "
                          "scripts/install-deps.sh does not install and a minimal Debian 12 lacks")
        elif listing:
            print(f"{kind:13} {name:24} {pkg:28} {where[0]} ({len(where)} uses)")
    if status == 0:
        print(f"commands_test: {len(uses)} commands and modules, each from install-deps or the "
              "base system")
    return status


if __name__ == "__main__":
    sys.exit(main())
