// Streaming pass (online softmax): one invocation per query row keeps the running max m, the
// sum z of exp(l - m) and t = sum exp(l - m)(l - m) over all keys, which the work group loads
// tile by tile into shared memory. Keys come in chunks [keyBegin, keyEnd), one dispatch each,
// with (m, z, t) carried in the buffer between them: Mesa's llvmpipe stops any invocation after
// 65535 loop iterations in total, and short dispatches keep drivers' watchdogs quiet. The dot
// products are unrolled (DOT_SHARED, generated for HEAD_DIM) for the same reason.
// After the last chunk (last = 1) the third value becomes the entropy log z - t/z. Row r sees
// the keys kr[2r] .. kr[2r + 1] (the layer's mask); the work group's tiles span its rows' keys.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Q { float q[]; };
layout(std430, binding = 1) readonly buffer K { float k[]; };
layout(std430, binding = 2) buffer Stats { float st[]; };
layout(std430, binding = 4) readonly buffer Keys { uint kr[]; };
uniform uint tokens;
uniform uint rowBegin;
uniform uint rowEnd;
uniform uint keyBegin;
uniform uint keyEnd;
uniform uint first;
uniform uint last;

#define KEY_TILE 32u
shared float ks[KEY_TILE * uint(HEAD_DIM)];

void main() {
  uint r = rowBegin + gl_GlobalInvocationID.x;
  bool live = r < rowEnd;
  float qr[HEAD_DIM];
  for (int i = 0; i < HEAD_DIM; ++i) qr[i] = live ? q[r * uint(HEAD_DIM) + uint(i)] : 0.0;
  float m = 0.0, z = 0.0, t = 0.0;
  uint o = 3u * (r - rowBegin);
  if (live && first == 0u) {
    m = st[o];
    z = st[o + 1u];
    t = st[o + 2u];
  }
  // The same bounds in every invocation of the group (barrier() needs uniform control flow).
  uint g0 = rowBegin + gl_WorkGroupID.x * 64u;
  uint g1 = min(g0 + 64u, rowEnd);
  uint spanBegin = 0xffffffffu, spanEnd = 0u;
  for (uint rr = g0; rr < g1; ++rr) {
    spanBegin = min(spanBegin, kr[2u * rr]);
    spanEnd = max(spanEnd, kr[2u * rr + 1u]);
  }
  uint rowLo = live ? kr[2u * r] : 0u;
  uint rowHi = live ? kr[2u * r + 1u] : 0u;
  uint cEnd = min(keyEnd, spanEnd);
  for (uint c0 = max(keyBegin, spanBegin); c0 < cEnd; c0 += KEY_TILE) {
    uint bc = min(KEY_TILE, cEnd - c0);
    barrier();
    for (uint i = gl_LocalInvocationID.x; i < bc * uint(HEAD_DIM); i += 64u)
      ks[i] = k[c0 * uint(HEAD_DIM) + i];
    barrier();
    if (!live) continue;
    uint jb = rowLo > c0 ? min(bc, rowLo - c0) : 0u;
    uint lim = rowHi > c0 ? min(bc, rowHi - c0) : 0u;
    if (lim <= jb) continue;
    // The tile's logits first, then one rescale to the tile's maximum: fewer divergent branches
    // and exps than updating the running maximum key by key.
    float lt[KEY_TILE];
    float tm = uintBitsToFloat(0xff800000u);
    for (uint j = jb; j < lim; ++j) {
      uint kb = j * uint(HEAD_DIM);
      lt[j] = DOT_SHARED(kb);
      tm = max(tm, lt[j]);
    }
    float mNew = z == 0.0 ? tm : max(m, tm);
    if (z > 0.0 && mNew > m) {  // rescale the running sums to the new maximum
      float sc = exp(m - mNew);
      t = sc * (t + (m - mNew) * z);
      z *= sc;
    }
    m = mNew;
    for (uint j = jb; j < lim; ++j) {
      float e = exp(lt[j] - m);
      z += e;
      t += e * (lt[j] - m);
    }
  }
  if (live) {
    st[o] = m;
    st[o + 1u] = z;
    st[o + 2u] = last != 0u ? log(z) - t / z : t;
  }
}
