#!/bin/sh
# Regenerates the sample pictures (ImageMagick 6). Run from resources/samples/.
set -e
FONT=DejaVu-Sans-Bold

# castle.png / castle.jpg: 320x240 dusk sky, hills and a castle silhouette (grid 9x11).
convert -size 320x240 gradient:'#f6c38b'-'#2b3a6b' -rotate 180 \
  -fill '#3d5a3a' -draw "ellipse 60,250 140,60 0,360" -draw "ellipse 270,255 150,70 0,360" \
  -fill '#1d1f2e' \
  -draw "rectangle 110,120 210,200" \
  -draw "rectangle 95,90 125,200" -draw "rectangle 195,90 225,200" \
  -draw "rectangle 145,70 175,120" \
  -draw "polygon 92,90 110,55 128,90" -draw "polygon 192,90 210,55 228,90" \
  -draw "polygon 142,70 160,35 178,70" \
  -draw "rectangle 110,112 118,120" -draw "rectangle 126,112 134,120" \
  -draw "rectangle 142,112 150,120" -draw "rectangle 170,112 178,120" \
  -draw "rectangle 186,112 194,120" -draw "rectangle 202,112 210,120" \
  -fill '#f2d27a' -draw "rectangle 152,82 168,100" -draw "rectangle 104,110 116,124" \
  -draw "rectangle 204,110 216,124" \
  -fill '#0e0f18' -draw "roundrectangle 148,160 172,200 10,10" \
  -fill '#fff6d8' -draw "circle 262,52 262,40" \
  -depth 8 -strip castle.png
convert castle.png -quality 85 -strip castle.jpg

# checker.png: 224x224, 8x8 cells of 28 px numbered 0..63 in reading order: with Qwen2.5-VL's
# factor 28 each cell is exactly one LLM token (grid 8x8, tokens 0..63 row-major).
cmd="convert -size 224x224 xc:white -font $FONT -pointsize 12 -gravity NorthWest"
n=0
for r in 0 1 2 3 4 5 6 7; do
  for c in 0 1 2 3 4 5 6 7; do
    x=$((c * 28)); y=$((r * 28))
    if [ $(((r + c) % 2)) -eq 0 ]; then bg='#2f4b7c'; fg=white; else bg='#e8eef7'; fg='#2f4b7c'; fi
    cmd="$cmd -fill '$bg' -draw 'rectangle $x,$y $((x + 27)),$((y + 27))'"
    tx=$((x + 4)); [ $n -lt 10 ] && tx=$((x + 10))
    cmd="$cmd -fill '$fg' -annotate +$tx+$((y + 7)) $n"
    n=$((n + 1))
  done
done
eval "$cmd -depth 8 -strip checker.png"

# moving.gif: 8 frames of 112x112, a ball crossing the picture (4 temporal patches of 4x4),
# 0.25 s per frame (4 fps).
frames=""
for i in 0 1 2 3 4 5 6 7; do
  cx=$((14 + i * 12)); cy=$((30 + i * 7))
  convert -size 112x112 gradient:'#dfe9f3'-'#9fb6cd' -fill '#d1495b' \
    -draw "circle $cx,$cy $((cx + 12)),$cy" -fill '#30343f' -font $FONT -pointsize 11 \
    -annotate +88+104 "f$i" -strip "frame$i.png"
  frames="$frames frame$i.png"
done
convert -delay 25 -loop 0 $frames -layers Optimize moving.gif
# frames/: the first four frames as separate files, for the folder form vid:frames/.
mkdir -p frames
for i in 0 1 2 3; do mv "frame$i.png" "frames/frame_$((i + 1)).png"; done
rm -f $frames

# chirp.wav: 3 s of 16 kHz mono 16-bit sound, a sweep from 200 Hz to 3200 Hz (Python's standard
# library; see make_chirp.py). 75 Qwen2.5-Omni audio tokens (300 mel frames), 39 Qwen3-Omni ones.
python3 make_chirp.py
