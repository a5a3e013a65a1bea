"""Running the transformers oracle's scripts (../shared/oracles/transformers, a development tool
outside the repository) from the regen-*-golden.py scripts: one place for the environment they
run in."""
import os
import subprocess


def run_oracle_script(cmd, capability=None):
    """Runs `cmd` with a fixed hash seed and torch's CPU kernels at `capability` ("default": the
    scalar kernels the bit-exact values come from; None: whatever this torch build picks).
    Returns the CompletedProcess; stdout and stderr as text."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    if capability:
        env["ATEN_CPU_CAPABILITY"] = capability
    else:
        env.pop("ATEN_CPU_CAPABILITY", None)
    return subprocess.run(cmd, capture_output=True, text=True, env=env)
