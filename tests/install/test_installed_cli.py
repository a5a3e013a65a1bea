"""The installed program (ROPESCOPE_BIN) against the reference vectors, and the installed
module's messages against the program's. Run by install_test.sh."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.environ.get("ROPESCOPE_SOURCE_DIR", "."), "python", "tests"))
import reference as ref  # noqa: E402
import ropescope  # noqa: E402

BIN = os.environ.get("ROPESCOPE_BIN")
pytestmark = pytest.mark.skipif(not BIN, reason="ROPESCOPE_BIN not set (tests/install)")


def run(*args, cwd=None):
    return subprocess.run([BIN, *args], capture_output=True, text=True, cwd=cwd)


def test_the_installed_module_is_imported():
    prefix = os.environ["ROPESCOPE_EXPECT_PREFIX"]
    assert os.path.realpath(ropescope.__file__).startswith(os.path.realpath(prefix))


def test_ids():
    r = run("ids", "--layout", "t3,i4x6,t2", "--design", "mrope", "--param", "fps=2",
            "--param", "tokens_per_second=1")
    assert r.returncode == 0, r.stderr
    got = np.array([t["id"] for t in json.loads(r.stdout)["tokens"]], dtype=np.float64)
    np.testing.assert_array_equal(got, ref.golden_ids("A", "MRoPE Qwen2-VL (t=k)"))


def test_ptd():
    r = run("ptd", "--layout", "i3x3,t5", "--design", "hard")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["ptd"] == pytest.approx(20 / 9, abs=1e-12)


def test_decay():
    distances, want = ref.golden_decay("base=10000 ")
    r = run("decay", "--plan", "vanilla", "--base", "10000", "--max-distance", "200")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    np.testing.assert_array_equal(out["distance"], np.arange(201))
    u = np.array(out["bound"])
    np.testing.assert_allclose(u[distances], want, rtol=1e-11)


@pytest.mark.parametrize("model", ["installed folder", "qwen2.5-vl-7b"])
def test_model_family_ids_from_a_processor_output(tmp_path, model):
    if model == "installed folder":  # the installed tree's share/ropescope/models
        model = os.path.join(os.environ["ROPESCOPE_EXPECT_PREFIX"], "share", "ropescope",
                             "models", "qwen2.5-vl-7b")
    ids = [151643, 151643, 10, 11, 12, 151652] + [151655] * 6 + [151653, 13, 14]
    (tmp_path / "inputs.json").write_text(json.dumps(
        {"input_ids": [ids], "attention_mask": [[0, 0] + [1] * 13],
         "image_grid_thw": [[1, 4, 6]]}))
    r = run("ids", "--model", model, "--tokens", "inputs.json", cwd=tmp_path)
    if "shipped: none in this build" in r.stderr:  # a build without ropescope_models
        pytest.skip("this ropescope has no shipped model configs")
    assert r.returncode == 0, r.stderr
    got = np.array([t["id"] for t in json.loads(r.stdout)["tokens"]], dtype=np.float64)
    np.testing.assert_array_equal(got, ref.qwen2vl_ids([("t", 4), ("i", 2, 3), ("t", 3)]))


@pytest.mark.parametrize("args, call", [
    (["ids", "--layout", "t0"], lambda: ropescope.ids("t0")),
    (["ids", "--layout", "t3", "--design", "circle", "--alpha", "2"],
     lambda: ropescope.ids("t3", design="circle", alpha=2)),
    (["decay", "--base", "0.5"], lambda: ropescope.decay(base=0.5)),
])
def test_the_module_says_what_the_program_says(args, call):
    r = run(*args)
    assert r.returncode == 2
    with pytest.raises(ValueError) as e:
        call()
    assert r.stderr == f"ropescope: {e.value}\n"


def test_man_page_and_completion_list_every_command():
    usage = run("--help").stdout
    commands = [l.split()[0] for l in usage.split("commands:\n")[1].splitlines() if
                l.startswith("  ")]
    prefix = os.environ["ROPESCOPE_EXPECT_PREFIX"]
    with open(os.path.join(prefix, "share", "man", "man1", "ropescope.1")) as f:
        man = f.read()
    with open(os.path.join(prefix, "share", "bash-completion", "completions", "ropescope")) as f:
        completion = f.read()
    assert len(commands) >= 9
    for c in commands:
        assert f".SS {c.replace('-', chr(92) + '-')}\n" in man
        assert f"\n    {c}) opts=" in completion


def test_the_installed_program_finds_the_shipped_sample(tmp_path):
    # No castle.png in the working folder: img:castle.png is the installed sample.
    r = run("ids", "--layout", "t1,img:castle.png", "--format", "csv", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert len(r.stdout.splitlines()) == 1 + 1 + 99  # header, text, 9 x 11 patches
