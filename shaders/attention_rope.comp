// RoPE in place on one head of q or k: pair p rotates dims (a, b) by the token's precomputed
// angle (cos/sin tables from core), a = p, b = p + pairs in the NeoX rotate_half layout
// (gptj = 0), a = 2p, b = 2p + 1 in the GPT-J layout (gptj = 1), as core's pairDims; dims from
// 2 * pairs pass through. q is also scaled by 1/sqrt(d) so that a plain dot product is the
// logit, and where perToken = 1 by the token's factor qs[t] too (Llama 4's NoPE temperature),
// as scale * qs[t] in float32. Same float ops as core's rotateRows.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer X { float x[]; };
layout(std430, binding = 1) readonly buffer C { float cs[]; };
layout(std430, binding = 2) readonly buffer S { float sn[]; };
layout(std430, binding = 3) readonly buffer QS { float qs[]; };
uniform uint tokens;
uniform uint pairs;
uniform uint gptj;
uniform float scale;
uniform uint perToken;

void main() {
  uint t = gl_GlobalInvocationID.x;
  if (t >= tokens) return;
  float f = perToken != 0u ? scale * qs[t] : scale;
  uint base = t * uint(HEAD_DIM);
  uint tb = t * pairs;
  for (uint p = 0u; p < pairs; ++p) {
    float c = cs[tb + p];
    float s = sn[tb + p];
    uint a = base + (gptj != 0u ? 2u * p : p);
    uint b = base + (gptj != 0u ? 2u * p + 1u : p + pairs);
    float x0 = x[a];
    float x1 = x[b];
    x[a] = (x0 * c - x1 * s) * f;
    x[b] = (x1 * c + x0 * s) * f;
  }
  for (uint i = 2u * pairs; i < uint(HEAD_DIM); ++i) x[base + i] *= f;
}
