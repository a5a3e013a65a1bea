# Types of the package's functions for editors and type checkers: every keyword a function takes
# from the command line's option table (app/cli_options.cpp), so that editors complete them; the
# ranges are in each function's docstring, read from that table at import. Any other keyword is a
# design parameter (**params). python/tests/test_stub.py checks these keywords against the table.
import os
from collections.abc import Mapping, Sequence
from typing import Any, Optional, Union

import numpy as np
import numpy.typing as npt

__version__: str

Text = Union[str, bytes, os.PathLike[str]]
Number = Union[int, float]
Numbers = Union[Number, Sequence[Number], npt.NDArray[Any]]
Model = Union[str, bytes, os.PathLike[str], Mapping[str, Any], Any]  # name, folder or config
Tokens = Union[Mapping[str, Any], str, os.PathLike[str], Any]  # a processor output or its file
SceneInput = Union[Mapping[str, Any], str, os.PathLike[str]]
Float64Array = npt.NDArray[np.float64]
# rope_param=: {"factor": 4.0, "truncate": False, "short_factor": [...]}, or "factor=4" text.
RopeParams = Union[Mapping[str, Union[Number, bool, Sequence[Number]]], str, Sequence[str]]

class IdsCheck:
    identical: bool
    report: str
    differing: list[int]
    def __bool__(self) -> bool: ...

class DecayCurve(np.ndarray[Any, np.dtype[np.float64]]):
    label: str
    axis: Optional[str]
    unit: str
    rope: Optional[str]
    attention_factor: float
    logit_scale: float
    @property
    def distance(self) -> Float64Array: ...
    def plot(self, ax: Any = None) -> Any: ...

class DecayAxes:
    fields: tuple[str, ...]
    units: dict[str, str]
    distance: Float64Array
    t: Float64Array
    h: Float64Array
    w: Float64Array
    rope: Optional[str]
    attention_factor: float
    logit_scale: float
    def __getitem__(self, name: str) -> Float64Array: ...
    def plot(self, ax: Any = None) -> Any: ...

class Wavelengths(dict[str, Any]):
    units: dict[str, str]
    @property
    def attention_factor(self) -> float: ...
    @property
    def logit_scale(self) -> float: ...
    def plot(self, ax: Any = None) -> Any: ...

class Principles(dict[str, Any]):
    PRINCIPLES: tuple[str, ...]
    @property
    def verdicts(self) -> dict[str, tuple[str, str, str]]: ...
    def plot(self, ax: Any = None) -> Any: ...
    def plot_spectrum(self, ax: Any = None, row: int = 0) -> Any: ...

class IdBudget(dict[str, Any]):
    units: dict[str, str]
    @property
    def trained_length(self) -> Optional[int]: ...
    @property
    def yarn_factor(self) -> Optional[float]: ...
    def plot(self, ax: Any = None) -> Any: ...

class QkUsage(dict[str, Any]):
    units: dict[str, str]
    @property
    def theta(self) -> npt.NDArray[np.float64]: ...
    @property
    def axis(self) -> list[str]: ...
    @property
    def norm_product(self) -> npt.NDArray[np.float64]: ...
    @property
    def head_norm_product(self) -> npt.NDArray[np.float64]: ...
    @property
    def sink_names(self) -> list[str]: ...
    @property
    def sink(self) -> npt.NDArray[np.float64]: ...
    def plot(self, ax: Any = None) -> Any: ...
    def plot_sinks(self, ax: Any = None) -> Any: ...

class AttentionReadouts(dict[str, Any]):
    units: dict[str, str]
    @property
    def fading_tokens(self) -> npt.NDArray[np.int64]: ...
    @property
    def fading(self) -> Optional[npt.NDArray[np.float64]]: ...
    @property
    def fading_heads(self) -> Optional[npt.NDArray[np.float64]]: ...
    @property
    def picture_names(self) -> list[str]: ...
    def picture(self, name_or_index: Union[str, int]) -> dict[str, Any]: ...
    def plot(self, ax: Any = None) -> Any: ...

class AttentionValues(np.ndarray[Any, np.dtype[np.float32]]):
    rope: Optional[str]
    attention_factor: float
    logit_scale: float

class DesignComparison:
    fields: tuple[str, ...]
    units: dict[str, str]
    design: list[str]
    title: list[str]
    ptd: Float64Array
    bias_spread: Float64Array
    current: npt.NDArray[np.bool_]
    undefined: dict[str, str]
    n_text: int
    n_visual: int
    def __getitem__(self, name: str) -> Any: ...
    def __len__(self) -> int: ...
    def plot(self, ax: Any = None, metric: str = "ptd") -> Any: ...

class BiasProfile:
    fields: tuple[str, ...]
    units: dict[str, str]
    text: int
    token: int
    visual: npt.NDArray[np.int64]
    distance: Float64Array
    bias: Float64Array
    def __getitem__(self, name: str) -> Any: ...
    def plot(self, ax: Any = None) -> Any: ...

class Scene(dict[str, Any]):
    def tokens(self) -> tuple[Float64Array, npt.NDArray[np.str_]]: ...
    def plot(self, ax: Any = None) -> Any: ...

def ids(layout: Optional[Text] = None, *, design: Optional[str] = None,
        scene: Optional[SceneInput] = None, model: Optional[Model] = None,
        layer_type: Optional[str] = None, layer: Optional[int] = None,
        tokens: Optional[Tokens] = None, grid_preset: Optional[str] = None,
        min_pixels: Optional[int] = None, max_pixels: Optional[int] = None,
        patch: Optional[int] = None, merge: Optional[int] = None, rules: Optional[str] = None,
        ids: Optional[Text] = None, alpha: Optional[float] = None,
        radius: Union[float, str, None] = None, dff: Optional[float] = None,
        age_layer: Optional[int] = None, age_strategy: Optional[int] = None,
        layers: Optional[int] = None, plan: Optional[str] = None,
        head_dim: Optional[int] = None, rotary_dim: Optional[int] = None,
        pairs: Optional[str] = None, base: Optional[float] = None,
        sections: Optional[Numbers] = None, kv_heads: Optional[int] = None,
        kv_head: Optional[int] = None,
        max_position_id: Optional[int] = None, rope: Optional[str] = None,
        rope_param: Optional[RopeParams] = None, row: Optional[int] = None,
        **params: Any) -> Float64Array: ...

def ptd(layout: Optional[Text] = None, *, design: Optional[str] = None,
        scene: Optional[SceneInput] = None, model: Optional[Model] = None,
        layer_type: Optional[str] = None, layer: Optional[int] = None,
        tokens: Optional[Tokens] = None, grid_preset: Optional[str] = None,
        min_pixels: Optional[int] = None, max_pixels: Optional[int] = None,
        patch: Optional[int] = None, merge: Optional[int] = None, rules: Optional[str] = None,
        ids: Optional[Text] = None, alpha: Optional[float] = None,
        radius: Union[float, str, None] = None, dff: Optional[float] = None,
        age_layer: Optional[int] = None, age_strategy: Optional[int] = None,
        layers: Optional[int] = None, plan: Optional[str] = None,
        head_dim: Optional[int] = None, rotary_dim: Optional[int] = None,
        pairs: Optional[str] = None, base: Optional[float] = None,
        sections: Optional[Numbers] = None, kv_heads: Optional[int] = None,
        kv_head: Optional[int] = None, from_: Optional[str] = None, to: Optional[str] = None,
        threads: Optional[int] = None,
        max_position_id: Optional[int] = None, rope: Optional[str] = None,
        rope_param: Optional[RopeParams] = None, row: Optional[int] = None,
        **params: Any) -> float: ...

def bias_spread(layout: Optional[Text] = None, *, design: Optional[str] = None,
                scene: Optional[SceneInput] = None, model: Optional[Model] = None,
                layer_type: Optional[str] = None, layer: Optional[int] = None,
                tokens: Optional[Tokens] = None, grid_preset: Optional[str] = None,
                min_pixels: Optional[int] = None, max_pixels: Optional[int] = None,
                patch: Optional[int] = None, merge: Optional[int] = None,
                rules: Optional[str] = None, ids: Optional[Text] = None,
                alpha: Optional[float] = None, radius: Union[float, str, None] = None,
                dff: Optional[float] = None, age_layer: Optional[int] = None,
                age_strategy: Optional[int] = None, layers: Optional[int] = None,
                plan: Optional[str] = None, head_dim: Optional[int] = None,
                rotary_dim: Optional[int] = None, pairs: Optional[str] = None,
                base: Optional[float] = None, sections: Optional[Numbers] = None,
                kv_heads: Optional[int] = None, kv_head: Optional[int] = None,
                from_: Optional[str] = None, to: Optional[str] = None,
                threads: Optional[int] = None,
                max_position_id: Optional[int] = None, rope: Optional[str] = None,
        rope_param: Optional[RopeParams] = None, row: Optional[int] = None,
        **params: Any) -> float: ...

def compare(layout: Optional[Text] = None, *, design: Optional[str] = None,
            scene: Optional[SceneInput] = None, model: Optional[Model] = None,
            layer_type: Optional[str] = None, layer: Optional[int] = None,
            tokens: Optional[Tokens] = None, grid_preset: Optional[str] = None,
            min_pixels: Optional[int] = None, max_pixels: Optional[int] = None,
            patch: Optional[int] = None, merge: Optional[int] = None, rules: Optional[str] = None,
            ids: Optional[Text] = None, alpha: Optional[float] = None,
            radius: Union[float, str, None] = None, dff: Optional[float] = None,
            age_layer: Optional[int] = None, age_strategy: Optional[int] = None,
            layers: Optional[int] = None, plan: Optional[str] = None,
            head_dim: Optional[int] = None, rotary_dim: Optional[int] = None,
            pairs: Optional[str] = None, base: Optional[float] = None,
            sections: Optional[Numbers] = None, kv_heads: Optional[int] = None,
            kv_head: Optional[int] = None, threads: Optional[int] = None,
            max_position_id: Optional[int] = None, rope: Optional[str] = None,
        rope_param: Optional[RopeParams] = None, row: Optional[int] = None,
        **params: Any) -> DesignComparison: ...

def profile(layout: Optional[Text] = None, *, text: int = 0, design: Optional[str] = None,
            scene: Optional[SceneInput] = None, model: Optional[Model] = None,
            layer_type: Optional[str] = None, layer: Optional[int] = None,
            tokens: Optional[Tokens] = None, grid_preset: Optional[str] = None,
            min_pixels: Optional[int] = None, max_pixels: Optional[int] = None,
            patch: Optional[int] = None, merge: Optional[int] = None, rules: Optional[str] = None,
            ids: Optional[Text] = None, alpha: Optional[float] = None,
            radius: Union[float, str, None] = None, dff: Optional[float] = None,
            age_layer: Optional[int] = None, age_strategy: Optional[int] = None,
            layers: Optional[int] = None, plan: Optional[str] = None,
            head_dim: Optional[int] = None, rotary_dim: Optional[int] = None,
            pairs: Optional[str] = None, base: Optional[float] = None,
            sections: Optional[Numbers] = None, kv_heads: Optional[int] = None,
            kv_head: Optional[int] = None, threads: Optional[int] = None,
            max_position_id: Optional[int] = None, rope: Optional[str] = None,
        rope_param: Optional[RopeParams] = None, row: Optional[int] = None,
        **params: Any) -> BiasProfile: ...

def decay(*, plan: Optional[str] = None, base: Optional[float] = None,
          axis: Optional[str] = None, max_distance: Optional[int] = None,
          model: Optional[Model] = None,
          layer_type: Optional[str] = None, layer: Optional[int] = None, scene: Optional[SceneInput] = None,
          head_dim: Optional[int] = None, rotary_dim: Optional[int] = None,
          pairs: Optional[str] = None, sections: Optional[Numbers] = None,
          kv_heads: Optional[int] = None, kv_head: Optional[int] = None,
          direction: Optional[Sequence[float]] = None, form: Optional[str] = None,
          threads: Optional[int] = None,
        max_position_id: Optional[int] = None, rope: Optional[str] = None,
        rope_param: Optional[RopeParams] = None) -> DecayCurve: ...

def decay_axes(*, plan: Optional[str] = None, base: Optional[float] = None,
               max_distance: Optional[int] = None, model: Optional[Model] = None,
               layer_type: Optional[str] = None, layer: Optional[int] = None,
               scene: Optional[SceneInput] = None, head_dim: Optional[int] = None,
               rotary_dim: Optional[int] = None, pairs: Optional[str] = None,
               sections: Optional[Numbers] = None, kv_heads: Optional[int] = None,
               kv_head: Optional[int] = None, form: Optional[str] = None,
               threads: Optional[int] = None,
        max_position_id: Optional[int] = None, rope: Optional[str] = None,
        rope_param: Optional[RopeParams] = None) -> DecayAxes: ...

def freqs(*, plan: Optional[str] = None, base: Optional[float] = None,
          model: Optional[Model] = None,
          layer_type: Optional[str] = None, layer: Optional[int] = None, scene: Optional[SceneInput] = None,
          head_dim: Optional[int] = None, rotary_dim: Optional[int] = None,
          pairs: Optional[str] = None, sections: Optional[Numbers] = None,
          kv_heads: Optional[int] = None, kv_head: Optional[int] = None,
          context: Optional[float] = None,
        max_position_id: Optional[int] = None, rope: Optional[str] = None,
        rope_param: Optional[RopeParams] = None) -> Wavelengths: ...

def grid(*pictures: Text, design: Optional[str] = None, grid_preset: Optional[str] = None,
         preset: Optional[str] = None,
         min_pixels: Optional[int] = None, max_pixels: Optional[int] = None,
         patch: Optional[int] = None, merge: Optional[int] = None) -> list[dict[str, Any]]: ...

def attention(q: Optional[npt.ArrayLike] = None, k: Optional[npt.ArrayLike] = None,
              layout: Optional[Text] = None, *, design: Optional[str] = None,
              scene: Optional[SceneInput] = None, model: Optional[Model] = None,
              layer_type: Optional[str] = None, layer: Optional[int] = None,
              tokens: Optional[Tokens] = None, qk: Optional[str] = None, heads: int = 1,
              seed: int = 0, causal: bool = False, softmax: bool = False,
              rows: Union[tuple[int, int], slice, None] = None, pool: int = 0,
              threads: int = 0, grid_preset: Optional[str] = None,
              min_pixels: Optional[int] = None, max_pixels: Optional[int] = None,
              patch: Optional[int] = None, merge: Optional[int] = None,
              rules: Optional[str] = None, ids: Optional[Text] = None,
              alpha: Optional[float] = None, radius: Union[float, str, None] = None,
              dff: Optional[float] = None, age_layer: Optional[int] = None,
              age_strategy: Optional[int] = None, layers: Optional[int] = None,
              plan: Optional[str] = None, head_dim: Optional[int] = None,
              rotary_dim: Optional[int] = None, pairs: Optional[str] = None,
              base: Optional[float] = None, sections: Optional[Numbers] = None,
              kv_heads: Optional[int] = None, kv_head: Optional[int] = None,
              max_position_id: Optional[int] = None, rope: Optional[str] = None,
        rope_param: Optional[RopeParams] = None, row: Optional[int] = None,
        **params: Any) -> AttentionValues: ...

def layers(model: Model) -> dict[str, Any]: ...
def attention_readouts(q: Optional[npt.ArrayLike] = None, k: Optional[npt.ArrayLike] = None,
              layout: Optional[Text] = None, *, design: Optional[str] = None,
              scene: Optional[SceneInput] = None, model: Optional[Model] = None,
              layer_type: Optional[str] = None, layer: Optional[int] = None,
              tokens: Optional[Tokens] = None, qk: Optional[str] = None, heads: int = 1,
              seed: int = 0, threads: int = 0, grid_preset: Optional[str] = None,
              min_pixels: Optional[int] = None, max_pixels: Optional[int] = None,
              patch: Optional[int] = None, merge: Optional[int] = None,
              rules: Optional[str] = None, ids: Optional[Text] = None,
              alpha: Optional[float] = None, radius: Union[float, str, None] = None,
              dff: Optional[float] = None, age_layer: Optional[int] = None,
              age_strategy: Optional[int] = None, layers: Optional[int] = None,
              plan: Optional[str] = None, head_dim: Optional[int] = None,
              rotary_dim: Optional[int] = None, pairs: Optional[str] = None,
              base: Optional[float] = None, sections: Optional[Numbers] = None,
              kv_heads: Optional[int] = None, kv_head: Optional[int] = None,
              max_position_id: Optional[int] = None, rope: Optional[str] = None,
        rope_param: Optional[RopeParams] = None, row: Optional[int] = None,
        **params: Any) -> AttentionReadouts: ...

def rotary(layout: Optional[Text] = None, *, design: Optional[str] = None,
           scene: Optional[SceneInput] = None, model: Optional[Model] = None,
           layer_type: Optional[str] = None, layer: Optional[int] = None,
           tokens: Optional[Tokens] = None, q: Optional[npt.ArrayLike] = None,
           k: Optional[npt.ArrayLike] = None, grid_preset: Optional[str] = None,
           min_pixels: Optional[int] = None, max_pixels: Optional[int] = None,
           patch: Optional[int] = None, merge: Optional[int] = None,
           rules: Optional[str] = None, ids: Optional[Text] = None,
           alpha: Optional[float] = None, radius: Union[float, str, None] = None,
           dff: Optional[float] = None, age_layer: Optional[int] = None,
           age_strategy: Optional[int] = None, layers: Optional[int] = None,
           plan: Optional[str] = None, head_dim: Optional[int] = None,
           rotary_dim: Optional[int] = None, pairs: Optional[str] = None,
           base: Optional[float] = None, sections: Optional[Numbers] = None,
           kv_heads: Optional[int] = None, kv_head: Optional[int] = None,
           max_position_id: Optional[int] = None, rope: Optional[str] = None,
           rope_param: Optional[RopeParams] = None, row: Optional[int] = None,
           **params: Any) -> dict[str, Any]: ...


def pixel_map(layout: Optional[Text] = None, *, design: Optional[str] = None,
              scene: Optional[SceneInput] = None, model: Optional[Model] = None,
              layer_type: Optional[str] = None, layer: Optional[int] = None, tokens: Optional[Tokens] = None,
              temporal_patch_size: Optional[int] = None, grid_preset: Optional[str] = None,
              min_pixels: Optional[int] = None, max_pixels: Optional[int] = None,
              patch: Optional[int] = None, merge: Optional[int] = None,
              rules: Optional[str] = None, ids: Optional[Text] = None,
              alpha: Optional[float] = None, radius: Union[float, str, None] = None,
              dff: Optional[float] = None, age_layer: Optional[int] = None,
              age_strategy: Optional[int] = None, layers: Optional[int] = None,
              row: Optional[int] = None, **params: Any) -> dict[str, Any]: ...


def budget(layout: Optional[Text] = None, *, design: Optional[str] = None,
           scene: Optional[SceneInput] = None, model: Optional[Model] = None,
           layer_type: Optional[str] = None, layer: Optional[int] = None,
           tokens: Optional[Tokens] = None, points: Optional[int] = None,
           trained_length: Optional[int] = None, grid_preset: Optional[str] = None,
           min_pixels: Optional[int] = None, max_pixels: Optional[int] = None,
           patch: Optional[int] = None, merge: Optional[int] = None,
           rules: Optional[str] = None, ids: Optional[Text] = None,
           alpha: Optional[float] = None, radius: Union[float, str, None] = None,
           dff: Optional[float] = None, age_layer: Optional[int] = None,
           age_strategy: Optional[int] = None, layers: Optional[int] = None,
           plan: Optional[str] = None, head_dim: Optional[int] = None,
           rotary_dim: Optional[int] = None, pairs: Optional[str] = None,
           base: Optional[float] = None, sections: Optional[Numbers] = None,
           kv_heads: Optional[int] = None, kv_head: Optional[int] = None,
           max_position_id: Optional[int] = None, rope: Optional[str] = None,
           rope_param: Optional[RopeParams] = None, row: Optional[int] = None,
           **params: Any) -> IdBudget: ...
def qk_usage(q: npt.ArrayLike, k: npt.ArrayLike, layout: Optional[Text] = None, *,
             design: Optional[str] = None,
             scene: Optional[SceneInput] = None, model: Optional[Model] = None,
             layer_type: Optional[str] = None, layer: Optional[int] = None,
             tokens: Optional[Tokens] = None, threads: Optional[int] = None,
             grid_preset: Optional[str] = None,
             min_pixels: Optional[int] = None, max_pixels: Optional[int] = None,
             patch: Optional[int] = None, merge: Optional[int] = None,
             rules: Optional[str] = None, ids: Optional[Text] = None,
             alpha: Optional[float] = None, radius: Union[float, str, None] = None,
             dff: Optional[float] = None, age_layer: Optional[int] = None,
             age_strategy: Optional[int] = None, layers: Optional[int] = None,
             plan: Optional[str] = None, head_dim: Optional[int] = None,
             rotary_dim: Optional[int] = None, pairs: Optional[str] = None,
             base: Optional[float] = None, sections: Optional[Numbers] = None,
             kv_heads: Optional[int] = None, kv_head: Optional[int] = None,
             max_position_id: Optional[int] = None, rope: Optional[str] = None,
             rope_param: Optional[RopeParams] = None, row: Optional[int] = None,
             **params: Any) -> QkUsage: ...
def principles(layout: Optional[Text] = None, *, design: Optional[str] = None,
             scene: Optional[SceneInput] = None, model: Optional[Model] = None,
             layer_type: Optional[str] = None, layer: Optional[int] = None,
             tokens: Optional[Tokens] = None, designs: str = "scene",
             grid_preset: Optional[str] = None,
             min_pixels: Optional[int] = None, max_pixels: Optional[int] = None,
             patch: Optional[int] = None, merge: Optional[int] = None,
             rules: Optional[str] = None, ids: Optional[Text] = None,
             alpha: Optional[float] = None, radius: Union[float, str, None] = None,
             dff: Optional[float] = None, age_layer: Optional[int] = None,
             age_strategy: Optional[int] = None, layers: Optional[int] = None,
             plan: Optional[str] = None, head_dim: Optional[int] = None,
             rotary_dim: Optional[int] = None, pairs: Optional[str] = None,
             base: Optional[float] = None, sections: Optional[Numbers] = None,
             kv_heads: Optional[int] = None, kv_head: Optional[int] = None,
             max_position_id: Optional[int] = None, rope: Optional[str] = None,
             rope_param: Optional[RopeParams] = None, row: Optional[int] = None,
             **params: Any) -> Principles: ...


def scene(layout: Optional[Text] = None, *, design: Optional[str] = None,
          scene: Optional[SceneInput] = None, model: Optional[Model] = None,
          layer_type: Optional[str] = None, layer: Optional[int] = None,
          tokens: Optional[Tokens] = None, grid_preset: Optional[str] = None,
          min_pixels: Optional[int] = None, max_pixels: Optional[int] = None,
          patch: Optional[int] = None, merge: Optional[int] = None, rules: Optional[str] = None,
          ids: Optional[Text] = None, alpha: Optional[float] = None,
          radius: Union[float, str, None] = None, dff: Optional[float] = None,
          age_layer: Optional[int] = None, age_strategy: Optional[int] = None,
          layers: Optional[int] = None, plan: Optional[str] = None,
          head_dim: Optional[int] = None, rotary_dim: Optional[int] = None,
          pairs: Optional[str] = None, base: Optional[float] = None,
          sections: Optional[Numbers] = None, kv_heads: Optional[int] = None,
          kv_head: Optional[int] = None,
          max_position_id: Optional[int] = None, rope: Optional[str] = None,
        rope_param: Optional[RopeParams] = None, row: Optional[int] = None,
        **params: Any) -> Scene: ...

def load_scene(path: Text) -> Scene: ...
def save_scene(scene: Mapping[str, Any], path: Text) -> None: ...
def check_ids(position_ids: npt.ArrayLike, *, model: Model, tokens: Tokens,
              rules: Optional[str] = None) -> IdsCheck: ...
def designs() -> list[dict[str, Any]]: ...
def models() -> list[str]: ...
