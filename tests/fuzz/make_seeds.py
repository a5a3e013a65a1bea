#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz targets (tests/fuzz/corpus/<target>/): small hand-made
valid and near-valid inputs. Standard library only; rerun after changing it and commit the
result. Pictures are built byte by byte (headers, not decodable art): the probe reads headers."""
import json
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.join(HERE, "..", "..", "resources", "samples")


def put(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


# ---- layout specs (README, tests/core) ----------------------------------------------------
LAYOUTS = [
    "t5,i3x3,t2", "i3x3,t5", "t1,i2x2,t1", "t2,v2x2x3,t1", "t5,i6x7,t3,v2x3x4,t2",
    "t16384,i64x128,t8192", " t1 , i2x2 ", "v3x1x1", "t5,img:castle.png,t3",
    "t4,vid:moving.gif,t4", "t2,vid:frames/,t1", "vid:frames/frame_1.png+frames/frame_2.png",
    "img:castle.jpg,t1,img:checker.png", "t4096,v1x4096x1",
    # near-valid
    "t5,i0x3", "t5,,i3x3", "t5,i3x3,", "i3", "v2x2", "t-1", "t+3", "i3x3x", "x", "t99999999999999",
    "img:", "vid:", "img:missing.png", "vid:frames/nothere.png+frames/frame_1.png", "vid:+",
    "t262144", "t262145", "i4097x1", "q5",
]
for i, s in enumerate(LAYOUTS):
    put("layout", "spec%02d" % i, s)
# aud: items (the sample sound, and bad ones)
for i, s in enumerate(["t3,aud:chirp.wav,t2", "aud:chirp.wav,img:checker.png", "aud:",
                       "aud:missing.wav", "aud:castle.png", "aud:frames/"]):
    put("layout", "sound%02d" % i, s)


# ---- scene files -------------------------------------------------------------------------
def scene(**over):
    s = {
        "format": "ropescope-scene", "version": 1, "layout": "t4,i6x6,t8",
        "image_grid": {"min_pixels": 3136, "max_pixels": 12845056, "patch": 14, "merge": 2},
        "design": "circle",
        "design_params": {"alpha": 0.5, "radius_mode": "auto", "move_to_positive": "off",
                          "no_circle": False},
        "frequency": {"plan": "mrope", "head_dim": 128, "rotary_dim": 128, "base": 1000000.0,
                      "sections": [16, 24, 24], "kv_heads": 0, "kv_head": 0},
        "age": {"layers": 36, "strategy": "all", "layer": -1},
        "selected_text": 0,
    }
    for k, v in over.items():
        if v is None:
            s.pop(k, None)
        else:
            s[k] = v
    return json.dumps(s, indent=2) + "\n"


SCENES = [
    scene(),
    scene(design="hope", design_params={"temporal_scale": 0.75}, layout="t3,v2x3x4,t1"),
    scene(design="videorope", design_params={}, frequency={"plan": "videorope"}),
    scene(design="v2pe", design_params={}, layout="t5,img:castle.png,t3"),
    scene(design="mrope-reset", design_params={}, layout="t2,vid:moving.gif,t2"),
    scene(design="spatial", design_params={}, frequency={"plan": "interleaved"}),
    scene(design="unordered", design_params={}, frequency={"plan": "multihead", "kv_heads": 4,
                                                           "kv_head": 1}),
    scene(design="hard", design_params={}, frequency={"plan": "vanilla", "sections": []}),
    scene(age={"layers": 4, "strategy": "alternate", "layer": 3}),
    scene(design_params=None, frequency=None, age=None, image_grid=None),
    # near-valid
    scene(version=2), scene(format="other"), scene(layout="t5,i0x3"), scene(design="nope"),
    scene(design_params={"alpha": "big"}), scene(frequency={"head_dim": -4}),
    scene(frequency={"sections": [1, 2, 3, 4]}), scene(age={"layers": 0}),
    scene(selected_text=-1), scene(extra=1), scene(image_grid={"patch": 0}),
    '{"format": "ropescope-scene", "version": 1, "layout": "t1"',  # truncated
    "[1, 2, 3]\n", "", "{}", '{"format": "ropescope-scene", "version": 1.5, "layout": "t1"}',
]
for i, s in enumerate(SCENES):
    put("scene", "scene%02d.json" % i, s)


# ---- .npy arrays -------------------------------------------------------------------------
def npy(descr, shape, payload, fortran=False, major=1):
    shp = "(" + "".join("%d, " % d for d in shape).rstrip(" ") + ")" if len(shape) != 1 else \
        "(%d,)" % shape[0]
    if len(shape) > 1:
        shp = "(" + ", ".join(str(d) for d in shape) + ")"
    h = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, "True" if fortran else "False", shp)
    pre = 10 if major == 1 else 12
    h += " " * ((64 - (pre + len(h) + 1) % 64) % 64) + "\n"
    if major == 1:
        head = b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h))
    else:
        head = b"\x93NUMPY" + bytes([major, 0]) + struct.pack("<I", len(h))
    return head + h.encode("latin1") + payload


vals = [0.0, 1.0, -2.5, 3.25, 1e-3, 65504.0]
put("npy", "f4.npy", npy("<f4", [2, 3], struct.pack("<6f", *vals)))
put("npy", "f4_be.npy", npy(">f4", [6], struct.pack(">6f", *vals)))
put("npy", "f2.npy", npy("<f2", [3, 2], struct.pack("<6e", *vals)))
put("npy", "f2_be.npy", npy(">f2", [2, 1, 3], struct.pack(">6e", *vals)))
put("npy", "f8.npy", npy("<f8", [1, 6], struct.pack("<6d", *vals)))
put("npy", "f8_v2.npy", npy("<f8", [6], struct.pack("<6d", *vals), major=2))
put("npy", "f4_v3.npy", npy("<f4", [2, 3], struct.pack("<6f", *vals), major=3))
put("npy", "scalar.npy", npy("<f4", [], struct.pack("<f", 7.0)))
put("npy", "empty.npy", npy("<f4", [0, 4], b""))
# near-valid
put("npy", "bf16.npy", npy("<V2", [3], b"\x00" * 6))
put("npy", "i4.npy", npy("<i4", [2], b"\x00" * 8))
put("npy", "fortran.npy", npy("<f4", [2, 3], struct.pack("<6f", *vals), fortran=True))
put("npy", "truncated.npy", npy("<f4", [2, 3], struct.pack("<5f", *vals[:5])))
put("npy", "trailing.npy", npy("<f4", [2], struct.pack("<3f", *vals[:3])))
put("npy", "huge_shape.npy", npy("<f4", [1 << 20, 1 << 20, 1 << 20], b""))
put("npy", "bad_magic.npy", b"\x93NUMPZ\x01\x00\x10\x00{}" + b" " * 13 + b"\n")
put("npy", "no_newline.npy", b"\x93NUMPY\x01\x00\x04\x00{}  ")


# ---- picture headers ---------------------------------------------------------------------
def png(w, h, extra_chunks=(), end=True):
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    raw = b"".join(b"\x00" + b"\x80" * (w * 3) for _ in range(h))
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    for t, d in extra_chunks:
        out += chunk(t, d)
    out += chunk(b"IDAT", zlib.compress(raw))
    return out + (chunk(b"IEND", b"") if end else b"")


def exif(orientation, little=True):
    e = "<" if little else ">"
    tiff = (b"II*\x00" if little else b"MM\x00*") + struct.pack(e + "I", 8)
    tiff += struct.pack(e + "H", 1) + struct.pack(e + "HHIHH", 0x0112, 3, 1, orientation, 0)
    tiff += struct.pack(e + "I", 0)
    return b"Exif\x00\x00" + tiff


def jpeg(w, h, orientation=None, sof=0xC0):
    def seg(m, d):
        return bytes([0xFF, m]) + struct.pack(">H", len(d) + 2) + d
    out = b"\xff\xd8" + seg(0xE0, b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00")
    if orientation:
        out += seg(0xE1, exif(orientation))
    out += seg(0xDB, b"\x00" + bytes(range(1, 65)))
    out += seg(sof, struct.pack(">BHHB", 8, h, w, 1) + b"\x01\x11\x00")
    out += seg(0xC4, b"\x00" + bytes([0, 1] + [0] * 14) + b"\x00")
    out += seg(0xDA, b"\x01\x01\x00\x00\x3f\x00")
    return out + b"\x12\x34\xff\x00\x56\xff\xd0\x78" + b"\xff\xd9"


def bmp(w, h, bpp=24, dib=40):
    stride = ((w * bpp + 31) // 32) * 4
    data = b"\x00" * (stride * abs(h))
    if dib == 12:
        info = struct.pack("<IHHHH", 12, w, h, 1, bpp)
    else:
        info = struct.pack("<IiiHHIIiiII", 40, w, h, 1, bpp, 0, len(data), 2835, 2835, 0, 0)
    off = 14 + len(info)
    return b"BM" + struct.pack("<IHHI", off + len(data), 0, 0, off) + info + data


def riff(chunks):
    body = b"WEBP" + b"".join(t + struct.pack("<I", len(d)) + d + (b"\x00" if len(d) & 1 else b"")
                              for t, d in chunks)
    return b"RIFF" + struct.pack("<I", len(body)) + body


def webp_vp8(w, h):
    d = b"\x10\x02\x00" + b"\x9d\x01\x2a" + struct.pack("<HH", w, h) + b"\x00" * 8
    return riff([(b"VP8 ", d)])


def webp_vp8l(w, h):
    bits = (w - 1) | ((h - 1) << 14)
    return riff([(b"VP8L", b"\x2f" + struct.pack("<I", bits) + b"\x00" * 5)])


def webp_anim(w, h, frames, ms):
    vp8x = bytes([0x02, 0, 0, 0]) + struct.pack("<I", w - 1)[:3] + struct.pack("<I", h - 1)[:3]
    chunks = [(b"VP8X", vp8x), (b"ANIM", b"\x00" * 6)]
    for _ in range(frames):
        anmf = b"\x00" * 6 + struct.pack("<I", w - 1)[:3] + struct.pack("<I", h - 1)[:3]
        anmf += struct.pack("<I", ms)[:3] + b"\x00"
        chunks.append((b"ANMF", anmf + webp_vp8l(w, h)[12:]))
    return riff(chunks)


def gif(w, h, frames=1, delay=10):
    out = b"GIF89a" + struct.pack("<HHBBB", w, h, 0x80, 0, 0) + b"\x00\x00\x00\xff\xff\xff"
    for _ in range(frames):
        out += b"\x21\xf9\x04\x00" + struct.pack("<H", delay) + b"\x00\x00"
        out += b"\x2c" + struct.pack("<HHHHB", 0, 0, w, h, 0) + b"\x02\x02\x44\x01\x00"
    return out + b"\x3b"


def tiff(w, h, little=True, orientation=1):
    e = "<" if little else ">"
    data = b"\x00" * (w * h)
    entries = [(256, 3, 1, w), (257, 3, 1, h), (258, 3, 1, 8), (259, 3, 1, 1),
               (273, 4, 1, 8), (274, 3, 1, orientation), (279, 4, 1, len(data))]
    ifd_at = 8 + len(data)
    out = (b"II*\x00" if little else b"MM\x00*") + struct.pack(e + "I", ifd_at) + data
    out += struct.pack(e + "H", len(entries))
    for tag, typ, n, v in entries:
        val = struct.pack(e + "HH", v, 0) if typ == 3 else struct.pack(e + "I", v)
        out += struct.pack(e + "HHI", tag, typ, n) + val
    return out + struct.pack(e + "I", 0)


put("image", "rgb.png", png(4, 3))
put("image", "text.png", png(2, 2, [(b"tEXt", b"Comment\x00hi")]))
put("image", "noend.png", png(2, 2, end=False))
put("image", "huge.png", png(1, 1)[:16] + struct.pack(">II", 30000, 30000) + png(1, 1)[24:])
put("image", "plain.jpg", jpeg(5, 4))
put("image", "rot6.jpg", jpeg(5, 4, orientation=6))
put("image", "progressive.jpg", jpeg(8, 8, sof=0xC2))
put("image", "lossless.jpg", jpeg(8, 8, sof=0xC3))
put("image", "rgb.bmp", bmp(3, 2))
put("image", "topdown.bmp", bmp(3, -2))
put("image", "core.bmp", bmp(2, 2, dib=12))
put("image", "vp8.webp", webp_vp8(16, 9))
put("image", "vp8l.webp", webp_vp8l(7, 5))
put("image", "anim.webp", webp_anim(4, 4, 3, 100))
put("image", "one.gif", gif(3, 3))
put("image", "anim.gif", gif(3, 3, frames=3, delay=5))
put("image", "le.tif", tiff(3, 2))
put("image", "be_rot8.tif", tiff(3, 2, little=False, orientation=8))
put("image", "truncated.png", png(4, 3)[:40])
put("image", "psd.bin", b"8BPS\x00\x01" + b"\x00" * 20)
for name in ("castle.jpg", "moving.gif"):
    with open(os.path.join(SAMPLES, name), "rb") as f:
        put("image", "sample_" + name, f.read())


# ---- model configs (resources/models, and hostile near-copies) ---------------------------
MODELS = os.path.join(HERE, "..", "..", "resources", "models")
for name in sorted(os.listdir(MODELS)):
    folder = os.path.join(MODELS, name)
    if not os.path.isdir(folder):
        continue
    for fname in sorted(os.listdir(folder)):
        if fname.endswith(".json"):
            with open(os.path.join(folder, fname), "rb") as f:
                put("model_config", name + "_" + fname, f.read())
QWEN = {"model_type": "qwen2_5_vl", "hidden_size": 3584, "num_attention_heads": 28,
        "rope_theta": 1000000.0, "rope_scaling": {"mrope_section": [16, 24, 24]},
        "vision_config": {"patch_size": 14, "spatial_merge_size": 2, "tokens_per_second": 2}}
for i, over in enumerate([{"model_type": "llava"}, {"rope_theta": "x"}, {"hidden_size": 1e300},
                          {"num_attention_heads": 0}, {"rope_scaling": {"mrope_section": [1]}},
                          {"partial_rotary_factor": 0.3}, {"vision_config": []},
                          {"image_token_id": -1}, {"head_dim": 3}]):
    put("model_config", "hostile%02d.json" % i, json.dumps(dict(QWEN, **over)))
# Context extension: every rope type, and hostile scalings (factor <= 0, NaN as text,
# beta_fast <= beta_slow, a factor list of the wrong length, an unknown type or key, per layer).
ROPE_BLOCKS = [
    {"type": "yarn", "factor": 4, "original_max_position_embeddings": 32768},
    {"rope_type": "yarn", "factor": 40.0, "original_max_position_embeddings": 4096,
     "mscale": 1.0, "mscale_all_dim": 0.707, "beta_fast": 32, "beta_slow": 1, "truncate": False},
    {"rope_type": "linear", "factor": 8.0},
    {"rope_type": "dynamic", "factor": 2.0},
    {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
     "original_max_position_embeddings": 8192},
    {"rope_type": "longrope", "short_factor": [1.0] * 64, "long_factor": [2.0] * 64,
     "original_max_position_embeddings": 4096},
    {"rope_type": "proportional", "partial_rotary_factor": 0.25},
    {"type": "yarn", "factor": 0, "original_max_position_embeddings": 32768},
    {"type": "yarn", "factor": -4, "original_max_position_embeddings": 32768},
    {"type": "yarn", "factor": "NaN", "original_max_position_embeddings": 32768},
    {"type": "yarn", "factor": 4, "original_max_position_embeddings": 32768, "beta_fast": 1,
     "beta_slow": 32},
    {"rope_type": "longrope", "short_factor": [1.0] * 3, "long_factor": [2.0] * 64,
     "original_max_position_embeddings": 4096, "factor": 4},
    {"rope_type": "ntk-by-parts", "factor": 4},
    {"type": "yarn", "factor": 4, "original_max_position_embeddings": 32768, "ramp": 1},
    {"full_attention": {"rope_type": "yarn", "factor": 4}},
]
for i, block in enumerate(ROPE_BLOCKS):
    put("model_config", "rope%02d.json" % i,
        json.dumps(dict(QWEN, max_position_embeddings=128000,
                        rope_scaling=dict(block, mrope_section=[16, 24, 24]))))
# Text-only decoders (text_model.h), with a rope block per layer type (5.x) and its mistakes.
LLAMA = {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
         "max_position_embeddings": 131072, "rope_theta": 500000.0}
PER_LAYER = {"sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
             "full_attention": {"rope_type": "proportional", "partial_rotary_factor": 0.25,
                                "rope_theta": 1000000.0}}
for i, over in enumerate([{"rope_parameters": PER_LAYER, "head_dim": 512},
                          {"rope_parameters": dict(PER_LAYER, original_max_position_embeddings=1)},
                          {"rope_parameters": {"full_attention": {"rope_type": "yarn"}}},
                          {"rope_scaling": {"type": "default", "mrope_section": [16, 24, 24]}},
                          {"model_type": "phi3", "partial_rotary_factor": 0.5},
                          {"model_type": "gemma3_text"}]):
    put("model_config", "text%02d.json" % i, json.dumps(dict(LLAMA, **over)))
put("model_config", "not_json", "{\"model_type\": ")
put("model_config", "min_pixels.json", json.dumps({"min_pixels": 3136, "max_pixels": 12845056}))


# ---- processor outputs (tokens files; ids as in tokens_fuzz.cpp: image 5, video 6, ...) ----
def tokens(name, **keys):
    put("tokens", name + ".json", json.dumps(keys))


tokens("image", input_ids=[[1, 3] + [5] * 6 + [4, 2]], image_grid_thw=[[1, 4, 6]])
tokens("padded", input_ids=[[0, 0, 1, 3] + [5] * 4 + [4]],
       attention_mask=[[0, 0, 1, 1, 1, 1, 1, 1, 1]], image_grid_thw=[[1, 4, 4]])
tokens("mm_types", input_ids=[1, 3, 9, 9, 9, 9, 4], mm_token_type_ids=[0, 0, 1, 1, 1, 1, 0],
       image_grid_thw=[[1, 4, 4]])
tokens("video", input_ids=[[1, 3] + [6] * 16 + [4]], video_grid_thw=[[4, 4, 4]],
       second_per_grid_ts=[0.5])
tokens("frames", input_ids=[[1, 20, 21, 3] + [6] * 4 + [4, 20, 22, 3] + [6] * 4 + [4, 2]],
       video_grid_thw=[[2, 4, 4]])
tokens("glm", input_ids=[[1, 7, 3] + [5] * 4 + [4, 30, 3] + [5] * 4 + [4, 31, 8]],
       video_grid_thw=[[2, 4, 4]])
tokens("pixels", pixel_values=[[0.5] * 64] * 8, input_ids=[[1, 2]], other={"a": [1, "x"]})
tokens("mismatch", input_ids=[[1, 3] + [5] * 5 + [4]], image_grid_thw=[[1, 4, 6]])
tokens("batch", input_ids=[[1, 2], [3, 4]])
tokens("ragged", input_ids=[[1, 2], [3]])
put("tokens", "not_json", "{\"input_ids\": [1,")


# ---- sound files (WAV built byte by byte; FLAC and OGG seeds are small files libsndfile
# wrote, committed as they are: sound_flac.flac, sound_vorbis.ogg) ----------------------------
def wav(rate, channels, bits, frames, fmt_tag=1, data_len=None, extra=b""):
    block = channels * bits // 8
    data = bytes((i * 37) & 0xFF for i in range(frames * block))
    n = len(data) if data_len is None else data_len
    fmt = struct.pack("<HHIIHH", fmt_tag, channels, rate, rate * block, block, bits)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + extra
    body += b"data" + struct.pack("<I", n) + data
    return b"RIFF" + struct.pack("<I", len(body)) + body


put("sound", "pcm16.wav", wav(16000, 1, 16, 400))
put("sound", "stereo8.wav", wav(8000, 2, 8, 300))
put("sound", "float.wav", wav(44100, 1, 32, 200, fmt_tag=3))
put("sound", "list.wav", wav(22050, 1, 16, 100, extra=b"LIST" + struct.pack("<I", 4) + b"INFO"))
put("sound", "cut.wav", wav(16000, 1, 16, 400)[:300])
put("sound", "claims_more.wav", wav(16000, 2, 16, 10, data_len=0xFFFFFF00))
put("sound", "many_channels.wav", wav(16000, 65, 16, 2))
put("sound", "fast.wav", wav(4000000, 1, 16, 8))
put("sound", "header_only.wav", wav(16000, 1, 16, 0, data_len=1000))
put("sound", "not_sound.mp3", b"ID3\x03\x00\x00\x00\x00\x00\x10" + b"\xff\xfb" * 20)
