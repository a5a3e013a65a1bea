// Pooled view, stage 1: for rows [rowBegin, rowEnd) and every block column J, the sum over the
// row's keys in J of the logit (unmasked ones) or the probability exp(l - m) / z (stats of all
// rows, indexed by absolute row). One invocation per (row, J); keys are limited to
// [keyBegin, keyEnd) per dispatch and added to the previous chunk's sum unless first = 1
// (llvmpipe's loop limit, see attention_stats.comp).
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Q { float q[]; };
layout(std430, binding = 1) readonly buffer K { float k[]; };
layout(std430, binding = 2) readonly buffer Stats { float st[]; };
layout(std430, binding = 3) buffer Partial { float part[]; };
layout(std430, binding = 4) readonly buffer Keys { uint kr[]; };  // per row: first key, end
uniform uint tokens;
uniform uint rowBegin;
uniform uint rowEnd;
uniform uint softmax;
uniform uint block;
uniform uint blocks;
uniform uint keyBegin;
uniform uint keyEnd;
uniform uint first;

void main() {
  uint J = gl_GlobalInvocationID.x;
  uint r = rowBegin + gl_GlobalInvocationID.y;
  if (J >= blocks || r >= rowEnd) return;
  float qr[HEAD_DIM];
  for (int i = 0; i < HEAD_DIM; ++i) qr[i] = q[r * uint(HEAD_DIM) + uint(i)];
  uint c0 = max(max(J * block, keyBegin), kr[2u * r]);
  uint c1 = min(min(min(tokens, J * block + block), keyEnd), kr[2u * r + 1u]);
  float sum = 0.0;
  float m = softmax != 0u ? st[3u * r] : 0.0;
  float invZ = softmax != 0u ? 1.0 / st[3u * r + 1u] : 1.0;
  for (uint c = c0; c < c1; ++c) {
    uint kb = c * uint(HEAD_DIM);
    float l = DOT_REG_GLOBAL(kb);
    sum += softmax != 0u ? exp(l - m) * invZ : l;
  }
  uint at = (r - rowBegin) * blocks + J;
  part[at] = first != 0u ? sum : part[at] + sum;
}
