// Private arrays read at a per-lane index while every lane of a 16-lane
// subgroup is active: the JIT reads such a promoted array with one vector
// gather (float and int elements, 32-bit and 64-bit indices).  A lane whose
// index is past the array takes the per-lane path (a fault that yields 0)
// in its own subgroup only; the others keep the gather.
__attribute__((intel_reqd_sub_group_size(16)))
kernel void promoted_gather(global float *out, global int *outi, global const uint *idx)
{
  size_t i = get_global_id(0);
  uint l = get_sub_group_local_id();
  float v[16];
  int w[16];
  for (int k = 0; k < 16; k++) {
    v[k] = (float)(i * 16 + k) * 0.5f;
    w[k] = (int)(i * 100) - k;
  }
  for (uint k = 0; k < 4; k++) {
    uint s = (l + k * 5) & 15u;
    out[i * 4 + k] = v[s];
    outi[i * 4 + k] = w[(l * 3 + k) & 15u];
  }
  size_t n = idx[i];
  outi[256 + i] = w[n];   /* idx[37]: far past private memory */
}
