#!/usr/bin/env python3
"""Writes chirp.wav: 3 s, 16 kHz, mono, 16-bit PCM. A sine sweeping 200 Hz -> 3200 Hz with the
phase of a linear chirp, 10 ms fades at both ends, peak 0.5. Python's standard library only, so
the bytes are the same on every machine. Run from resources/samples/ (make.sh does)."""
import math
import struct
import wave

RATE = 16000
SECONDS = 3.0
F0, F1 = 200.0, 3200.0
FADE = 0.010

n = int(RATE * SECONDS)
k = (F1 - F0) / SECONDS  # Hz per second
frames = bytearray()
for i in range(n):
    t = i / RATE
    phase = 2.0 * math.pi * (F0 * t + 0.5 * k * t * t)
    gain = min(1.0, t / FADE, (SECONDS - t) / FADE)
    v = int(round(0.5 * gain * math.sin(phase) * 32767))
    frames += struct.pack("<h", v)
with wave.open("chirp.wav", "wb") as w:
    w.setnchannels(1)
    w.setsampwidth(2)
    w.setframerate(RATE)
    w.writeframes(bytes(frames))
