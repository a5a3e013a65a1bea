"""model= as a notebook has it: a model name or checkpoint folder as the core reads them, or a
transformers config object (``model.config``) or its dict, written once as config.json into a
folder of this process's own (removed at exit) that the core then reads as a checkpoint folder.
The folder is named after the config's checkpoint (``_name_or_path``), as messages and scenes
name it."""

import atexit
import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Mapping

_root = None
_written = {}


def _config_json(config):
    if isinstance(config, Mapping):
        try:
            return json.dumps(dict(config), sort_keys=True, allow_nan=False)
        except (TypeError, ValueError) as e:
            raise ValueError(f"model: not a config dict of JSON values ({e})") from None
    if hasattr(config, "to_json_string"):  # transformers PretrainedConfig
        return config.to_json_string(use_diff=False)
    if hasattr(config, "to_dict"):
        return _config_json(config.to_dict())
    raise ValueError("model= takes a shipped model's name, a checkpoint folder, or a config "
                     f"(model.config or its dict; got {type(config).__name__})")


def _name(config):
    path = (config.get("_name_or_path") if isinstance(config, Mapping)
            else getattr(config, "_name_or_path", None) or getattr(config, "name_or_path", None))
    name = os.path.basename(str(path).rstrip("/")) if path else ""
    return re.sub(r"[^A-Za-z0-9._-]", "_", name) or "config"


def model_argument(model):
    """What the core reads for model=: the name or folder as given, or the folder a config was
    written to."""
    global _root
    if isinstance(model, (str, bytes, os.PathLike)):
        return os.fsdecode(model)
    text = _config_json(model)
    key = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    if key not in _written:
        if _root is None:
            _root = tempfile.mkdtemp(prefix="ropescope-models-")
            atexit.register(shutil.rmtree, _root, True)
        folder = os.path.join(_root, key, _name(model))
        os.makedirs(folder)
        with open(os.path.join(folder, "config.json"), "w", encoding="utf-8") as f:
            f.write(text)
        _written[key] = folder
    return _written[key]
