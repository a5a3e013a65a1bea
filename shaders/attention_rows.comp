// Rows [rowBegin, rowEnd) of the logits (or, with softmax set, of the probabilities
// exp(l - m) / z from the streaming pass's stats): one invocation per (row, key).
// Masked entries (outside the row's key range kr[2r] .. kr[2r + 1]): -inf logits, 0
// probabilities.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Q { float q[]; };
layout(std430, binding = 1) readonly buffer K { float k[]; };
layout(std430, binding = 2) readonly buffer Stats { float st[]; };
layout(std430, binding = 3) writeonly buffer Out { float o[]; };
layout(std430, binding = 4) readonly buffer Keys { uint kr[]; };
uniform uint tokens;
uniform uint rowBegin;
uniform uint rowEnd;
uniform uint softmax;

void main() {
  uint c = gl_GlobalInvocationID.x;
  uint r = rowBegin + gl_GlobalInvocationID.y;
  if (c >= tokens || r >= rowEnd) return;
  uint at = (r - rowBegin) * tokens + c;
  if (c < kr[2u * r] || c >= kr[2u * r + 1u]) {
    o[at] = softmax != 0u ? 0.0 : uintBitsToFloat(0xff800000u);
    return;
  }
  uint qb = r * uint(HEAD_DIM), kb = c * uint(HEAD_DIM);
  float l = DOT_GLOBAL(qb, kb);  // unrolled: see attention_stats.comp
  if (softmax != 0u) {
    uint s = 3u * (r - rowBegin);
    l = exp(l - st[s]) / st[s + 1u];
  }
  o[at] = l;
}
