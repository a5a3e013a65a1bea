"""The keyword arguments' help, from the command line's option table (app/cli_options.cpp) and
the designs' parameter table: the ranges `ropescope COMMAND --help` prints, appended to each
function's docstring, never written a second time here."""

# The command line's own options (what it prints and where, its progress lines on stderr): a
# function returns its result.
COMMAND_LINE_ONLY = {"help", "out", "format", "progress"}


def keyword(option):
    """head-dim -> head_dim; from -> from_ (a Python keyword)."""
    name = option.replace("-", "_")
    return name + "_" if name in ("from", "import", "in", "is", "as") else name


def options_text(rows, skipped=()):
    """The option table's rows (name, argument, help) as the keyword list of a docstring."""
    lines = []
    for name, arg, text in rows:
        if name in COMMAND_LINE_ONLY or name in skipped or name == "param" or text is None:
            continue
        head = f"    {keyword(name)}={arg}" if arg else f"    {keyword(name)}=True"
        lines.append(head)
        lines.append(f"        {text}")
    return "\n".join(lines)


def designs_text(designs):
    """Every design's parameters with range and default, as `--help` lists them."""
    lines = []
    for d in designs:
        if not d["parameters"]:
            continue
        lines.append(f"    {d['name']}: {d['summary']}")
        for p in d["parameters"]:
            default = p["default"]
            if isinstance(default, float) and default.is_integer():
                default = int(default)
            lines.append(f"        {p['key']}  {p['range']}, default {default} - {p['help']}")
    return "\n".join(lines)


def document(functions, option_help, designs):
    """Appends to each function's docstring the keywords its command takes, with their ranges
    (and, for the commands that compute ids, the design parameters). functions: {function:
    command name, or (command name, options the function refuses)}."""
    design_lines = designs_text(designs)
    for function, command in functions.items():
        command, skipped = (command, ()) if isinstance(command, str) else command
        rows = option_help[command]
        text = "\n\nKeywords (the command line's options of `ropescope " + command + "`):\n"
        text += options_text(rows, skipped)
        if any(name == "param" for name, _, _ in rows):
            text += ("\n\nAny other keyword is a parameter of the design (--param KEY=VALUE):\n"
                     + design_lines)
        function.__doc__ = (function.__doc__ or "").rstrip() + text + "\n"
